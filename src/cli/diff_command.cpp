// `attnprof diff A B [--region NAME] [--format text|json|md|csv]`: what changed from trace A to
// trace B. Exit 0 (a difference is a finding, not a failure), 2 on bad input.

#include "analysis/trace_diff.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/region_option.h"
#include "render/diff_output.h"

namespace attnprof::cli {

namespace {

struct DiffArgs {
  std::string trace_a, trace_b;
  std::string region;
  std::string format = "text";
  LimitOptions limits;
};

int run(const DiffArgs& args) {
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
  cmd->add_option("a", args->trace_a, "The baseline trace (.json or .json.gz)")->required();
  cmd->add_option("b", args->trace_b, "The trace to compare with it")->required();
  add_region_option(*cmd, args->region, ", in both traces");
  cmd->add_option("--format", args->format,
                  "Output format; csv: one row per activity of the aligned typical regions")
      ->check(CLI::IsMember({"text", "json", "md", "csv"}));
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
