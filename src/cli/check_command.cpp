// `attnprof check TRACE [--region NAME] (--expect EXPR)... [--expectations FILE]
//                [--format text|json]`
// Exit 0 when every expectation holds, 1 when any fails, 2 on bad input or a bad expression.

#include <cstdio>
#include <variant>

#include "analysis/expectation_evaluation.h"
#include "analysis/expectation_parser.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/region_option.h"
#include "render/check_output.h"
#include "render/display_text.h"

namespace attnprof::cli {

namespace {

struct CheckArgs {
  std::string trace;
  std::string region;
  std::vector<std::string> expressions;
  std::string expectations_file;
  std::string format = "text";
  LimitOptions limits;
};

// The expression, and a caret under the column where it went wrong.
void print_syntax_error(const SyntaxError& e, const std::string& text) {
  // The caret counts columns of the escaped text: an escape is four columns wide.
  const std::string before = escape_control(text.substr(0, static_cast<size_t>(e.column - 1)));
  std::fprintf(stderr, "attnprof: --expect: %s\n  %s\n  %*s^\n",
               escape_control(describe(e, text)).c_str(), escape_control(text).c_str(),
               static_cast<int>(before.size()), "");
}

int run(const CheckArgs& args) {
  std::vector<Expectation> expectations;
  if (!args.expectations_file.empty()) {
    auto loaded =
        load_expectations(args.expectations_file, args.limits.to_limits().max_side_file_bytes);
    if (!loaded.ok()) return fail(loaded.error());
    expectations = std::move(loaded).value();
  }
  for (const auto& text : args.expressions) {
    auto parsed = parse_expression(text);
    if (const auto* e = std::get_if<SyntaxError>(&parsed)) {
      print_syntax_error(*e, text);
      return 2;
    }
    expectations.push_back(std::get<Expectation>(std::move(parsed)));
  }
  if (expectations.empty()) {
    print_error(std::string("nothing to check: give --expect EXPR or --expectations FILE") +
                (args.expectations_file.empty() ? "" : " (the file holds no expression)"));
    return 2;
  }

  AnalyzeOptions options;
  options.region_pattern = args.region;
  options.limits = args.limits.to_limits();
  auto analysis = analyze_file(args.trace, options);
  if (!analysis.ok()) return fail(analysis.error());
  CheckReport report;
  report.analysis = std::move(analysis).value();
  for (const auto& e : expectations)
    report.results.push_back(evaluate_expectation(e, report.analysis));
  if (!quiet()) {
    std::string out = args.format == "json" ? render_check_json(report) : render_check_text(report);
    if (int written = write_command_output(out); written != 0) return written;
  }
  return all_hold(report.results) ? 0 : 1;
}

}  // namespace

void register_check(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  CLI::App* cmd = app.add_subcommand(
      "check",
      "Check written expectations against a trace (a CI gate): exit 0 when all hold, 1 when "
      "any fails, 2 on bad input. Grammar: docs/check-and-diff.md");
  cmd->add_option("trace", args->trace, "Trace file (.json or .json.gz)")->required();
  add_region_option(*cmd, args->region);
  cmd->add_option("--expect", args->expressions,
                  "An expression such as 'kernels == 1' or 'main_kernel ~ \"flash\"' (repeatable)");
  cmd->add_option("--expectations", args->expectations_file,
                  "A file of expressions, one per line; # starts a comment; - reads standard "
                  "input (at most --max-side-file-bytes)");
  cmd->add_option("--format", args->format, "Output format")
      ->check(CLI::IsMember({"text", "json"}));
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
