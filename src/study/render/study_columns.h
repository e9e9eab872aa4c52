#pragma once
// The study's table, one row per variant of a bench run: its columns listed once, for the bench's
// own table (terminal and summary.md) and the report's run table (HTML and Markdown). A new
// column (a hardware counter, an attention variant's own number) is one entry of
// `study_columns()` (docs/ARCHITECTURE.md, "Adding a column").
//
// A row is a `RunVariant`: what summary.json holds of a variant, which the report reads back and
// the bench fills from its measurements (bench/src/study_table.cpp), so both print the same cells.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "study/run/run_summary.h"

namespace attnprof {

// Terminal cells are cut to fit a wide terminal (long kernel names and PyTorch's reasons end in
// "..."); Markdown and HTML cells are whole.
enum class CellWidth { kTerminal, kFull };

struct StudyColumn {
  std::string_view header;
  bool numeric = false;  // aligned right
  // A column of durations gives each row's duration (nanoseconds; none: "-"): its cells share one
  // unit, picked from the values and said in the header ("GPU median (µs)").
  std::optional<double> (*duration_ns)(const RunVariant&) = nullptr;
  // Any other column gives its cells as text, before escaping.
  std::string (*cell)(const RunVariant&, CellWidth) = nullptr;
  // Shown only when the run measured hardware counters (bench --counters, docs/counters.md).
  bool of_counters = false;
  // Its cells are kernel names: Markdown cuts them to a table's width and lists them in full
  // below it (render/markdown_kernel_names.h).
  bool kernel_names = false;
  // The headline rate: TFLOP/s and % peak for a problem above the GPU's ridge point, K/V GB/s
  // and % HBM below it (a decode step), never both.
  enum class Bound : uint8_t { kAny, kCompute, kMemory } bound = Bound::kAny;
  // The variant's status: HTML cuts its long cells, keeping the whole in their title, as it does
  // kernel names.
  bool status = false;
};

// variant, kernels/fwd, (kernels/bwd with the backward), main kernel, memcpy/fwd, GPU median,
// TFLOP/s and % peak (K/V GB/s and % HBM when memory-bound), (% roof), peak mem, occupancy,
// (occupancy measured by ncu), launch API, CPU/fwd, rel. error, status; the columns in
// parentheses when the run has counters.
std::vector<StudyColumn> study_columns(bool backward);

// What decides which columns a point's table shows.
struct StudyTableKind {
  bool backward = false;
  bool memory_bound = false;  // RunPoint::memory_bound
};

// The line above a point's table: the problem, its work per call, and for a memory-bound point
// its bytes and why ("bf16, batch 4, 16 heads (4 KV), seq 2048, ...: 68.7 GFLOP per call").
std::string study_heading(const RunPoint& point);

// Cells as text, not yet escaped: each renderer escapes them its own way (markdown_cell,
// escape_control, HTML).
struct StudyTable {
  std::vector<std::string> header;
  std::vector<bool> numeric;       // per column: aligned right
  std::vector<bool> kernel_names;  // per column: StudyColumn::kernel_names
  std::vector<bool> statuses;      // per column: StudyColumn::status
  std::vector<std::vector<std::string>> rows;
};

StudyTable study_table(const std::vector<RunVariant>& variants, StudyTableKind kind,
                       CellWidth width);

// For a terminal: columns padded to a width, numbers aligned right, a rule under the header; each
// cell escaped (display_text.h), so that a name cannot move the cursor or start a line.
std::string study_table_text(const StudyTable& table);
// A GitHub Markdown table; each cell through markdown_cell, so that `|` and newlines forge no
// cell or row; kernel names cut, numbered and listed in full under it in a <details> block.
std::string study_table_markdown(const StudyTable& table);

}  // namespace attnprof
