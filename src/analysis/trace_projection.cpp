#include "analysis/trace_projection.h"

namespace attnprof {

std::string study_variant_of(const std::string& backend) {
  if (backend == "math" || backend == "efficient" || backend == "flash" || backend == "cudnn")
    return "sdpa-" + backend;
  if (backend == "unfused") return "naive";
  return "";
}

std::optional<TraceProjection> project_trace(const RunSummary& run) {
  if (!run.from_trace) return std::nullopt;
  TraceProjection out;
  out.region_gpu_ns = run.from_trace->region_gpu_ns;
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
      if (!v.median_ms) continue;
      const double ns = *v.median_ms * 1e6;
      if (v.variant == p.same_variant) p.same_ns = ns;
      // Only a variant that ran and passed the float64 check can be recommended.
      if (v.status == "ok" && (!p.best_ns || ns < *p.best_ns)) {
        p.best_ns = ns;
        p.best_variant = variant_label(v);
      }
    }
    if (p.best_ns && *p.best_ns < p.trace_ns)
      p.saving_ns = (p.trace_ns - *p.best_ns) * static_cast<double>(p.calls);
    out.saving_ns += p.saving_ns;
    out.calls.push_back(std::move(p));
  }
  return out;
}

}  // namespace attnprof
