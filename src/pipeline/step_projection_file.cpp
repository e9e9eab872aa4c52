#include "pipeline/step_projection_file.h"

#include <algorithm>

#include <fmt/format.h>

#include "analysis/spread.h"
#include "attnprof/analysis.h"
#include "pipeline/analyze_trace.h"
#include "pipeline/run_trace_path.h"
#include "reader/read_trace.h"
#include "study/analysis/trace_projection.h"

namespace attnprof {

namespace {

namespace fs = std::filesystem;

constexpr const char* kBenchForward = "forward";
constexpr const char* kBenchBackward = "backward";

template <typename Of>
double median_over_regions(const TraceAnalysis& analysis, Of of) {
  std::vector<double> values;
  for (const RegionSummary& r : analysis.regions) values.push_back(of(r));
  return values.empty() ? 0 : spread_of(std::move(values)).median;
}

double attention_cpu_of(const TraceAnalysis& analysis) {
  return median_over_regions(analysis, [](const RegionSummary& r) {
    return static_cast<double>(r.critical_path.attention_cpu_ns);
  });
}

// The CPU time of one call's attention ops in a variant's trace: its forward regions', and its
// backward regions' with them for a backward problem; none where the trace cannot say.
std::optional<double> variant_call_cpu(const std::string& path, bool backward,
                                       const Limits& limits) {
  AnalyzeOptions options;
  options.limits = limits;
  options.tables_of_every_region = false;
  options.attention_of_every_region = false;
  auto trace = read_trace(path, limits);
  if (!trace.ok()) return std::nullopt;
  options.region_pattern = kBenchForward;
  auto forward = analyze_read_trace(*trace, path, options);
  if (!forward.ok()) return std::nullopt;
  double ns = attention_cpu_of(*forward);
  if (backward) {
    options.region_pattern = kBenchBackward;
    auto back = analyze_read_trace(*trace, path, options);
    if (!back.ok()) return std::nullopt;
    ns += attention_cpu_of(*back);
  }
  return ns;
}

std::vector<VariantCallCpu> variant_cpu_times(const RunSummary& run, const fs::path& run_dir,
                                              const Limits& limits) {
  std::vector<VariantCallCpu> out;
  for (const RunTraceCall& call : run.from_trace->calls) {
    if (call.point < 0 || static_cast<size_t>(call.point) >= run.points.size()) continue;
    const RunPoint& point = run.points[static_cast<size_t>(call.point)];
    for (const RunVariant& v : point.variants) {
      if (v.status != RunStatus::kOk || v.trace_file.empty()) continue;
      const std::optional<std::string> path = find_variant_trace(run_dir, v.trace_file);
      if (!path) continue;
      if (auto ns = variant_call_cpu(*path, point.problem.backward, limits))
        out.push_back({call.point, variant_label(v), *ns});
    }
  }
  return out;
}

}  // namespace

StepProjectionOutcome project_step_file(const RunSummary& run, const fs::path& run_dir,
                                        const Limits& limits) {
  StepProjectionOutcome out;
  if (!run.from_trace) return out;
  const RunFromTrace& t = *run.from_trace;
  const std::optional<std::string> path = find_source_trace(run_dir, t.trace);
  if (!path) {
    out.missing = fmt::format(
        "{} is not here (looked from the current folder and from {} up), so the saving weighs "
        "GPU time only",
        t.trace, run_dir.string());
    return out;
  }
  auto trace = read_trace(*path, limits);
  if (!trace.ok()) {
    out.missing = trace.error().message + ", so the saving weighs GPU time only";
    return out;
  }
  AnalyzeOptions options;
  options.limits = limits;
  options.tables_of_every_region = false;
  options.attention_of_every_region = false;
  auto recorded = analyze_read_trace(*trace, *path, options);
  // The bench took the trace's regions as analyze does, unless given --region: then its typical
  // region is not among analyze's, and the regions of that name are timed.
  auto has_region = [&](const TraceAnalysis& a) {
    for (const RegionSummary& r : a.regions)
      if (r.name == t.region) return true;
    return t.region.empty();
  };
  if (recorded.ok() && !has_region(*recorded)) {
    options.region_pattern = t.region;
    recorded = analyze_read_trace(*trace, *path, options);
  }
  if (!recorded.ok()) {
    out.missing = recorded.error().message + ", so the saving weighs GPU time only";
    return out;
  }
  if (recorded->regions.empty() || recorded->typical_region < 0) {
    out.missing =
        fmt::format("{} has no region to time, so the saving weighs GPU time only", *path);
    return out;
  }
  StepProjection step;
  step.trace = *path;
  step.region = options.region_pattern;
  step.regions = static_cast<int64_t>(recorded->regions.size());
  step.length_ns = median_over_regions(*recorded, [](const RegionSummary& r) {
    return static_cast<double>(r.critical_path.length_ns);
  });
  step.bound_by =
      recorded->regions[static_cast<size_t>(recorded->typical_region)].critical_path.bound_by;
  step.attention_on_path_ns = median_over_regions(*recorded, [](const RegionSummary& r) {
    return static_cast<double>(r.critical_path.attention_ns);
  });
  step.attention_cpu_ns = attention_cpu_of(*recorded);
  for (SwitchFactors& f :
       switch_factors(run, variant_cpu_times(run, run_dir, limits), step.attention_cpu_ns)) {
    options.what_if = what_if_rules_of(f);
    auto switched = analyze_read_trace(*trace, *path, options);
    if (!switched.ok()) continue;
    SwitchedStep s;
    s.factors = std::move(f);
    s.length_ns = median_over_regions(*switched, [](const RegionSummary& r) {
      return static_cast<double>(r.what_if ? r.what_if->length_after_ns
                                           : r.critical_path.length_ns);
    });
    step.switches.push_back(std::move(s));
  }
  // The trace's own backend, where every call ran the same one: the run's reproduction of it.
  const bool one_backend = std::all_of(t.calls.begin(), t.calls.end(), [&](const RunTraceCall& c) {
    return c.backend == t.calls.front().backend;
  });
  if (!t.calls.empty() && one_backend)
    step.same_variant = study_variant_of(t.calls.front().backend);
  for (const SwitchedStep& s : step.switches)
    if (!step.same_variant.empty() && s.factors.variant == step.same_variant)
      step.same_length_ns = s.length_ns;
  out.step = std::move(step);
  return out;
}

}  // namespace attnprof
