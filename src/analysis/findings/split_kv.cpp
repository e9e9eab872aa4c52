// Split-KV: a fused attention kernel that splits the keys of each query block across several
// blocks of work and a second kernel that combines their partial results (FlashAttention's
// flash_fwd_splitkv_kernel and flash_fwd_splitkv_combine_kernel). It is how a backend keeps the
// SMs busy when there are few queries, as in a decode step, so it describes the build of the
// kernels rather than a cost to remove.

#include <map>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/text_match.h"
#include "base/format_units.h"

namespace attnprof {
void find_split_kv(const FindingContext& c, std::vector<Finding>& out) {
  const int r = c.typical();
  if (r < 0) return;
  struct Seen {
    int launches = 0;
    std::string evidence;
  };
  std::map<std::string, Seen> kernels;  // short name -> launches and the first one's shape
  std::string split, combine;
  for (GpuActivityId id : c.activities(r)) {
    const GpuActivity& a = c.activity(id);
    if (a.kind != GpuKind::kKernel || !c.kernel(id).split_kv) continue;
    const std::string name = short_kernel_name(c.name(id));
    Seen& seen = kernels[name];
    if (seen.launches++ == 0) {
      seen.evidence = fmt::format("grid {}, block {}, {}", format_dim3(a.grid),
                                  format_dim3(a.block), format_duration(a.dur_ns));
    }
    auto& role = contains_ignoring_case(name, "combine") ? combine : split;
    if (role.empty()) role = name;
  }
  if (split.empty()) return;
  Finding f{FindingKind::kSplitKv, {}, {}, {}, static_cast<int>(c.region_count())};
  for (const auto& [name, seen] : kernels)
    f.evidence.push_back(fmt::format("{} x {}: {}", seen.launches, name, c.region_label(r)) +
                         " (first: " + seen.evidence + ")");
  f.summary = combine.empty()
                  ? fmt::format(
                        "split-KV: {} splits the keys across blocks of work, to fill the SMs "
                        "with few queries",
                        split)
                  : fmt::format(
                        "split-KV: {} splits the keys across blocks of work, to fill the SMs "
                        "with few queries, and {} combines their partial softmax results",
                        split, combine);
  out.push_back(std::move(f));
}

}  // namespace attnprof
