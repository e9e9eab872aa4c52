// Precision upcast: FP32 GEMMs on CUDA cores where the inputs were half precision, with the
// casts (aten::to / aten::_to_copy) that brought them there, inside attention ops
// (attention_ops.h): its suggestion is an attention backend's, and a model's own FP32 layers
// are not an upcast.

#include <fmt/format.h>

#include "analysis/duration_sum.h"
#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"
#include "base/format_units.h"

namespace attnprof {

void find_precision_upcast(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kPrecisionUpcast, {}, {}, {}, 0};
  int gemms = 0, casts = 0;
  int64_t gemm_ns = 0;
  std::string gemm_example, cast_example;
  std::vector<bool> hit(c.set_count(), false);
  for (size_t s = 0; s < c.set_count(); ++s) {
    const bool typical = s == c.typical_set();
    bool fp32_gemm = false, cast = false;
    for (const AttentionOp& op : c.set_attention_ops(s)) {
      for (GpuActivityId id : op.activities) {
        const GpuActivity& a = c.activity(id);
        if (a.kind != GpuKind::kKernel) continue;
        std::string_view name = c.name(id);
        if (c.kernel(id).fp32_gemm) {
          fp32_gemm = true;
          if (typical) {
            ++gemms;
            add_duration(gemm_ns, a.dur_ns);
            if (gemm_example.empty())
              gemm_example = fmt::format("{} <- {}", name.substr(0, 60), c.chain_text(id));
          }
        } else if (c.any_op_above(id, kernel_traits::is_cast_op)) {
          cast = true;
          if (typical) {
            ++casts;
            if (cast_example.empty()) cast_example = c.chain_text(id);
          }
        }
      }
    }
    hit[s] = fp32_gemm && cast;
  }
  f.regions_affected = c.regions_with(hit);
  if (f.regions_affected == 0) return;
  f.summary = fmt::format(
      "half-precision inputs computed in FP32: {} FP32 GEMM kernel(s) on CUDA cores "
      "({}) and {} cast kernel(s) per region, in {} of {} regions",
      gemms, format_duration(gemm_ns), casts, f.regions_affected, c.region_count());
  f.evidence.push_back("FP32 GEMM: " + gemm_example);
  f.evidence.push_back("cast: " + cast_example);
  f.suggestion =
      "a fused SDPA backend (flash, efficient, cuDNN) stays in bf16/fp16 on tensor cores; "
      "the math backend upcasts on purpose, as a numerically safe reference";
  out.push_back(std::move(f));
}

}  // namespace attnprof
