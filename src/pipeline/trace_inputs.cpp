#include "pipeline/trace_inputs.h"

#include <algorithm>
#include <filesystem>

#include "io/trace_directory.h"

namespace attnprof {

namespace fs = std::filesystem;

std::vector<TraceInput> expand_trace_inputs(const std::vector<std::string>& arguments) {
  std::vector<TraceInput> inputs;
  for (const auto& argument : arguments) {
    std::error_code ec;
    if (!fs::is_directory(argument, ec)) {
      inputs.push_back({argument, std::nullopt});
      continue;
    }
    const fs::path folder = argument;
    const bool study = fs::is_regular_file(folder / "summary.json", ec);
    const bool bench_layout = study && fs::is_directory(folder / "traces", ec);
    auto traces = list_trace_directory(bench_layout ? (folder / "traces").string() : argument);
    if (!traces.ok()) {
      inputs.push_back({argument, traces.take_error()});
      continue;
    }
    const size_t before = inputs.size();
    for (auto& path : *traces) {
      // The study's table, not a trace: `analyze STUDY_DIR` reads the traces beside it.
      if (study && fs::path(path).filename() == "summary.json") continue;
      inputs.push_back({std::move(path), std::nullopt, study});
    }
    if (inputs.size() == before)
      inputs.push_back({argument,
                        make_error(ErrorKind::kUsage,
                                   "{}: a study folder without traces: its summary.json is read "
                                   "by `attnprof report`, its traces/ by analyze",
                                   argument),
                        study});
  }
  return inputs;
}

std::vector<std::string> expand_trace_paths(const std::vector<std::string>& arguments) {
  std::vector<std::string> paths;
  for (const auto& a : arguments) {
    auto listed = list_trace_directory(a);
    if (listed.ok()) {
      for (auto& p : *listed) paths.push_back(std::move(p));
    } else {
      paths.push_back(a);
    }
  }
  return paths;
}

}  // namespace attnprof
