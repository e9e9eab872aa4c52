// `attnprof report (RUN_DIR [MODEL_DIR...] | (TRACE | DIR)...) [-o FILE]
//                 [--format html|md|text|headline] [--region NAME]`
// MODEL_DIR: model studies (folders bench --from-trace wrote, examples/models/*) shown beside the
// run (docs/REPORT.md, "Model studies").
// Without -o the report goes to standard output as text, a terminal's format; to a file it is
// the HTML page unless --format or the file's extension says otherwise.

#include <memory>
#include <string>
#include <vector>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "io/input_guard.h"
#include "pipeline/report_file.h"

namespace attnprof::cli {

namespace {

struct ReportArgs {
  std::vector<std::string> inputs;
  OutputOption output;
  std::string region;
  LimitOptions limits;
};

const std::vector<OutputFormat> kReportFormats = {OutputFormat::kHtml, OutputFormat::kMarkdown,
                                                  OutputFormat::kText, OutputFormat::kHeadline};

int run(const ReportArgs& args) {
  ReportOptions options;
  options.region_pattern = args.region;
  options.limits = args.limits.to_limits();
  const std::string out = args.output.to_standard_output() ? "-" : args.output.path;
  // The report must not replace what it reads (docs/SECURITY.md: `report t.json -o t.json`
  // replaced the trace with HTML), nor any file of a run folder it reads.
  if (Status refused = refuse_output_over_inputs(out, args.inputs); !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format(
      "report", args.output, kReportFormats,
      args.output.to_standard_output() ? OutputFormat::kText : OutputFormat::kHtml);
  if (!format.ok()) return fail(format.error());
  Status written = write_report(args.inputs, options, *format, out, args.output.text_width());
  if (!written.ok()) return fail(written.error());
  return 0;
}

}  // namespace

void register_report(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ReportArgs>();
  CLI::App* cmd = app.add_subcommand(
      "report",
      "Write the study as one self-contained HTML page (table with findings, GPU time by kernel "
      "class, timelines of a typical region, sweep plots), or its table as Markdown or text");
  cmd->add_option("inputs", args->inputs,
                  "A bench output folder (with summary.json), then any model studies to show "
                  "beside it (folders written by bench --from-trace, e.g. examples/models/*); or "
                  "trace files (.json or .json.gz), or folders of them as analyze reads them")
      ->required();
  args->output.add_to(*cmd, kReportFormats,
                      "text on standard output and html in a file; md: the table and findings; "
                      "text: the table, findings and methods as the bench prints them (its "
                      "table.txt); headline: the fastest variant and its speed-up, one line for "
                      "the run and one for each study beside it");
  args->output.add_wide_flag(*cmd);
  cmd->add_option("--region", args->region,
                  "Regions are the user annotations with this name (wildcards * and ?); default: "
                  "forward for a bench folder, else as analyze chooses");
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
