// `attnprof analyze TRACE... [--region NAME] [--format text|json|md]`

#include <sys/stat.h>

#include <cstdio>
#include <iostream>

#include "attnprof/analysis.h"
#include "attnprof/render.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/terminal_progress.h"

namespace attnprof::cli {

namespace {

struct AnalyzeArgs {
  std::vector<std::string> traces;
  std::string region;
  std::string format = "text";
  bool explain = false;
  LimitOptions limits;
};

uint64_t file_size(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

int run(const AnalyzeArgs& args) {
  std::vector<TraceAnalysis> results;
  for (const auto& path : args.traces) {
    AnalyzeOptions options;
    options.region_pattern = args.region;
    options.activities_of_every_region = args.format == "json";
    options.explain = args.explain;
    options.limits = args.limits.to_limits();
    TerminalProgress progress("reading " + path, file_size(path));
    options.progress = [&progress](uint64_t done) { progress.update(done); };
    auto analysis = analyze_file(path, options);
    if (!analysis.ok()) {
      std::fprintf(stderr, "attnprof: %s\n", analysis.error().message.c_str());
      return 2;
    }
    results.push_back(std::move(analysis).value());
  }
  std::string out = args.format == "json" ? render_json(results)
                    : args.format == "md" ? render_markdown(results)
                                          : render_text(results);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return std::fflush(stdout) == 0 ? 0 : 2;
}

}  // namespace

void register_analyze(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "analyze", "Summarize PyTorch profiler traces region by region: kernels, copies, times, and "
                 "what launched each GPU activity");
  cmd->add_option("traces", args->traces, "Trace files (.json or .json.gz)")->required();
  cmd->add_option("--region", args->region,
                  "Regions are the user annotations with this name (wildcards * and ?); default: "
                  "ProfilerStep#* when present, else the whole trace");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json", "md"}));
  cmd->add_flag("--explain", args->explain,
                "Also say what the trace means: findings with their evidence and suggestions");
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
