// `attnprof check (TRACE | STUDY_DIR) [--region NAME] (--expect EXPR)... [--expectations FILE]
//                [--baseline TRACE_OR_STUDY] [--format text|json|csv|junit]`
// Exit 0 when every expectation holds, 1 when any fails, 2 on bad input or a bad expression.
//
// A study folder (`attnprof bench --out DIR`, e.g. examples/h200-study) is checked variant by
// variant against a study's expectations file (`VARIANT: EXPRESSION` lines), so that the
// study's claims are checked on its shipped traces without a GPU (docs/STUDY.md).

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <variant>

#include <fmt/format.h>

#include "analysis/expectation_evaluation.h"
#include "analysis/expectation_parser.h"
#include "analysis/variant_expectations.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/region_option.h"
#include "io/input_guard.h"
#include "io/trace_directory.h"
#include "pipeline/expectations_file.h"
#include "reader/run_summary.h"
#include "render/check_output.h"
#include "render/display_text.h"

namespace attnprof::cli {

namespace {

struct CheckArgs {
  std::string trace;
  std::string region;
  std::vector<std::string> expressions;
  std::string expectations_file;
  std::string baseline;  // what `baseline.METRIC` reads: a trace, or a study folder for a study
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

void write_out(const std::string& out, int& code) {
  if (quiet()) return;
  if (int written = write_command_output(out); written != 0) code = written;
}

// The expressions of --expect, parsed; a syntax error is printed with its caret.
std::optional<std::vector<Expectation>> parse_flag_expressions(const CheckArgs& args) {
  std::vector<Expectation> out;
  for (const auto& text : args.expressions) {
    auto parsed = parse_expression(text);
    if (const auto* e = std::get_if<SyntaxError>(&parsed)) {
      print_syntax_error(*e, text);
      return std::nullopt;
    }
    out.push_back(std::get<Expectation>(std::move(parsed)));
  }
  return out;
}

// One line on stderr per old metric spelling the expressions use (gpu_time_ms, ...): they still
// work for one release, under the units they had (docs/METRICS.md).
void note_renamed_metrics(const std::vector<Expectation>& expectations) {
  std::set<std::string> noted;
  auto note = [&](const std::string& metric) {
    if (auto line = renamed_metric_note(metric); line && noted.insert(metric).second)
      std::fprintf(stderr, "attnprof: %s\n", escape_control(*line).c_str());
  };
  for (const auto& e : expectations)
    for (const auto& c : e.all_of) {
      note(c.metric);
      if (c.baseline) note(c.baseline->metric);
    }
}

CheckReport check_one(TraceAnalysis analysis, const std::vector<Expectation>& expectations,
                      std::string variant, const TraceAnalysis* baseline) {
  CheckReport report;
  report.variant = std::move(variant);
  report.analysis = std::move(analysis);
  for (const auto& e : expectations)
    report.results.push_back(evaluate_expectation(e, report.analysis, baseline));
  return report;
}

// `baseline.METRIC` with no --baseline, or --baseline that no expression reads: a usage error,
// said before any trace is read.
std::optional<Error> baseline_mismatch(const CheckArgs& args,
                                       const std::vector<Expectation>& expectations) {
  const bool used = uses_baseline(expectations);
  if (used && args.baseline.empty())
    return make_error(ErrorKind::kUsage,
                      "an expression reads baseline.METRIC: give --baseline TRACE_OR_STUDY");
  if (!used && !args.baseline.empty())
    return make_error(ErrorKind::kUsage,
                      "--baseline is given but no expression reads it: write baseline.METRIC, "
                      "as in 'gpu_busy_us <= baseline.gpu_busy_us * 1.05'");
  return std::nullopt;
}

std::string rendered(const CheckArgs& args, const std::vector<CheckReport>& reports, bool study) {
  if (args.format == "json")
    return study ? render_study_check_json(args.trace, reports) : render_check_json(reports[0]);
  if (args.format == "csv") return render_check_csv(reports);
  if (args.format == "junit") return render_check_junit(args.trace, reports);
  return study ? render_study_check_text(reports) : render_check_text(reports[0]);
}

// A variant's name is its trace's file name without .json or .json.gz.
std::string variant_name(const std::string& path) {
  std::string name = std::filesystem::path(path).filename().string();
  for (std::string_view suffix : {".json.gz", ".json"}) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      name.resize(name.size() - suffix.size());
      break;
    }
  }
  return name;
}

// The hardware counters a study's summary.json holds (bench --counters), for the variant whose
// trace is `trace`: matched by the trace's file name. None when the folder has no summary.json,
// it cannot be read, or the run had no counters: the counter metrics then say so.
std::optional<CounterTotals> study_counters(const std::optional<RunSummary>& summary,
                                            const std::string& trace) {
  if (!summary) return std::nullopt;
  const std::string file = std::filesystem::path(trace).filename().string();
  for (const RunPoint& point : summary->points)
    for (const RunVariant& v : point.variants)
      if (v.counters && std::filesystem::path(v.trace_file).filename() == file) return v.counters;
  return std::nullopt;
}

// A study folder: its traces/ (the bench's layout) or the folder's own traces, one per variant;
// regions are the bench's `forward` annotations unless --region says otherwise.
int run_on_study(const CheckArgs& args) {
  namespace fs = std::filesystem;
  const fs::path study = args.trace;
  const bool bench_layout = fs::is_directory(study / "traces");
  auto paths = list_trace_directory(bench_layout ? (study / "traces").string() : args.trace);
  if (!paths.ok()) return fail(paths.error());
  std::vector<std::string> variants;
  for (const auto& path : *paths) variants.push_back(variant_name(path));

  std::vector<VariantExpectation> expectations;
  if (!args.expectations_file.empty()) {
    auto loaded = load_variant_expectations(args.expectations_file, variants);
    if (!loaded.ok()) return fail(loaded.error());
    expectations = std::move(loaded).value();
  }
  auto flagged = parse_flag_expressions(args);
  if (!flagged) return 2;
  for (auto& e : *flagged) expectations.push_back({"*", std::move(e)});
  if (expectations.empty()) {
    std::fprintf(stderr, "attnprof: nothing to check: give --expect EXPR or --expectations FILE\n");
    return 2;
  }
  std::vector<Expectation> all;
  for (const auto& v : expectations) all.push_back(v.expectation);
  if (auto mismatch = baseline_mismatch(args, all)) return fail(*mismatch);
  note_renamed_metrics(all);
  // The baseline study's traces, by variant name: each variant reads its own.
  std::map<std::string, std::string> baseline_traces;
  if (!args.baseline.empty()) {
    const fs::path base = args.baseline;
    if (!fs::is_directory(base))
      return fail(make_error(ErrorKind::kUsage,
                             "--baseline {}: a study folder is checked against a study folder "
                             "(attnprof bench --out), variant by variant",
                             args.baseline));
    auto listed = list_trace_directory(
        fs::is_directory(base / "traces") ? (base / "traces").string() : args.baseline);
    if (!listed.ok()) return fail(listed.error());
    for (const auto& path : *listed) baseline_traces[variant_name(path)] = path;
  }

  AnalyzeOptions options;
  options.region_pattern = !args.region.empty() ? args.region : bench_layout ? "forward" : "";
  options.activities_of_every_region = true;
  options.limits = args.limits.to_limits();
  // A study without summary.json has no counters; one whose summary.json cannot be read says
  // why (a truncated, schema-1 or too deep file made every counter metric fail as "no hardware
  // counters").
  std::optional<RunSummary> summary;
  const fs::path summary_path = study / "summary.json";
  std::error_code absent;
  if (fs::exists(fs::symlink_status(summary_path, absent))) {
    auto read = read_run_summary(summary_path.string(), options.limits.max_side_file_bytes);
    if (!read.ok()) return fail(read.error());
    summary = std::move(*read);
  }
  // Every variant summary.json lists must have a trace that reads: a dangling link or a FIFO
  // in traces/ is not listed as a trace, and the check would have held over fewer variants.
  std::vector<std::string> unreadable;
  if (summary) {
    std::set<std::string> listed;
    for (const std::string& path : *paths) listed.insert(fs::path(path).filename().string());
    for (const RunPoint& point : summary->points)
      for (const RunVariant& v : point.variants) {
        const std::string file = fs::path(v.trace_file).filename().string();
        if (!v.trace_file.empty() && !listed.count(file) &&
            std::find(unreadable.begin(), unreadable.end(), v.trace_file) == unreadable.end())
          unreadable.push_back(v.trace_file);
      }
  }
  std::vector<CheckReport> reports;
  for (size_t i = 0; i < paths->size(); ++i) {
    auto analysis = analyze_file((*paths)[i], options);
    if (!analysis.ok()) return fail(analysis.error());
    analysis->facts.counters = study_counters(summary, (*paths)[i]);
    std::optional<TraceAnalysis> baseline;
    if (auto it = baseline_traces.find(variants[i]); it != baseline_traces.end()) {
      auto read = analyze_file(it->second, options);
      if (!read.ok()) return fail(read.error());
      baseline = std::move(read).value();
    }
    reports.push_back(check_one(std::move(*analysis), expectations_for(expectations, variants[i]),
                                variants[i], baseline ? &*baseline : nullptr));
  }
  int code = 0;
  write_out(rendered(args, reports, true), code);
  if (code != 0) return code;
  for (const std::string& trace : unreadable)
    print_error(
        fmt::format("{}: the trace {} that summary.json lists is missing or not a "
                    "regular file; its variant was not checked, so the check fails",
                    args.trace, trace));
  if (!unreadable.empty()) return 1;
  for (const auto& r : reports)
    if (!all_hold(r.results)) return 1;
  return 0;
}

int run(const CheckArgs& args) {
  if (Status once = refuse_standard_input_twice({args.trace, args.expectations_file}); !once.ok())
    return fail(once.error());
  if (std::filesystem::is_directory(args.trace)) return run_on_study(args);
  std::vector<Expectation> expectations;
  if (!args.expectations_file.empty()) {
    auto loaded =
        load_expectations(args.expectations_file, args.limits.to_limits().max_side_file_bytes);
    if (!loaded.ok()) return fail(loaded.error());
    expectations = std::move(loaded).value();
  }
  auto flagged = parse_flag_expressions(args);
  if (!flagged) return 2;
  for (auto& e : *flagged) expectations.push_back(std::move(e));
  if (expectations.empty()) {
    print_error(std::string("nothing to check: give --expect EXPR or --expectations FILE") +
                (args.expectations_file.empty() ? "" : " (the file holds no expression)"));
    return 2;
  }

  if (auto mismatch = baseline_mismatch(args, expectations)) return fail(*mismatch);
  note_renamed_metrics(expectations);

  AnalyzeOptions options;
  options.region_pattern = args.region;
  options.limits = args.limits.to_limits();
  auto analysis = analyze_file(args.trace, options);
  if (!analysis.ok()) return fail(analysis.error());
  std::optional<TraceAnalysis> baseline;
  if (!args.baseline.empty()) {
    if (std::filesystem::is_directory(args.baseline))
      return fail(make_error(ErrorKind::kUsage,
                             "--baseline {} is a folder: a trace is checked against a trace",
                             args.baseline));
    auto read = analyze_file(args.baseline, options);
    if (!read.ok()) return fail(read.error());
    baseline = std::move(read).value();
  }
  const std::vector<CheckReport> reports = {
      check_one(std::move(*analysis), expectations, "", baseline ? &*baseline : nullptr)};
  if (!quiet()) {
    if (int written = write_command_output(rendered(args, reports, false)); written != 0)
      return written;
  }
  return all_hold(reports[0].results) ? 0 : 1;
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
  cmd->add_option("--format", args->format,
                  "Output format; csv: one row per metric of each expectation; junit: a JUnit XML "
                  "report for CI (one test case per expectation)")
      ->check(CLI::IsMember({"text", "json", "csv", "junit"}));
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
