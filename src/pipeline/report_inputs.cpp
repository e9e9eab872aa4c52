#include "pipeline/report_inputs.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>
#include <system_error>
#include <utility>

#include <fmt/format.h>

#include "analysis/duration_sum.h"
#include "analysis/headline.h"
#include "analysis/regions/regions.h"
#include "analysis/summarize.h"
#include "analysis/timeline_critical_path.h"
#include "io/trace_directory.h"
#include "pipeline/analyze_trace.h"
#include "pipeline/run_trace_path.h"
#include "pipeline/step_projection_file.h"
#include "reader/read_trace.h"
#include "study/analysis/report_conclusions.h"

namespace attnprof {

namespace {

namespace fs = std::filesystem;

constexpr const char* kBenchRegions = "forward";  // the bench's user annotation per call

bool is_file(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

bool is_folder(const fs::path& p) {
  std::error_code ec;
  return fs::is_directory(p, ec);
}

// "naive.json.gz" -> "naive"
std::string trace_stem(const std::string& path) {
  std::string name = fs::path(path).filename().string();
  for (const char* suffix : {".gz", ".json"}) {
    std::string_view s(suffix);
    if (name.size() > s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0)
      name.resize(name.size() - s.size());
  }
  return name;
}

// Reads one trace and describes it (describe_variant). A trace that cannot be read leaves
// `variant.missing` set and returns the error.
Status analyze_variant(ReportVariant& variant, const std::string& path,
                       const ReportOptions& options, const std::string& region_pattern) {
  variant.trace_path = path;
  Result<Trace> trace = read_trace(path, options.limits);
  if (!trace.ok()) {
    variant.missing = trace.error().message;
    return trace.take_error();
  }
  if (Status overlap =
          check_region_overlap(*trace, region_pattern, options.limits.max_region_overlap, path);
      !overlap.ok()) {
    variant.missing = overlap.error().message;
    return overlap;
  }
  describe_variant(variant, *trace, options, region_pattern);
  // The rule of every command (docs/SECURITY.md): the caller fails, or warns for one variant of a
  // run.
  if (!region_pattern.empty() && variant.analysis && variant.analysis->regions.empty())
    return no_region_matches(*trace, path, region_pattern);
  return Status::success();
}

// summary.json names each trace relative to the run's folder; examples/ keeps them under traces/.
void load_sweep(ReportData& data, const fs::path& dir, const Limits& limits) {
  if (!data.run->sweep.empty()) {
    data.sweep = sweep_rows(*data.run);
    data.sweep_source = data.run->path;
    return;
  }
  if (const fs::path nested = dir / "sweep" / "summary.json"; is_file(nested)) {
    Result<RunSummary> sweep = read_run_summary(nested.string(), limits);
    if (sweep.ok()) {
      data.sweep = sweep_rows(*sweep);
      data.sweep_source = nested.string();
      return;
    }
    data.warnings.push_back(sweep.error().message);
  }
  for (const fs::path& csv : {dir / "sweep.csv", dir / "sweep" / "sweep.csv"}) {
    if (!is_file(csv)) continue;
    Result<std::vector<SweepRow>> rows = read_sweep_csv(csv.string(), limits.max_side_file_bytes);
    if (rows.ok()) {
      data.sweep = std::move(*rows);
      data.sweep_source = csv.string();
      return;
    }
    data.warnings.push_back(rows.error().message);
  }
}

// The findings as the report tells them, the most time explained first: a trace's come weighed
// and in that order (Finding::explains_ns, on its critical path or GPU); findings weighed by none
// are ranked by the time their kernel classes take in `facts` (rank_findings).
std::vector<RunFinding> run_findings(const std::vector<Finding>& findings,
                                     const std::vector<RegionFacts>& facts) {
  std::vector<std::string> ids;
  for (const Finding& f : findings) ids.emplace_back(finding_id(f.kind));
  const bool weighed = std::any_of(findings.begin(), findings.end(),
                                   [](const Finding& f) { return f.explains_ns >= 0; });
  std::vector<size_t> order(findings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (!weighed) order = rank_findings(ids, facts);
  std::vector<RunFinding> out;
  for (size_t i : order)
    out.push_back({ids[i], findings[i].summary, findings[i].evidence, findings[i].suggestion,
                   findings[i].regions_affected});
  return out;
}

// summary.json holds the findings of the attnprof the bench ran; a trace read now gives this
// version's, which the headline and the timelines show: the table shows them too, so that the page
// agrees with itself (tests/report_test.cpp: the shipped study's findings said "us" where its
// tables said "µs").
void use_findings_of_trace(RunVariant& run_variant, const ReportVariant& variant) {
  if (!run_variant.forward || !variant.analysis || variant.analysis->regions.empty()) return;
  run_variant.forward->findings =
      run_findings(variant.analysis->findings, {variant.analysis->facts});
}

// Moves the finding `id` to the front, the others in their order.
template <typename Finding_, typename IdOf>
void lead_with(std::vector<Finding_>& findings, const std::string& id, IdOf id_of) {
  std::stable_partition(findings.begin(), findings.end(),
                        [&](const Finding_& f) { return id_of(f) == id; });
}

// The headline's reason for each slow variant leads that variant's findings, so that the list
// and the headline agree: the findings come by time alone, and unfused attention, which takes
// the most, yields in the headline to a named cause (compute_headline).
void lead_with_reasons(const std::optional<Headline>& headline,
                       const std::function<void(const HeadlineReason&)>& apply) {
  if (!headline) return;
  for (const HeadlineReason& reason : headline->slow)
    if (!reason.finding_id.empty()) apply(reason);
}

void lead_run_with_reasons(RunPoint& point, const std::optional<Headline>& headline) {
  lead_with_reasons(headline, [&](const HeadlineReason& reason) {
    for (RunVariant& v : point.variants) {
      if (variant_label(v) != reason.variant) continue;
      for (std::optional<RunRegionFacts>* pass : {&v.forward, &v.backward})
        if (*pass)
          lead_with((*pass)->findings, reason.finding_id, [](const RunFinding& f) { return f.id; });
    }
  });
}

// The backward study beside a run (its folder's backward/summary.json). Each trace of its focus
// point is read once and summarized twice, by its `forward` and its `backward` regions: their
// facts weigh the headline, and their findings replace summary.json's (as for the run). What
// cannot be read is a warning: the run's page does not depend on it.
void load_backward(ReportData& data, const fs::path& dir, const ReportOptions& options) {
  const fs::path summary = dir / "backward" / "summary.json";
  if (!is_file(summary)) return;
  Result<RunSummary> run = read_run_summary(summary.string(), options.limits);
  if (!run.ok()) {
    data.warnings.push_back(run.error().message);
    return;
  }
  ReportBackward backward;
  backward.run = std::move(*run);
  if (!backward.run.points.empty()) {
    backward.focus_point = static_cast<int>(backward.run.points.size() / 2);
    for (RunVariant& v : backward.run.points[backward.focus_point].variants) {
      std::vector<RegionFacts>& facts = backward.facts.emplace_back();
      const std::optional<std::string> path =
          v.trace_file.empty() ? std::nullopt : find_variant_trace(dir / "backward", v.trace_file);
      if (!path) continue;
      Result<Trace> trace = read_trace(*path, options.limits);
      if (!trace.ok()) {
        data.warnings.push_back(trace.error().message);
        continue;
      }
      for (auto [pattern, pass] :
           {std::pair{"forward", &v.forward}, std::pair{"backward", &v.backward}}) {
        AnalyzeOptions analyze;
        analyze.attention_of_every_region = false;  // the median and the typical region's
        analyze.region_pattern = pattern;
        analyze.explain = true;
        analyze.limits = options.limits;
        TraceAnalysis a = summarize_trace(*trace, analyze);
        if (a.regions.empty()) continue;
        facts.push_back(a.facts);
        if (*pass) (*pass)->findings = run_findings(a.findings, {a.facts});
      }
    }
  }
  if (backward.focus_point >= 0)
    lead_run_with_reasons(backward.run.points[backward.focus_point],
                          compute_headline(headline_variants(backward)));
  data.backward = std::move(backward);
}

// The findings of a study beside the run, told by this attnprof from the variant's trace (a few
// hundred KB) rather than as summary.json's recording attnprof told them: so that every section
// of the page says the same of the same kernels (a decode step's "0 softmax" and "S x S score
// matrix" stayed in the sections beside a regenerated run). Without its trace, summary.json's.
void refresh_beside_findings(RunPoint& point, const fs::path& folder, const ReportOptions& options,
                             std::vector<std::string>& warnings) {
  for (RunVariant& v : point.variants) {
    if (!v.forward || v.trace_file.empty()) continue;
    const std::optional<std::string> path = find_variant_trace(folder, v.trace_file);
    if (!path) continue;
    Result<Trace> trace = read_trace(*path, options.limits);
    if (!trace.ok()) {
      warnings.push_back(trace.error().message);
      continue;
    }
    AnalyzeOptions analyze;
    analyze.attention_of_every_region = false;  // the median and the typical region's
    analyze.region_pattern = kBenchRegions;
    analyze.explain = true;
    analyze.limits = options.limits;
    TraceAnalysis a = summarize_trace(*trace, analyze);
    if (!a.regions.empty()) v.forward->findings = run_findings(a.findings, {a.facts});
  }
}

// The other studies in the run folder's subfolders (each with a summary.json; not backward/,
// sweep/ or the folders of the run's own files), in the order of their names: their table from
// summary.json, their findings from their traces (refresh_beside_findings); what cannot be read
// is a warning.
void load_beside(ReportData& data, const fs::path& dir, const ReportOptions& options) {
  std::vector<std::string> folders;
  std::error_code error;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name == "backward" || name == "sweep" || name == "traces" || name == "counters") continue;
    if (is_file(entry.path() / "summary.json")) folders.push_back(name);
  }
  std::sort(folders.begin(), folders.end());
  for (const std::string& folder : folders) {
    Result<RunSummary> run =
        read_run_summary((dir / folder / "summary.json").string(), options.limits);
    if (!run.ok()) {
      data.warnings.push_back(run.error().message);
      continue;
    }
    ReportBeside beside{folder, std::move(*run)};
    if (!beside.run.points.empty()) {
      RunPoint& point = beside.run.points[beside.run.points.size() / 2];
      refresh_beside_findings(point, dir / folder, options, data.warnings);
      lead_run_with_reasons(point, compute_headline(headline_variants(point)));
    }
    data.beside.push_back(std::move(beside));
  }
}

Result<ReportData> report_of_run(RunSummary run, const fs::path& dir,
                                 const ReportOptions& options) {
  ReportData data;
  data.run = std::move(run);
  data.region_pattern = options.region_pattern.empty() ? kBenchRegions : options.region_pattern;
  size_t traces_with_regions = 0;
  std::optional<Error> no_match;  // a trace was read, and the pattern matched nothing in it
  if (!data.run->points.empty()) {
    data.focus_point = static_cast<int>(data.run->points.size() / 2);
    for (RunVariant& v : data.run->points[data.focus_point].variants) {
      ReportVariant variant;
      variant.name = variant_label(v);
      if (v.trace_file.empty()) {
        variant.missing =
            v.status == RunStatus::kOk ? "no trace recorded" : "no trace: the variant did not run";
      } else if (auto known = options.traces_read.find(v.trace_file);
                 known != options.traces_read.end()) {
        const std::string name = variant.name;
        variant = known->second;
        variant.name = name;
        if (variant.analysis && !variant.analysis->regions.empty()) ++traces_with_regions;
      } else if (auto path = find_variant_trace(dir, v.trace_file)) {
        Status read = analyze_variant(variant, *path, options, data.region_pattern);
        if (read.ok() && !variant.analysis->regions.empty()) ++traces_with_regions;
        if (!read.ok()) data.warnings.push_back(read.error().message);
        if (!read.ok() && variant.analysis && !no_match) no_match = read.error();
      } else {
        variant.missing = fmt::format("trace {} not found in {}", v.trace_file, dir.string());
      }
      use_findings_of_trace(v, variant);
      data.variants.push_back(std::move(variant));
    }
  }
  // A --region that no trace of the run has is bad input, as in every command; one variant
  // without it is a warning.
  if (traces_with_regions == 0 && no_match) return *no_match;
  if (data.focus_point >= 0)
    lead_run_with_reasons(data.run->points[data.focus_point],
                          compute_headline(headline_variants(data)));
  data.step = project_step_file(*data.run, dir, options.limits);
  load_sweep(data, dir, options.limits);
  load_backward(data, dir, options);
  load_beside(data, dir, options);
  return data;
}

Result<ReportData> load_run(const fs::path& dir, const fs::path& summary_path,
                            const ReportOptions& options) {
  Result<RunSummary> run = read_run_summary(summary_path.string(), options.limits);
  if (!run.ok()) return run.take_error();
  return report_of_run(std::move(*run), dir, options);
}

// A model study beside the run: a bench folder that `bench --from-trace` wrote (its summary.json
// has from_trace). Any other folder after the run is refused: the studies of other shapes go in
// the run's own subfolders (load_beside).
Result<ReportModel> load_model(const fs::path& dir, const fs::path& summary_path,
                               const ReportOptions& options) {
  Result<RunSummary> run = read_run_summary(summary_path.string(), options.limits);
  if (!run.ok()) return run.take_error();
  if (!run->from_trace)
    return make_error(ErrorKind::kUsage,
                      "{}: not a model study (its summary.json has no from_trace); after the "
                      "run, give only folders written by bench --from-trace (examples/models/*)",
                      dir.string());
  ReportModel model;
  model.folder = dir.string();
  fs::path name = dir.filename();
  if (name.empty()) name = dir.parent_path().filename();  // "examples/models/x/"
  model.name = name.string();
  model.run = std::move(*run);
  model.step = project_step_file(model.run, dir, options.limits);
  return model;
}

}  // namespace

Result<ReportData> load_run_report(RunSummary run, const std::string& folder,
                                   const ReportOptions& options) {
  Result<ReportData> data = report_of_run(std::move(run), fs::path(folder), options);
  if (!data.ok()) return data;
  // As load_report of the folder: the page names it as its input, and the conclusions (the
  // headline, the projections) come last.
  data->inputs = {folder};
  conclude_report(*data);
  return data;
}

void describe_variant(ReportVariant& variant, const Trace& trace, const ReportOptions& options,
                      const std::string& region_pattern) {
  AnalyzeOptions analyze;
  analyze.attention_of_every_region = false;  // the median and the typical region's
  analyze.region_pattern = region_pattern;
  analyze.explain = true;
  analyze.limits = options.limits;
  const RegionSet set = find_regions(trace, region_pattern);
  const RegionMembers members = assign_to_regions(trace, set);
  TraceAnalysis analysis = summarize_regions(trace, set, members, analyze);
  // The findings come in the order of the time they explain (summarize_regions).
  if (analysis.typical_region < 0) {
    variant.missing = region_pattern.empty()
                          ? "the trace has no events"
                          : fmt::format("no region matches `{}`", region_pattern);
  } else {
    const auto r = static_cast<size_t>(analysis.typical_region);
    const RegionSummary& summary = analysis.regions[r];
    variant.timeline = build_region_timeline(trace, set.regions[r], members.activities(r),
                                             summary.activities, options.timeline);
    add_timeline_critical_path(trace, set.regions[r], members.of(r), *variant.timeline);
    for (const ActivityRow& row : summary.activities)
      add_duration(variant.class_ns[static_cast<size_t>(classify_activity(row))], row.duration_ns);
  }
  variant.analysis = std::move(analysis);
}

Result<VariantTrace> read_variant_trace(const std::string& path, const std::string& name,
                                        bool backward) {
  Result<Trace> trace = read_trace(path, Limits{});
  if (!trace.ok()) return trace.take_error();
  trace->path = name;
  VariantTrace read;
  read.forward.trace_path = name;
  describe_variant(read.forward, *trace, ReportOptions{}, "forward");
  if (backward) {
    AnalyzeOptions options;
    options.region_pattern = "backward";
    options.explain = true;
    Result<TraceAnalysis> analysis = analyze_read_trace(*trace, name, options);
    if (analysis.ok())
      read.backward = std::move(*analysis);
    else
      read.backward_error = analysis.take_error();
  }
  return read;
}

Result<ReportData> load_report(const std::vector<std::string>& inputs,
                               const ReportOptions& options) {
  if (inputs.empty())
    return make_error(ErrorKind::kUsage,
                      "nothing to report: give a bench output folder or trace files");
  // Bench folders (or their summary.json): the first is the run, each one after it a model
  // study shown beside it (load_models). Trace files are variants of a report of their own, and
  // a folder without a summary.json stands for its traces, as for `analyze DIR`.
  std::vector<std::pair<fs::path, fs::path>> folders;  // the folder and its summary.json
  std::vector<std::string> traces;
  for (const std::string& input : inputs) {
    const fs::path p(input);
    if (is_folder(p) && !is_file(p / "summary.json")) {
      Result<std::vector<std::string>> listed = list_trace_directory(input);
      if (!listed.ok())
        return make_error(ErrorKind::kUsage,
                          "{}: neither a bench output folder (no summary.json) nor a folder of "
                          "traces (no *.json or *.json.gz file in it)",
                          input);
      traces.insert(traces.end(), listed->begin(), listed->end());
    } else if (is_folder(p)) {
      folders.emplace_back(p, p / "summary.json");
    } else if (p.filename() == "summary.json") {
      folders.emplace_back(p.parent_path().empty() ? fs::path(".") : p.parent_path(), p);
      if (!is_file(p)) return make_error(ErrorKind::kUsage, "{}: no such summary.json", input);
    } else {
      traces.push_back(input);
    }
  }
  const std::string* trace_input = traces.empty() ? nullptr : &traces.front();
  if (!folders.empty() && trace_input)
    return make_error(ErrorKind::kUsage,
                      "{}: a trace file among bench folders; report bench folders (the run, then "
                      "model studies made by bench --from-trace) or trace files, not both",
                      *trace_input);
  ReportData data;
  if (!folders.empty()) {
    Result<ReportData> run = load_run(folders.front().first, folders.front().second, options);
    if (!run.ok()) return run.take_error();
    data = std::move(*run);
    for (size_t i = 1; i < folders.size(); ++i) {
      Result<ReportModel> model = load_model(folders[i].first, folders[i].second, options);
      if (!model.ok()) return model.take_error();
      data.models.push_back(std::move(*model));
    }
  } else {
    data.region_pattern = options.region_pattern;
    std::set<std::string> names;
    for (const std::string& path : traces) {
      ReportVariant variant;
      variant.name = trace_stem(path);
      // Two traces of the same name (a/naive.json, b/naive.json) are told apart by their paths.
      if (!names.insert(variant.name).second) variant.name = path;
      ATTNPROF_RETURN_IF_ERROR(analyze_variant(variant, path, options, options.region_pattern));
      data.variants.push_back(std::move(variant));
    }
  }
  if (!data.run) {
    lead_with_reasons(compute_headline(headline_variants(data)), [&](const HeadlineReason& r) {
      for (ReportVariant& v : data.variants)
        if (v.name == r.variant && v.analysis)
          lead_with(v.analysis->findings, r.finding_id,
                    [](const Finding& f) { return std::string(finding_id(f.kind)); });
    });
  }
  data.inputs = inputs;
  conclude_report(data);
  return data;
}

}  // namespace attnprof
