#include "cli/trace_inputs.h"

#include <filesystem>

#include "io/trace_directory.h"

namespace attnprof::cli {

std::vector<TraceInput> expand_trace_inputs(const std::vector<std::string>& arguments) {
  std::vector<TraceInput> inputs;
  for (const auto& argument : arguments) {
    std::error_code ec;
    if (!std::filesystem::is_directory(argument, ec)) {
      inputs.push_back({argument, std::nullopt});
      continue;
    }
    auto traces = list_trace_directory(argument);
    if (!traces.ok()) {
      inputs.push_back({argument, traces.take_error()});
      continue;
    }
    for (auto& path : *traces) inputs.push_back({std::move(path), std::nullopt});
  }
  return inputs;
}

}  // namespace attnprof::cli
