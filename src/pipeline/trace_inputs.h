#pragma once
// The trace arguments of `attnprof analyze` and of the Python module: files, or folders of them
// (docs/ARCHITECTURE.md), or a study folder (`attnprof bench --out`, a summary.json beside its
// traces), read as report and check read it (README.md, `attnprof analyze`).

#include <optional>
#include <string>
#include <vector>

#include "attnprof/result.h"

namespace attnprof {

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

// The Python module's reading of its paths: a folder becomes its traces in natural order, anything
// else (a file, or a folder the reader will say is not a trace) stays as given.
std::vector<std::string> expand_trace_paths(const std::vector<std::string>& arguments);

}  // namespace attnprof
