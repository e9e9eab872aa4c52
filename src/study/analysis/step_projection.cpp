#include "study/analysis/step_projection.h"

#include <algorithm>

#include <fmt/format.h>

#include "study/analysis/trace_projection.h"

namespace attnprof {

namespace {

struct Sums {
  std::string label;
  double variant_ns = 0;  // the variant's time where it ran, else the trace's
  double trace_ns = 0;
  double cpu_ns = 0;
  bool cpu_known = true;
  bool failed = false;  // ran somewhere and did not pass: never recommended
  bool same_backend = false;
};

const VariantCallCpu* cpu_of(const std::vector<VariantCallCpu>& cpu, int point,
                             const std::string& label) {
  for (const VariantCallCpu& c : cpu)
    if (c.point == point && c.label == label) return &c;
  return nullptr;
}

}  // namespace

bool runs_backend(const RunVariant& v, const std::string& backend) {
  if (backend.empty()) return false;
  if (v.variant == study_variant_of(backend) || v.chosen_backend == backend) return true;
  // The study's two unfused chains: the same ops, one of them in place.
  return backend == "unfused" && v.variant == "inplace";
}

std::vector<SwitchFactors> switch_factors(const RunSummary& run,
                                          const std::vector<VariantCallCpu>& variant_cpu,
                                          double trace_attention_cpu_ns) {
  if (!run.from_trace) return {};
  std::vector<Sums> sums;
  double trace_total_ns = 0;
  for (const RunTraceCall& call : run.from_trace->calls) {
    if (call.point < 0 || static_cast<size_t>(call.point) >= run.points.size()) continue;
    const RunPoint& point = run.points[static_cast<size_t>(call.point)];
    const double calls = static_cast<double>(call.calls);
    trace_total_ns += call.trace_ns * calls;
    for (const RunVariant& v : point.variants) {
      const std::string label = variant_label(v);
      auto it =
          std::find_if(sums.begin(), sums.end(), [&](const Sums& s) { return s.label == label; });
      if (it == sums.end()) {
        it = sums.insert(sums.end(), Sums{});
        it->label = label;
      }
      if (runs_backend(v, call.backend)) it->same_backend = true;
      if (v.status != RunStatus::kOk) {
        // A variant that could not run this call (unsupported) keeps the trace's; one that ran
        // and failed the check is not a switch to make.
        if (v.checked && !v.passed) it->failed = true;
        continue;
      }
      bool by_events = false;
      const std::optional<double> ns = call_ns(v, point.problem.backward, by_events);
      if (!ns) continue;
      it->variant_ns += *ns * calls;
      it->trace_ns += call.trace_ns * calls;
      if (const VariantCallCpu* c = cpu_of(variant_cpu, call.point, label))
        it->cpu_ns += c->ns * calls;
      else
        it->cpu_known = false;
    }
  }
  std::vector<SwitchFactors> out;
  if (trace_total_ns <= 0) return out;
  for (const Sums& s : sums) {
    if (s.failed || s.trace_ns <= 0) continue;
    SwitchFactors f;
    f.variant = s.label;
    f.same_backend = s.same_backend;
    // The calls the variant did not time stay as the trace ran them.
    f.attention = (s.variant_ns + (trace_total_ns - s.trace_ns)) / trace_total_ns;
    // Only where it timed every call: the trace's CPU is per region, not per call.
    if (s.cpu_known && s.trace_ns >= trace_total_ns && trace_attention_cpu_ns > 0)
      f.attention_cpu = s.cpu_ns / trace_attention_cpu_ns;
    out.push_back(std::move(f));
  }
  return out;
}

std::vector<WhatIfRule> what_if_rules_of(const SwitchFactors& f) {
  std::vector<WhatIfRule> rules;
  WhatIfRule gpu;
  gpu.kind = WhatIfSelectorKind::kAttention;
  gpu.factor = f.attention;
  gpu.text = fmt::format("attention={:.4g}", f.attention);
  rules.push_back(std::move(gpu));
  if (f.attention_cpu) {
    WhatIfRule cpu;
    cpu.kind = WhatIfSelectorKind::kAttentionCpu;
    cpu.factor = *f.attention_cpu;
    cpu.text = fmt::format("attention-cpu={:.4g}", *f.attention_cpu);
    rules.push_back(std::move(cpu));
  }
  return rules;
}

}  // namespace attnprof
