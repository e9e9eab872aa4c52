#include "study/analysis/headline_steps.h"

#include <algorithm>

#include "analysis/spread.h"

namespace attnprof {

void add_headline_steps(Headline& h, const std::vector<ReportVariant>& variants) {
  std::vector<Headline::Step> steps;
  for (const ReportVariant& v : variants) {
    if (!v.analysis || v.analysis->regions.empty()) continue;
    std::vector<double> lengths;
    for (const RegionSummary& r : v.analysis->regions)
      if (r.critical_path.present)
        lengths.push_back(static_cast<double>(r.critical_path.length_ns));
    // A trace whose steps were not timed leaves the comparison out: it would be of some only.
    if (lengths.empty()) return;
    const TraceAnalysis& a = *v.analysis;
    // Regions that end before their GPU work does (an annotation around launches only, as the
    // bench's `forward`) do not hold it: their wall time is not the step's, and none is compared.
    const double length = spread_of(lengths).median;
    if (a.facts.gpu_busy_ns.median > length) return;
    const int typical = a.typical_region >= 0 ? a.typical_region : 0;
    steps.push_back(
        {v.name, length, a.regions[static_cast<size_t>(typical)].critical_path.bound_by});
  }
  if (steps.empty()) return;
  std::stable_sort(
      steps.begin(), steps.end(),
      [](const Headline::Step& a, const Headline::Step& b) { return a.length_ns < b.length_ns; });
  auto step_of = [&](const std::string& name) -> const Headline::Step* {
    for (const Headline::Step& s : steps)
      if (s.variant == name) return &s;
    return nullptr;
  };
  const Headline::Step* fastest = step_of(h.fastest);
  if (fastest && fastest->length_ns > 0) {
    std::vector<std::string> kept;
    for (const std::string& name : h.as_fast) {
      const Headline::Step* s = step_of(name);
      if (s && s->length_ns > kHeadlineTie * fastest->length_ns)
        h.as_fast_on_gpu_only.push_back(name);
      else
        kept.push_back(name);
    }
    h.as_fast = std::move(kept);
  }
  h.steps = std::move(steps);
}

}  // namespace attnprof
