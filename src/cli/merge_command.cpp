// `attnprof merge SUMMARY... [--format text|json|md] [-o FILE]`: the reduce half of an analysis
// spread over many processes or machines (docs/DISTRIBUTED.md). Each SUMMARY file holds one or more
// trace summaries, as `attnprof analyze --format summary` writes them (JSON Lines); `-` is standard
// input. The ranks are compared as `attnprof analyze` compares the traces themselves. A summary
// that carries a map's error is reported as analyze reports a trace it could not read (exit 2);
// a file that is not a summary stops the command with one line naming its line and byte.

#include <algorithm>
#include <memory>

#include "attnprof/cross_trace.h"
#include "attnprof/trace_summary.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "io/input_guard.h"
#include "io/side_file.h"
#include "render/merge_output.h"

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
  const uint64_t max_bytes = args.limits.to_limits().max_side_file_bytes;
  std::vector<TraceAnalysis> read;
  std::vector<UnreadTrace> unread;
  if (std::count(args.summaries.begin(), args.summaries.end(), "-") > 1)
    return fail(make_error(ErrorKind::kUsage,
                           "standard input (-) is named twice: it can be read only once"));
  if (Status refused = refuse_output_over_inputs(args.output.path, args.summaries); !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format("merge", args.output, kMergeFormats, OutputFormat::kText);
  if (!format.ok()) return fail(format.error());
  for (const std::string& path : args.summaries) {
    Result<std::string> text = read_side_file(path, max_bytes, "trace summary file");
    if (!text.ok()) return fail(text.error());
    // Each summary is kept as what it is: an analysis, or an error's path and line alone.
    Status summaries = for_each_trace_summary(
        *text, path == "-" ? "standard input" : path, [&](SummarizedTrace&& s) {
          if (s.outcome.ok())
            read.push_back(std::move(s.outcome).value());
          else
            unread.push_back({s.path, s.outcome.error().message, s.outcome.error().kind});
        });
    if (!summaries.ok()) return fail(summaries.error());
  }
  std::optional<CrossTraceSummary> across;
  if (are_ranks_of_one_run(read)) across = summarize_across_traces(read);
  const AnalyzeOutput output{read, across ? &*across : nullptr, unread};
  const std::string out = *format == OutputFormat::kJson ? render_merge_json(output)
                          : *format == OutputFormat::kMarkdown
                              ? render_merge_markdown(output)
                              : args.output.fit_text(render_merge_text(output));
  int exit_code = write_command_output(out, args.output.path);
  for (const auto& u : unread) print_error(u.error);
  return exit_code != 0 ? exit_code : (unread.empty() ? 0 : 2);
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
