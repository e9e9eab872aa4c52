#include "pipeline/check_run.h"

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>

#include <fmt/format.h>

#include "analysis/expectations/expectation_evaluation.h"
#include "analysis/expectations/expectation_parser.h"
#include "analysis/expectations/variant_expectations.h"
#include "analysis/regions/region_metrics.h"
#include "attnprof/analysis.h"
#include "io/trace_directory.h"
#include "pipeline/expectations_file.h"
#include "study/run/run_summary.h"

namespace attnprof {

namespace {

namespace fs = std::filesystem;

CheckReport check_one(TraceAnalysis analysis, const std::vector<Expectation>& expectations,
                      std::string variant, const TraceAnalysis* baseline) {
  CheckReport report;
  report.variant = std::move(variant);
  report.analysis = std::move(analysis);
  for (const auto& e : expectations)
    report.results.push_back(evaluate_expectation(e, report.analysis, baseline));
  return report;
}

// `baseline.METRIC` with no baseline, or a baseline that no expression reads: a usage error,
// said before any trace is read.
Status baseline_mismatch(const CheckRequest& request,
                         const std::vector<Expectation>& expectations) {
  const bool used = uses_baseline(expectations);
  if (used && request.baseline.empty())
    return make_error(ErrorKind::kUsage,
                      "an expression reads baseline.METRIC: give --baseline TRACE_OR_STUDY");
  if (!used && !request.baseline.empty())
    return make_error(ErrorKind::kUsage,
                      "--baseline is given but no expression reads it: write baseline.METRIC, "
                      "as in 'gpu_busy_us <= baseline.gpu_busy_us * 1.05'");
  return Status::success();
}

// One line per old metric spelling the expressions use (gpu_time_ms, ...): they still work for
// one release, under the units they had (docs/METRICS.md, "Renamed").
std::vector<std::string> renamed_metric_notes(const std::vector<Expectation>& expectations) {
  std::vector<std::string> notes;
  std::set<std::string> noted;
  auto note = [&](const std::string& metric) {
    if (auto line = renamed_metric_note(metric); line && noted.insert(metric).second)
      notes.push_back(std::move(*line));
  };
  for (const auto& e : expectations)
    for (const auto& c : e.all_of) {
      note(c.metric);
      if (c.baseline) note(c.baseline->metric);
    }
  return notes;
}

// A variant's name is its trace's file name without .json or .json.gz.
std::string variant_name(const std::string& path) {
  std::string name = fs::path(path).filename().string();
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
  const std::string file = fs::path(trace).filename().string();
  for (const RunPoint& point : summary->points)
    for (const RunVariant& v : point.variants)
      if (v.counters && fs::path(v.trace_file).filename() == file) return v.counters;
  return std::nullopt;
}

// A study folder: its traces/ (the bench's layout) or the folder's own traces, one per variant;
// regions are the bench's `forward` annotations unless the request says otherwise.
Result<CheckRun> check_study(const CheckRequest& request) {
  const fs::path study = request.target;
  const bool bench_layout = fs::is_directory(study / "traces");
  auto paths = list_trace_directory(bench_layout ? (study / "traces").string() : request.target);
  if (!paths.ok()) return paths.take_error();
  std::vector<std::string> variants;
  for (const auto& path : *paths) variants.push_back(variant_name(path));

  std::vector<VariantExpectation> expectations;
  if (!request.expectations_file.empty()) {
    auto loaded = load_variant_expectations(request.expectations_file, variants, request.limits);
    if (!loaded.ok()) return loaded.take_error();
    expectations = std::move(loaded).value();
  }
  for (const auto& e : request.expressions) expectations.push_back({"*", e});
  if (expectations.empty())
    return make_error(ErrorKind::kUsage,
                      "nothing to check: give --expect EXPR or --expectations FILE");
  std::vector<Expectation> all;
  for (const auto& v : expectations) all.push_back(v.expectation);
  ATTNPROF_RETURN_IF_ERROR(baseline_mismatch(request, all));
  // The baseline study's traces, by variant name: each variant reads its own.
  std::map<std::string, std::string> baseline_traces;
  if (!request.baseline.empty()) {
    const fs::path base = request.baseline;
    if (!fs::is_directory(base))
      return make_error(ErrorKind::kUsage,
                        "--baseline {}: a study folder is checked against a study folder "
                        "(attnprof bench --out), variant by variant",
                        request.baseline);
    auto listed = list_trace_directory(
        fs::is_directory(base / "traces") ? (base / "traces").string() : request.baseline);
    if (!listed.ok()) return listed.take_error();
    for (const auto& path : *listed) baseline_traces[variant_name(path)] = path;
  }

  AnalyzeOptions options;

  options.attention_of_every_region = false;  // the median and the typical region's
  options.region_pattern = !request.region.empty() ? request.region : bench_layout ? "forward" : "";
  options.activities_of_every_region = true;
  options.limits = request.limits;
  // A study without summary.json has no counters; one whose summary.json cannot be read says
  // why (a truncated, schema-1 or too deep file made every counter metric fail as "no hardware
  // counters").
  std::optional<RunSummary> summary;
  const fs::path summary_path = study / "summary.json";
  std::error_code absent;
  if (fs::exists(fs::symlink_status(summary_path, absent))) {
    auto read = read_run_summary(summary_path.string(), options.limits);
    if (!read.ok()) return read.take_error();
    summary = std::move(*read);
  }
  CheckRun run;
  run.study = true;
  run.target = request.target;
  run.notes = renamed_metric_notes(all);
  // Every variant summary.json lists must have a trace that reads: a dangling link or a FIFO
  // in traces/ is not listed as a trace, and the check would have held over fewer variants.
  if (summary) {
    std::set<std::string> listed;
    for (const std::string& path : *paths) listed.insert(fs::path(path).filename().string());
    // Each missing trace once, in summary.json's order; a set, as summary.json may list
    // hundreds of thousands of variants.
    std::unordered_set<std::string> said;
    for (const RunPoint& point : summary->points)
      for (const RunVariant& v : point.variants) {
        const std::string file = fs::path(v.trace_file).filename().string();
        if (!v.trace_file.empty() && !listed.count(file) && said.insert(v.trace_file).second)
          run.unchecked.push_back(v.trace_file);
      }
  }
  for (size_t i = 0; i < paths->size(); ++i) {
    auto analysis = analyze_file((*paths)[i], options);
    if (!analysis.ok()) return analysis.take_error();
    analysis->facts.counters = study_counters(summary, (*paths)[i]);
    std::optional<TraceAnalysis> baseline;
    if (auto it = baseline_traces.find(variants[i]); it != baseline_traces.end()) {
      auto read = analyze_file(it->second, options);
      if (!read.ok()) return read.take_error();
      baseline = std::move(read).value();
    }
    run.reports.push_back(check_one(std::move(*analysis),
                                    expectations_for(expectations, variants[i]), variants[i],
                                    baseline ? &*baseline : nullptr));
  }
  return run;
}

Result<CheckRun> check_trace(const CheckRequest& request) {
  std::vector<Expectation> expectations;
  if (!request.expectations_file.empty()) {
    auto loaded = load_expectations(request.expectations_file, request.limits);
    if (!loaded.ok()) return loaded.take_error();
    expectations = std::move(loaded).value();
  }
  for (const auto& e : request.expressions) expectations.push_back(e);
  if (expectations.empty())
    return make_error(ErrorKind::kUsage,
                      "nothing to check: give --expect EXPR or --expectations FILE{}",
                      request.expectations_file.empty() ? "" : " (the file holds no expression)");
  ATTNPROF_RETURN_IF_ERROR(baseline_mismatch(request, expectations));

  AnalyzeOptions options;

  options.attention_of_every_region = false;  // the median and the typical region's
  options.region_pattern = request.region;
  options.limits = request.limits;
  auto analysis = analyze_file(request.target, options);
  if (!analysis.ok()) return analysis.take_error();
  std::optional<TraceAnalysis> baseline;
  if (!request.baseline.empty()) {
    if (fs::is_directory(request.baseline))
      return make_error(ErrorKind::kUsage,
                        "--baseline {} is a folder: a trace is checked against a trace",
                        request.baseline);
    auto read = analyze_file(request.baseline, options);
    if (!read.ok()) return read.take_error();
    baseline = std::move(read).value();
  }
  CheckRun run;
  run.target = request.target;
  run.notes = renamed_metric_notes(expectations);
  run.reports.push_back(
      check_one(std::move(*analysis), expectations, "", baseline ? &*baseline : nullptr));
  return run;
}

}  // namespace

bool CheckRun::holds() const {
  if (!unchecked.empty()) return false;
  for (const auto& r : reports)
    if (!all_hold(r.results)) return false;
  return true;
}

std::vector<std::string> CheckRun::unchecked_lines() const {
  std::vector<std::string> lines;
  for (const std::string& trace : unchecked)
    lines.push_back(
        fmt::format("{}: the trace {} that summary.json lists is missing or not a "
                    "regular file; its variant was not checked, so the check fails",
                    target, trace));
  return lines;
}

std::variant<std::vector<Expectation>, ExpressionError> parse_expressions(
    const std::vector<std::string>& texts) {
  std::vector<Expectation> out;
  for (const std::string& text : texts) {
    auto parsed = parse_expression(text);
    if (const auto* e = std::get_if<SyntaxError>(&parsed))
      return ExpressionError{text, describe(*e, text), e->column};
    out.push_back(std::get<Expectation>(std::move(parsed)));
  }
  return out;
}

std::string render_check(const CheckRun& run, OutputFormat format) {
  const std::vector<CheckReport>& reports = run.reports;
  switch (format) {
    case OutputFormat::kJson:
      return run.study ? render_study_check_json(run.target, reports)
                       : render_check_json(reports[0]);
    case OutputFormat::kMarkdown:
      return run.study ? render_study_check_markdown(run.target, reports)
                       : render_check_markdown(reports[0]);
    case OutputFormat::kCsv:
      return render_check_csv(reports);
    case OutputFormat::kJunit:
      return render_check_junit(run.target, reports);
    default:
      return run.study ? render_study_check_text(reports) : render_check_text(reports[0]);
  }
}

Result<CheckRun> run_check(const CheckRequest& request) {
  if (fs::is_directory(request.target)) return check_study(request);
  return check_trace(request);
}

}  // namespace attnprof
