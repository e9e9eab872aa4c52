// Not fused: attention computed as separate GEMM, softmax and elementwise kernels (a naive
// implementation or SDPA's math backend), where the fused backends run one kernel.

#include <map>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"

namespace attnprof {

void find_not_fused(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kNotFused, {}, {}, {}, 0};
  int typical_kernels = 0, typical_gemms = 0, typical_softmax = 0;
  for (size_t r = 0; r < c.region_count(); ++r) {
    int kernels = 0, gemms = 0, softmax = 0, fused = 0;
    for (GpuActivityId id : c.activities(r)) {
      if (c.activity(id).kind != GpuKind::kKernel) continue;
      std::string_view name = c.name(id);
      ++kernels;
      gemms += kernel_traits::is_gemm(name);
      softmax += kernel_traits::is_softmax(name);
      fused += kernel_traits::is_fused_attention(name);
    }
    // Attention's signature: scores by GEMM, a softmax, a GEMM again, and no fused kernel.
    bool hit = softmax > 0 && gemms >= 2 && fused == 0;
    f.regions_affected += hit;
    if (hit && static_cast<int>(r) == c.typical()) {
      typical_kernels = kernels;
      typical_gemms = gemms;
      typical_softmax = softmax;
    }
  }
  if (f.regions_affected == 0) return;
  if (typical_kernels == 0) {  // the typical region did not match: describe the first that did
    typical_kernels = static_cast<int>(c.analysis.facts.kernels.median);
  }
  f.summary = fmt::format(
      "attention runs as {} kernels per region ({} GEMM, {} softmax, the rest "
      "elementwise and copies) in {} of {} regions: it is not fused",
      typical_kernels, typical_gemms, typical_softmax, f.regions_affected, c.region_count());
  f.evidence.push_back(
      fmt::format("median kernels per region: {}", c.analysis.facts.kernels.median));
  f.suggestion =
      "scaled_dot_product_attention's flash, efficient or cuDNN backend computes it in one "
      "kernel, without writing the S x S score matrix to memory";
  out.push_back(std::move(f));
}

}  // namespace attnprof
