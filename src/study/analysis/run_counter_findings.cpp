#include "study/analysis/run_counter_findings.h"

namespace attnprof {

std::vector<CounterFinding> run_counter_findings(const RunSummary& run, const RunPoint& point) {
  if (!run.counters || !run.counters->unavailable.empty()) return {};
  std::vector<CounterSubject> subjects;
  for (const RunVariant& v : point.variants) {
    if (v.kernel_counters.empty()) continue;
    std::optional<double> estimate;
    if (v.forward && v.forward->facts.main_kernel)
      estimate = v.forward->facts.main_kernel->occupancy_pct;
    subjects.push_back({variant_label(v), v.kernel_counters, estimate,
                        point.problem.q_seq > 0 ? point.problem.q_seq : point.problem.seq,
                        point.problem.seq});
  }
  return counter_findings(subjects, run.counters->bandwidth_bytes_per_s);
}

}  // namespace attnprof
