// `attnprof annotate TRACE -o OUT [--region NAME] [--critical-path]`: a copy of the trace with
// attnprof's findings, the typical region, the hidden copies' links and each region's critical
// path as events, to open in https://ui.perfetto.dev
// (pipeline/annotate_file.h); a folder of ranks with --critical-path, merged into one trace
// (pipeline/annotate_ranks_file.h). Exit 0, or 2 on bad input or an unwritable OUT.

#include <cstdio>
#include <filesystem>
#include <memory>

#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/region_option.h"
#include "pipeline/annotate_file.h"
#include "pipeline/annotate_ranks_file.h"

namespace attnprof::cli {

namespace {

struct AnnotateArgs {
  std::string trace;
  std::string out;
  std::string region;
  bool critical_path = false;
  LimitOptions limits;
};

// A folder of ranks: one merged trace, each rank a process, aligned on the first collective.
int run_ranks(const AnnotateArgs& args, const AnalyzeOptions& options) {
  auto outcome = annotate_ranks(args.trace, args.out, options);
  if (!outcome.ok()) {
    std::fprintf(stderr, "attnprof: %s\n", outcome.error().message.c_str());
    return 2;
  }
  if (!outcome->warning.empty())
    std::fprintf(stderr, "attnprof: warning: %s\n", outcome->warning.c_str());
  std::FILE* said = args.out == "-" || args.out == "/dev/stdout" ? stderr : stdout;
  std::fprintf(said, "%s: %zu ranks merged, each a process:\n", args.out.c_str(),
               outcome->ranks.size());
  for (const MergedRank& r : outcome->ranks)
    std::fprintf(said, "  rank %d: %s, moved %+.3f µs to align %s; %zu critical path%s marked\n",
                 r.rank, r.path.c_str(), static_cast<double>(r.shift_ns) / 1000.0,
                 r.aligned_on.c_str(), r.critical_paths, r.critical_paths == 1 ? "" : "s");
  std::fprintf(said, "Open it in https://ui.perfetto.dev (Open trace file).\n");
  return std::fflush(stdout) == 0 ? 0 : 2;
}

int run(const AnnotateArgs& args) {
  AnalyzeOptions options;
  options.attention_of_every_region = false;  // the median and the typical region's
  options.region_pattern = args.region;
  options.limits = args.limits.to_limits();
  std::error_code error;
  if (std::filesystem::is_directory(args.trace, error)) {
    if (args.critical_path) return run_ranks(args, options);
    std::fprintf(stderr,
                 "attnprof: %s is a folder: annotate takes a trace, or a folder of ranks with "
                 "--critical-path\n",
                 args.trace.c_str());
    return 2;
  }
  auto outcome = annotate_file(args.trace, args.out, options, args.critical_path);
  if (!outcome.ok()) {
    std::fprintf(stderr, "attnprof: %s\n", outcome.error().message.c_str());
    return 2;
  }
  const TraceAnalysis& a = outcome->analysis;
  // With the copy on standard output, what was written is said on standard error.
  std::FILE* said = args.out == "-" || args.out == "/dev/stdout" ? stderr : stdout;
  std::fprintf(said, "%s: %zu events added (%zu finding%s, %s, %zu hidden cop%s linked to %s op)\n",
               args.out.c_str(), outcome->events_added, a.findings.size(),
               a.findings.size() == 1 ? "" : "s",
               a.typical_region >= 0 ? "the typical region" : "no region",
               outcome->hidden_copy_links, outcome->hidden_copy_links == 1 ? "y" : "ies",
               outcome->hidden_copy_links == 1 ? "its" : "their");
  if (args.critical_path)
    std::fprintf(
        said, "The critical path of %zu region%s marked, on the \"attnprof critical path\" track\n",
        outcome->critical_paths, outcome->critical_paths == 1 ? "" : "s");
  std::fprintf(said, "Open it in https://ui.perfetto.dev (Open trace file).\n");
  return std::fflush(stdout) == 0 ? 0 : 2;
}

}  // namespace

void register_annotate(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<AnnotateArgs>();
  CLI::App* cmd = app.add_subcommand(
      "annotate",
      "Write a copy of a trace with attnprof's findings as instant events, the typical region "
      "marked, each hidden copy linked to the op that made it and, with --critical-path, each "
      "region's critical path; open it in Perfetto UI");
  cmd->add_option("trace", args->trace,
                  "Trace file (.json or .json.gz); with --critical-path, a folder of ranks' "
                  "traces too, merged into one trace with each rank a process and their clocks "
                  "aligned on their first collective")
      ->required();
  // --out was its only name before -o/--output was every command's; it stays.
  cmd->add_option(
         "-o,--output,--out", args->out,
         "The annotated copy (.json, or .json.gz for gzip; - for standard output); written whole "
         "or not at all, never over the trace")
      ->required();
  add_region_option(*cmd, args->region);
  cmd->add_flag("--critical-path", args->critical_path,
                "Mark each region's critical path: its stretches as slices on an \"attnprof "
                "critical path\" track, its events linked by flow arrows (regions that hold the "
                "same work share one path)");
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
