#pragma once
// The TRACE arguments of `attnprof analyze`: files, or folders of them (docs/ARCHITECTURE.md).

#include <optional>
#include <string>
#include <vector>

#include "attnprof/result.h"

namespace attnprof::cli {

// A trace to read, or an argument that gave none (a folder without traces) and why.
struct TraceInput {
  std::string path;
  std::optional<Error> error;
};

// Each argument in order; a folder becomes its traces in natural order (io/trace_directory.h).
// Anything else stays as given, for the reader to open or to say why it cannot.
std::vector<TraceInput> expand_trace_inputs(const std::vector<std::string>& arguments);

}  // namespace attnprof::cli
