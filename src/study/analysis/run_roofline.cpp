#include "study/analysis/run_roofline.h"

#include <algorithm>

#include "analysis/counter_totals.h"
#include "analysis/kernel_names.h"
#include "analysis/roofline.h"

namespace attnprof {

std::optional<RunRoofline> run_roofline(const RunSummary& run, const RunPoint& point) {
  if (!run.counters || !run.counters->bandwidth_bytes_per_s || run.counters->roofs.empty())
    return std::nullopt;
  RunRoofline r;
  r.roofs = run.counters->roofs;
  std::sort(r.roofs.begin(), r.roofs.end(),
            [](const auto& a, const auto& b) { return a.flop_per_s > b.flop_per_s; });
  r.bandwidth_bytes_per_s = *run.counters->bandwidth_bytes_per_s;
  const double peak = r.roofs.front().flop_per_s;
  for (size_t i = 0; i < point.variants.size(); ++i) {
    const RunVariant& v = point.variants[i];
    if (v.intensity && v.tflops && *v.intensity > 0 && *v.tflops > 0) {
      RunRooflinePoint p{variant_label(v), v.variant, false, i, *v.intensity, *v.tflops * 1e12, {}};
      p.percent_of_roof =
          percent_of_roof({p.intensity, p.flop_per_s}, peak, r.bandwidth_bytes_per_s);
      r.points.push_back(std::move(p));
    }
    const auto longest = longest_kernel(v.kernel_counters);
    if (!longest) continue;
    const KernelCounters& k = v.kernel_counters[*longest];
    const auto flop = k.flop();
    const auto bytes = k.dram_bytes();
    if (!flop || !bytes || !k.duration_ns || *k.duration_ns <= 0 || *flop <= 0) continue;
    const auto intensity = arithmetic_intensity(*flop, *bytes);
    if (!intensity) continue;
    RunRooflinePoint p{short_kernel_name(k.name),       v.variant, true, i, *intensity,
                       *flop / (*k.duration_ns * 1e-9), {}};
    p.percent_of_roof = percent_of_roof({p.intensity, p.flop_per_s}, peak, r.bandwidth_bytes_per_s);
    r.points.push_back(std::move(p));
  }
  if (r.points.empty()) return std::nullopt;
  return r;
}

}  // namespace attnprof
