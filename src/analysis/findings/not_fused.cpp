// Not fused: attention computed as separate GEMM, softmax and elementwise kernels (a naive
// implementation or SDPA's math backend), where the fused backends run one kernel. Said of the
// attention ops themselves (attention_ops.h), each with its share of the region's GPU time: a
// region without attention (a CNN's step) gets nothing.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

void find_not_fused(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kNotFused, {}, {}, {}, 0};
  std::vector<AttentionOp> shown;  // of the typical region, or else the first that has some
  int shown_region = -1;
  for (size_t r = 0; r < c.region_count(); ++r) {
    std::vector<AttentionOp> unfused;
    for (const AttentionOp& op : c.attention_ops(r))
      if (!op.fused && op.kernels > 1) unfused.push_back(op);
    if (unfused.empty()) continue;
    ++f.regions_affected;
    if (shown_region < 0 || static_cast<int>(r) == c.typical()) {
      shown_region = static_cast<int>(r);
      shown = std::move(unfused);
    }
  }
  if (f.regions_affected == 0) return;
  const int64_t region_busy = c.analysis.regions[shown_region].gpu_busy_ns;
  auto share = [&](int64_t ns) {
    return region_busy > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(ns) / region_busy)
                           : std::string("-");
  };
  int kernels = 0, gemms = 0, softmax = 0;
  int64_t busy = 0;
  for (const AttentionOp& op : shown) {
    kernels += op.kernels;
    gemms += op.gemms;
    softmax += op.softmax;
    busy += op.busy_ns;
    f.evidence.push_back(
        fmt::format("{}: {}{}: {} kernels ({} GEMM, {} softmax), {}, {} of the "
                    "region's GPU time",
                    c.region_label(shown_region), op.label,
                    op.parent.empty() ? std::string() : " under " + op.parent, op.kernels, op.gemms,
                    op.softmax, format_duration(op.busy_ns), share(op.busy_ns)));
  }
  f.summary = fmt::format(
      "attention runs as {} kernels in {} attention op(s) per region ({} GEMM, "
      "{} softmax, the rest elementwise and copies; {} of the region's GPU "
      "time), in {} of {} regions: it is not fused",
      kernels, shown.size(), gemms, softmax, share(busy), f.regions_affected, c.region_count());
  f.suggestion =
      "scaled_dot_product_attention's flash, efficient or cuDNN backend computes it in one "
      "kernel, without writing the S x S score matrix to memory";
  out.push_back(std::move(f));
}

}  // namespace attnprof
