// `attnprof check (TRACE | STUDY_DIR) [--region NAME] (--expect EXPR)... [--expectations FILE]
//                [--baseline TRACE_OR_STUDY] [--format text|json|md|csv|junit] [-o FILE]`
// Exit 0 when every expectation holds, 1 when any fails, 2 on bad input or a bad expression.
//
// A study folder (`attnprof bench --out DIR`, e.g. examples/h200-study) is checked variant by
// variant against a study's expectations file (`VARIANT: EXPRESSION` lines), so that the
// study's claims are checked on its shipped traces without a GPU (docs/STUDY.md).

#include <cstdio>
#include <variant>

#include <fmt/format.h>

#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "cli/region_option.h"
#include "io/input_guard.h"
#include "pipeline/check_run.h"
#include "render/display_text.h"

namespace attnprof::cli {

namespace {

struct CheckArgs {
  std::string trace;
  std::string region;
  std::vector<std::string> expressions;
  std::string expectations_file;
  std::string baseline;  // what `baseline.METRIC` reads: a trace, or a study folder for a study
  OutputOption output;
  OutputFormat format = OutputFormat::kText;  // --format, -o's extension, else text
  LimitOptions limits;
};

const std::vector<OutputFormat> kCheckFormats = {OutputFormat::kText, OutputFormat::kJson,
                                                 OutputFormat::kMarkdown, OutputFormat::kCsv,
                                                 OutputFormat::kJunit};

// The expression, and a caret under the column where it went wrong.
void print_syntax_error(const ExpressionError& e) {
  // The caret counts columns of the escaped text: an escape is four columns wide.
  const std::string before = escape_control(e.text.substr(0, static_cast<size_t>(e.column - 1)));
  std::fprintf(stderr, "attnprof: --expect: %s\n  %s\n  %*s^\n",
               escape_control(e.description).c_str(), escape_control(e.text).c_str(),
               static_cast<int>(before.size()), "");
}

// --quiet silences standard output only: a file asked for with -o is still written.
void write_out(const CheckArgs& args, const std::string& out, int& code) {
  if (quiet() && args.output.to_standard_output()) return;
  if (int written = write_command_output(out, args.output.path); written != 0) code = written;
}

int run(CheckArgs args) {
  if (Status once =
          refuse_standard_input_twice({args.trace, args.expectations_file, args.baseline});
      !once.ok())
    return fail(once.error());
  std::vector<std::string> inputs = {args.trace};
  if (!args.expectations_file.empty()) inputs.push_back(args.expectations_file);
  if (!args.baseline.empty()) inputs.push_back(args.baseline);
  if (Status refused = refuse_output_over_inputs(args.output.path, inputs); !refused.ok())
    return fail(refused.error());
  auto format = resolve_output_format("check", args.output, kCheckFormats, OutputFormat::kText);
  if (!format.ok()) return fail(format.error());
  args.format = *format;
  auto flagged = parse_expressions(args.expressions);
  if (const auto* e = std::get_if<ExpressionError>(&flagged)) {
    print_syntax_error(*e);
    return 2;
  }
  CheckRequest request;
  request.target = args.trace;
  request.region = args.region;
  request.expressions = std::get<std::vector<Expectation>>(std::move(flagged));
  request.expectations_file = args.expectations_file;
  request.baseline = args.baseline;
  request.limits = args.limits.to_limits();
  auto checked = run_check(request);
  if (!checked.ok()) return fail(checked.error());
  for (const std::string& note : checked->notes)
    std::fprintf(stderr, "attnprof: %s\n", escape_control(note).c_str());
  int code = 0;
  std::string out = render_check(*checked, args.format);
  if (args.format == OutputFormat::kText) out = args.output.fit_text(std::move(out));
  write_out(args, out, code);
  if (code != 0) return code;
  for (const std::string& line : checked->unchecked_lines()) print_error(line);
  return checked->holds() ? 0 : 1;
}

}  // namespace

void register_check(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Check written expectations against a trace (a CI gate): exit 0 when all hold, 1 when "
      "any fails, 2 on bad input. Grammar: docs/check-and-diff.md");
  cmd->add_option("trace", args->trace,
                  "Trace file (.json or .json.gz), or a study folder (attnprof bench --out): each "
                  "of its traces is a variant, checked against the `VARIANT: EXPRESSION` lines of "
                  "--expectations over its `forward` regions")
      ->required();
  add_region_option(*cmd, args->region);
  cmd->add_option("--expect", args->expressions,
                  "An expression such as 'kernels == 1' or 'main_kernel ~ \"flash\"' (repeatable)");
  cmd->add_option("--expectations", args->expectations_file,
                  "A file of expressions, one per line; # starts a comment; - reads standard "
                  "input (at most --max-side-file-bytes); for a study folder, a line may start "
                  "with VARIANT: (examples/study.expect)");
  cmd->add_option("--baseline", args->baseline,
                  "A trace (or, for a study folder, a study folder) that expressions read as "
                  "baseline.METRIC: 'gpu_busy_us <= baseline.gpu_busy_us * 1.05' gates a "
                  "slowdown of more than 5 %");
  args->output.add_to(*cmd, kCheckFormats,
                      "text; md: a table of the expectations for a pull request; csv: one row per "
                      "metric of each expectation; junit: a JUnit XML report for CI (one test case "
                      "per expectation)");
  args->output.add_wide_flag(*cmd);
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
