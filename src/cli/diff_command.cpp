// `attnprof diff A B [--region NAME] [--format text|json|md|csv]`: what changed from trace A to
// trace B. Exit 0 (a difference is a finding, not a failure), 2 on bad input.

#include <filesystem>

#include "analysis/counter_diff.h"
#include "attnprof/trace_diff.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
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
  std::string format = "text";
  LimitOptions limits;
};

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
  return write_command_output(render_counter_diff_text(diff_counters(*a, *b)));
}

int run(const DiffArgs& args) {
  if (Status once = refuse_standard_input_twice({args.trace_a, args.trace_b}); !once.ok())
    return fail(once.error());
  if (is_run_folder(args.trace_a) && is_run_folder(args.trace_b)) {
    // The counters' diff of two runs has a text form only: another format is refused rather
    // than answered with text.
    if (args.format != "text")
      return fail(make_error(ErrorKind::kUsage,
                             "diff of two run folders writes text only; --format {} is for two "
                             "traces (give their trace files)",
                             args.format));
    return run_on_runs(args);
  }
  AnalyzeOptions options;
  options.region_pattern = args.region;
  options.activities_of_every_region = true;  // each activity's spread over every region
  options.limits = args.limits.to_limits();
  auto a = analyze_file(args.trace_a, options);
  if (!a.ok()) return fail(a.error());
  auto b = analyze_file(args.trace_b, options);
  if (!b.ok()) return fail(b.error());
  auto diff = diff_traces(*a, *b);
  if (!diff.ok()) return fail(diff.error());
  std::string out = args.format == "json"  ? render_diff_json(*diff)
                    : args.format == "md"  ? render_diff_markdown(*diff)
                    : args.format == "csv" ? render_diff_csv(*diff)
                                           : render_diff_text(*diff);
  return write_command_output(out);
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
  cmd->add_option("--format", args->format,
                  "Output format; csv: one row per activity of the aligned typical regions")
      ->check(CLI::IsMember({"text", "json", "md", "csv"}));
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
