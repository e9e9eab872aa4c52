// Mask rebuilt per call: kernels that build a causal mask (triu/tril) inside the attention op,
// on every call, instead of once.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"
#include "base/format_units.h"

namespace attnprof {

void find_mask_rebuilt(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kMaskRebuilt, {}, {}, {}, 0};
  std::vector<bool> hit(c.set_count(), false);
  for (size_t s = 0; s < c.set_count(); ++s) {
    for (GpuActivityId id : c.set_activities(s)) {
      if (c.activity(id).kind != GpuKind::kKernel || !c.kernel(id).mask_builder) continue;
      if (!c.any_op_above(
              id, [](std::string_view op) { return kernel_traits::contains(op, "attention"); }))
        continue;
      hit[s] = true;
      if (s != c.typical_set()) break;
      f.evidence.push_back(fmt::format("{}: {} ({}) <- {}", c.region_label(c.typical()),
                                       c.name(id).substr(0, 50),
                                       format_duration(c.activity(id).dur_ns), c.chain_text(id)));
    }
  }
  f.regions_affected = c.regions_with(hit);
  if (f.regions_affected == 0) return;
  f.summary =
      fmt::format("the attention op builds its causal mask on every call, in {} of {} regions",
                  f.regions_affected, c.region_count());
  f.suggestion =
      "with is_causal=True a fused backend applies the mask inside its kernel; or build the "
      "mask once and pass it";
  out.push_back(std::move(f));
}

}  // namespace attnprof
