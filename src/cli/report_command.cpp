// `attnprof report (RUN_DIR | TRACE...) -o FILE [--format html|md|text|headline] [--region NAME]`

#include <memory>
#include <string>
#include <vector>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "io/input_guard.h"
#include "pipeline/report_file.h"

namespace attnprof::cli {

namespace {

struct ReportArgs {
  std::vector<std::string> inputs;
  std::string out;
  std::string format = "html";
  std::string region;
  LimitOptions limits;
};

int run(const ReportArgs& args) {
  ReportOptions options;
  options.region_pattern = args.region;
  options.limits = args.limits.to_limits();
  const ReportFormat format = args.format == "md"         ? ReportFormat::kMarkdown
                              : args.format == "text"     ? ReportFormat::kText
                              : args.format == "headline" ? ReportFormat::kHeadline
                                                          : ReportFormat::kHtml;
  // The report must not replace what it reads (docs/SECURITY.md: `report t.json -o t.json` replaced
  // the trace with HTML), nor any file of a run folder it reads.
  if (Status refused = refuse_output_over_inputs(args.out, args.inputs); !refused.ok())
    return fail(refused.error());
  Status written = write_report(args.inputs, options, format, args.out);
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
                  "A bench output folder (with summary.json), or trace files (.json or .json.gz)")
      ->required();
  cmd->add_option("-o,--output", args->out,
                  "The file to write (- for standard output); never one of the inputs")
      ->required();
  cmd->add_option("--format", args->format,
                  "html (default), md (the table and findings), text (the table, findings and "
                  "methods as the bench prints them: its table.txt) or headline (the fastest "
                  "variant and its speed-up, one line for the run and one for each study beside "
                  "it)")
      ->check(CLI::IsMember({"html", "md", "text", "headline"}));
  cmd->add_option("--region", args->region,
                  "Regions are the user annotations with this name (wildcards * and ?); default: "
                  "forward for a bench folder, else as analyze chooses");
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
