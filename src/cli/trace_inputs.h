#pragma once
// The TRACE arguments of `attnprof analyze`: files, or folders of them (docs/ARCHITECTURE.md), or a
// study folder (`attnprof bench --out`, a summary.json beside its traces), read as report and check
// read it (README.md, `attnprof analyze`).

#include <optional>
#include <string>
#include <vector>

#include "attnprof/result.h"

namespace attnprof::cli {

// A trace to read, or an argument that gave none (a folder without traces) and why.
struct TraceInput {
  std::string path;
  std::optional<Error> error;
  bool of_study = false;  // a trace of a study folder: its regions are the bench's `forward`
};

// The bench's user annotation around each call: a study's region (pipeline/report_inputs.cpp).
inline constexpr const char* kStudyRegion = "forward";

// Each argument in order; a folder becomes its traces in natural order (io/trace_directory.h); a
// study folder its traces/ (or its own traces, summary.json left out). Anything else stays as
// given, for the reader to open or to say why it cannot.
std::vector<TraceInput> expand_trace_inputs(const std::vector<std::string>& arguments);

}  // namespace attnprof::cli
