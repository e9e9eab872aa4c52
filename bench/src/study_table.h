#pragma once
// The study's table: what docs/STUDY.md's table reports, from this machine's measurements.

#include <string>
#include <vector>

#include "study_result.h"

namespace attnprof::bench {

struct Table {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

// Cells for the terminal are cut to fit a wide terminal (long kernel names and PyTorch's reasons
// end in "…"); for Markdown they are whole.
enum class CellWidth { kTerminal, kFull };

// One row per variant: variant, kernels/fwd, main kernel, memcpy/fwd, GPU median, TFLOP/s,
// % peak, peak mem, occupancy, launch API, CPU/fwd, rel. error, status (and kernels/bwd with the
// backward).
Table study_table(const StudyPoint& point, CellWidth width);

// Which column is measured how (CUDA events, the trace, the datasheet, the float64 reference).
std::vector<std::string> method_notes(const StudyReport& report);

// The device and library versions line.
std::string environment_line(const StudyReport& report);

// What stdout shows: the environment, one table per point, the method notes.
std::string render_text(const StudyReport& report);
// summary.md: the same as Markdown tables, cells whole.
std::string render_markdown(const StudyReport& report);

}  // namespace attnprof::bench
