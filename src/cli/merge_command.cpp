// `attnprof merge SUMMARY... [--format text|json|md] [-o FILE]`: the reduce half of an analysis
// spread over many processes or machines (docs/DISTRIBUTED.md). Each SUMMARY file holds one or more
// trace summaries, as `attnprof analyze --format summary` writes them (JSON Lines); `-` is standard
// input. The ranks are compared as `attnprof analyze` compares the traces themselves. A summary
// that carries a map's error is reported as analyze reports a trace it could not read (exit 2);
// a file that is not a summary stops the command with one line naming its line and byte.

#include <algorithm>
#include <memory>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "io/input_guard.h"
#include "pipeline/merge_run.h"

namespace attnprof::cli {

namespace {

struct MergeArgs {
  std::vector<std::string> summaries;
  OutputOption output;
  LimitOptions limits;
};

const std::vector<OutputFormat> kMergeFormats = {OutputFormat::kText, OutputFormat::kJson,
                                                 OutputFormat::kMarkdown};

int run(const MergeArgs& args) {
  if (std::count(args.summaries.begin(), args.summaries.end(), "-") > 1)
    return fail(make_error(ErrorKind::kUsage,
                           "standard input (-) is named twice: it can be read only once"));
  if (Status refused = refuse_output_over_inputs(args.output.path, args.summaries); !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format("merge", args.output, kMergeFormats, OutputFormat::kText);
  if (!format.ok()) return fail(format.error());
  auto merged = merge_trace_summary_files(args.summaries, args.limits.to_limits());
  if (!merged.ok()) return fail(merged.error());
  std::string out = render_merge(*merged, *format);
  if (*format == OutputFormat::kText) out = args.output.fit_text(std::move(out));
  int exit_code = write_command_output(out, args.output.path);
  for (const auto& u : merged->unread) print_error(u.error);
  return exit_code != 0 ? exit_code : (merged->unread.empty() ? 0 : 2);
}

}  // namespace

void register_merge(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<MergeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "merge",
      "Compare the ranks of a run from their trace summaries (analyze --format summary, made "
      "where each trace lies): the same comparison analyze makes with every trace in one process");
  cmd->add_option("summaries", args->summaries,
                  "Files of trace summaries, one JSON object per line (- for standard input)")
      ->required();
  args->output.add_to(*cmd, kMergeFormats, "text");
  args->output.add_wide_flag(*cmd);
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
