// `attnprof diff A B [--region NAME] [--format text|json|md|csv] [-o FILE]`: what changed from
// trace A to trace B. Exit 0 (a difference is a finding, not a failure), 2 on bad input.

#include <filesystem>

#include "analysis/counter_diff.h"
#include "analysis/workload_mismatch.h"
#include "attnprof/trace_diff.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "cli/region_option.h"
#include "io/input_guard.h"
#include "reader/run_summary.h"
#include "render/counter_diff_output.h"
#include "render/diff_output.h"

namespace attnprof::cli {

namespace {

struct DiffArgs {
  std::string trace_a, trace_b;
  std::string region;
  OutputOption output;
  LimitOptions limits;
};

const std::vector<std::string> kFormats = {"text", "json", "md", "csv"};

// Two bench run folders (summary.json in each): their hardware counters compared, variant by
// variant (bench --counters, docs/counters.md). Text only.
bool is_run_folder(const std::string& path) {
  return std::filesystem::is_directory(path) &&
         std::filesystem::exists(std::filesystem::path(path) / "summary.json");
}

int run_on_runs(const DiffArgs& args) {
  const uint64_t max = args.limits.to_limits().max_side_file_bytes;
  auto a = read_run_summary((std::filesystem::path(args.trace_a) / "summary.json").string(), max);
  if (!a.ok()) return fail(a.error());
  auto b = read_run_summary((std::filesystem::path(args.trace_b) / "summary.json").string(), max);
  if (!b.ok()) return fail(b.error());
  return write_command_output(args.output.fit_text(render_unlike_text(workload_mismatches(*a, *b)) +
                                                   render_counter_diff_text(diff_counters(*a, *b))),
                              args.output.path);
}

int run(const DiffArgs& args) {
  if (Status once = refuse_standard_input_twice({args.trace_a, args.trace_b}); !once.ok())
    return fail(once.error());
  if (Status refused = refuse_output_over_inputs(args.output.path, {args.trace_a, args.trace_b});
      !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format("diff", args.output, kFormats, "text");
  if (!format.ok()) return fail(format.error());
  if (is_run_folder(args.trace_a) && is_run_folder(args.trace_b)) {
    // The counters' diff of two runs has a text form only: another format is refused rather
    // than answered with text.
    if (*format != "text")
      return fail(make_error(ErrorKind::kUsage,
                             "diff of two run folders writes text only; --format {} is for two "
                             "traces (give their trace files)",
                             *format));
    return run_on_runs(args);
  }
  AnalyzeOptions options;
  options.attention_of_every_region = false;  // the median and the typical region's
  options.region_pattern = args.region;
  options.activities_of_every_region = true;  // each activity's spread over every region
  options.limits = args.limits.to_limits();
  auto a = analyze_file(args.trace_a, options);
  if (!a.ok()) return fail(a.error());
  auto b = analyze_file(args.trace_b, options);
  if (!b.ok()) return fail(b.error());
  auto diff = diff_traces(*a, *b);
  if (!diff.ok()) return fail(diff.error());
  std::string out = *format == "json"  ? render_diff_json(*diff)
                    : *format == "md"  ? render_diff_markdown(*diff)
                    : *format == "csv" ? render_diff_csv(*diff)
                                       : args.output.fit_text(render_diff_text(*diff));
  return write_command_output(out, args.output.path);
}

}  // namespace

void register_diff(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<DiffArgs>();
  CLI::App* cmd = app.add_subcommand(
      "diff",
      "Compare two traces region by region: activities added, removed or changed (with the "
      "ops that launched them), time per region and per kernel class, beyond each trace's noise");
  cmd->add_option("a", args->trace_a,
                  "The baseline trace (.json or .json.gz); or a bench run folder (summary.json), "
                  "B another: their hardware counters compared (bench --counters)")
      ->required();
  cmd->add_option("b", args->trace_b, "The trace to compare with it")->required();
  add_region_option(*cmd, args->region, ", in both traces");
  args->output.add_to(*cmd, kFormats,
                      "text; csv: one row per activity of the aligned typical regions");
  args->output.add_wide_flag(*cmd);
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
