// `attnprof diff A B [--region NAME] [--top N] [--activities] [--format text|json|md|csv|html]
// [--table VIEW] [-o FILE]`: what changed from trace A to trace B. Exit 0 (a difference is a
// finding, not a failure), 2 on bad input.

#include <memory>

#include "base/enum_names.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "cli/region_option.h"
#include "io/input_guard.h"
#include "pipeline/diff_run.h"

namespace attnprof::cli {

namespace {

struct DiffArgs {
  std::string trace_a, trace_b;
  std::string region;
  size_t top = 10;
  bool activities = false;
  std::string table = "activities";
  OutputOption output;
  LimitOptions limits;
};

const std::vector<OutputFormat> kDiffFormats = {OutputFormat::kText, OutputFormat::kJson,
                                                OutputFormat::kMarkdown, OutputFormat::kCsv,
                                                OutputFormat::kHtml};

int run(const DiffArgs& args) {
  if (Status once = refuse_standard_input_twice({args.trace_a, args.trace_b}); !once.ok())
    return fail(once.error());
  if (Status refused = refuse_output_over_inputs(args.output.path, {args.trace_a, args.trace_b});
      !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format("diff", args.output, kDiffFormats, OutputFormat::kText);
  if (!format.ok()) return fail(format.error());
  auto out =
      diff_output(DiffRequest{args.trace_a, args.trace_b, args.region, args.limits.to_limits()},
                  *format, DiffTextOptions{args.top, args.activities},
                  parse_name_in(kDiffCsvTableNames, args.table).value());
  if (!out.ok()) return fail(out.error());
  return write_command_output(
      *format == OutputFormat::kText ? args.output.fit_text(std::move(out).value()) : *out,
      args.output.path);
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
  cmd->add_option("--top", args->top,
                  "Rows of each view (by kernel, op, nn.Module class, attention call) in text "
                  "and Markdown")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--activities", args->activities,
                "Text and Markdown: also list the typical regions' GPU activities aligned, each "
                "added, removed or changed one with its op chain");
  cmd->add_option("--table", args->table,
                  "The table --format csv writes: a view, one row per entry, or activities, one "
                  "row per activity of the aligned typical regions")
      ->check(CLI::IsMember(names_in(kDiffCsvTableNames)))
      ->capture_default_str();
  args->output.add_to(*cmd, kDiffFormats,
                      "text; csv: the table --table names (default: the aligned activities)");
  args->output.add_wide_flag(*cmd);
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
