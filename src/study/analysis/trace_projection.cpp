#include "study/analysis/trace_projection.h"

#include <algorithm>

namespace attnprof {

void weigh_by_step(TraceProjection& p, StepProjection step) {
  p.switch_variant.clear();
  p.switch_saving_ns = 0;
  for (const SwitchedStep& s : step.switches) {
    if (s.factors.same_backend) continue;  // the trace's own backend is no switch
    const double saving = step.length_ns - s.length_ns;
    if (saving > p.switch_saving_ns && saving >= kWorthSwitching * step.length_ns) {
      p.switch_variant = s.factors.variant;
      p.switch_saving_ns = saving;
    }
  }
  p.step = std::move(step);
  p.step_missing.clear();
}

std::string study_variant_of(const std::string& backend) {
  if (backend == "math" || backend == "efficient" || backend == "flash" || backend == "cudnn")
    return "sdpa-" + backend;
  if (backend == "unfused") return "naive";
  return "";
}

std::optional<double> call_ns(const RunVariant& v, bool backward, bool& by_events) {
  if (v.forward && v.forward->facts.regions > 0 && (!backward || v.backward)) {
    double ns = static_cast<double>(v.forward->facts.gpu_busy_ns.median);
    if (backward) ns += static_cast<double>(v.backward->facts.gpu_busy_ns.median);
    if (ns > 0) return ns;
  }
  if (!v.median_ms) return std::nullopt;
  by_events = true;
  return *v.median_ms * 1e6;
}

std::optional<TraceProjection> project_trace(const RunSummary& run) {
  if (!run.from_trace) return std::nullopt;
  TraceProjection out;
  out.region_gpu_ns = run.from_trace->region_gpu_ns;
  // Per variant that passed the check: what switching every call it measured would save per
  // region (negative where it is slower), in the order the variants were first met.
  std::vector<std::pair<std::string, double>> by_variant;
  for (const RunTraceCall& call : run.from_trace->calls) {
    if (call.point < 0 || static_cast<size_t>(call.point) >= run.points.size()) continue;
    const RunPoint& point = run.points[static_cast<size_t>(call.point)];
    CallProjection p;
    p.point = call.point;
    p.calls = call.calls;
    p.trace_ns = call.trace_ns;
    p.backend = call.backend;
    p.assumed = call.assumed;
    p.same_variant = study_variant_of(call.backend);
    for (const RunVariant& v : point.variants) {
      const std::optional<double> time = call_ns(v, point.problem.backward, p.by_events);
      if (!time) continue;
      const double ns = *time;
      if (v.variant == p.same_variant) p.same_ns = ns;
      if (v.status == RunStatus::kOk) {
        const std::string label = variant_label(v);
        auto it = std::find_if(by_variant.begin(), by_variant.end(),
                               [&](const auto& b) { return b.first == label; });
        if (it == by_variant.end()) it = by_variant.insert(by_variant.end(), {label, 0.0});
        it->second += (call.trace_ns - ns) * static_cast<double>(call.calls);
      }
      // Only a variant that ran and passed the float64 check can be recommended.
      if (v.status == RunStatus::kOk && (!p.best_ns || ns < *p.best_ns)) {
        p.best_ns = ns;
        p.best_variant = variant_label(v);
      }
    }
    if (p.best_ns && *p.best_ns < p.trace_ns * (1 - kProjectionNoise))
      p.saving_ns = (p.trace_ns - *p.best_ns) * static_cast<double>(p.calls);
    out.saving_ns += p.saving_ns;
    out.attention_ns += p.trace_ns * static_cast<double>(p.calls);
    if (std::find(out.backends.begin(), out.backends.end(), p.backend) == out.backends.end())
      out.backends.push_back(p.backend);
    out.calls.push_back(std::move(p));
  }
  for (const auto& [label, saving] : by_variant)
    if (saving > out.switch_saving_ns && saving >= kWorthSwitching * out.region_gpu_ns &&
        out.region_gpu_ns > 0) {
      out.switch_variant = label;
      out.switch_saving_ns = saving;
    }
  return out;
}

}  // namespace attnprof
