// Not fused: attention computed as separate GEMM, softmax and elementwise kernels (a naive
// implementation or SDPA's math backend), where the fused backends run one kernel. Said of the
// attention ops themselves (attention_ops.h), each with its share of the region's GPU time: a
// region without attention (a CNN's step) gets nothing. Two cases say more, as a user could
// believe them fused (docs/CUDA_GRAPHS.md): attention captured in a CUDA graph (one launch
// replays the kernels, which still run apart), and attention compiled by Inductor, which fuses
// the scale, mask and softmax into one Triton kernel but leaves the two products as GEMMs, so
// the scores still go through memory (tests/data/graphs/naive-compiled.json.gz).

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernels/inductor_kernel.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

// What an unfused attention writes to memory between its kernels: the scores, one per query row
// and key per head. Their shape comes from the ops' recorded input shapes; a trace without them
// (record_shapes=False) has the kernels' names alone: a GEMV, or cuBLAS's thinnest tile, says one
// side of the product is a few rows (kernel_traits::has_thin_tile).
std::string scores_written(const std::vector<AttentionOp>& ops, int gemms, int thin_gemms) {
  int64_t rows = 0, keys = 0;
  bool known = !ops.empty(), same = true;
  for (const AttentionOp& op : ops) {
    known &= op.query_rows > 0;
    same &= op.query_rows == ops.front().query_rows && op.keys == ops.front().keys;
    rows = std::max(rows, op.query_rows);
    keys = std::max(keys, op.keys);
  }
  if (known && rows == keys) return "the S x S score matrix";
  if (known && rows <= kDecodeQueryRows && rows < keys)
    return fmt::format("the score rows ({}{} x {} per head: a decode step's {} against {} keys)",
                       same ? "" : "up to ", rows, keys,
                       rows == 1 ? "single query" : fmt::format("{} queries", rows), keys);
  if (known) return fmt::format("the {}{} x {} score matrix", same ? "" : "up to ", rows, keys);
  if (gemms > 0 && thin_gemms == gemms)
    return "the score rows (few queries per head against S keys, as in a decode step)";
  return "the S x S score matrix";
}

// The Inductor kernels of a compiled attention op, each with what it fuses: "triton_per_fused_..._0
// (fuses _softmax, exp, masked_fill, ...)". "" when it has none.
std::string inductor_kernels(const FindingContext& c, const AttentionOp& op) {
  std::string out;
  std::vector<StringId> seen;
  for (GpuActivityId id : op.activities) {
    const GpuActivity& a = c.activity(id);
    if (a.kind != GpuKind::kKernel || std::find(seen.begin(), seen.end(), a.name) != seen.end())
      continue;
    seen.push_back(a.name);
    auto kernel = parse_inductor_kernel(c.name(id));
    if (!kernel) continue;
    out += fmt::format("{}{}{}", out.empty() ? "" : ", ", c.name(id),
                       kernel->fuses_softmax() ? " (the softmax, with the ops around it)" : "");
  }
  return out;
}

}  // namespace

void find_not_fused(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kNotFused, {}, {}, {}, 0};
  std::vector<std::vector<AttentionOp>> unfused(c.set_count());
  std::vector<bool> hit(c.set_count(), false);
  for (size_t s = 0; s < c.set_count(); ++s) {
    for (const AttentionOp& op : c.set_attention_ops(s))
      if (!op.fused && op.kernels > 1) unfused[s].push_back(op);
    hit[s] = !unfused[s].empty();
  }
  f.regions_affected = c.regions_with(hit);
  // The typical region's ops are shown, or else the first region's that has some.
  int shown_region = -1;
  if (c.typical_set() < c.set_count() && hit[c.typical_set()]) shown_region = c.typical();
  for (size_t r = 0; shown_region < 0 && r < c.region_count(); ++r)
    if (hit[c.set_of(r)]) shown_region = static_cast<int>(r);
  if (f.regions_affected == 0) return;
  const int64_t region_busy = c.analysis.regions[shown_region].gpu_busy_ns;
  auto share = [&](int64_t ns) {
    return region_busy > 0 ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(ns) / region_busy)
                           : std::string("-");
  };
  const std::vector<AttentionOp>& shown = unfused[c.set_of(static_cast<size_t>(shown_region))];
  int kernels = 0, gemms = 0, softmax = 0, thin_gemms = 0;
  int64_t busy = 0, outside_gemms = 0;
  std::string compiled, compiled_kernels, found_by;
  bool in_graph = false;
  for (const AttentionOp& op : shown) {
    if (compiled.empty() && !op.compiled_region.empty()) {
      compiled = op.compiled_region;
      compiled_kernels = inductor_kernels(c, op);
    }
    in_graph |= op.graph_replay;
    if (found_by.empty()) found_by = op.found_by;
    kernels += op.kernels;
    gemms += op.gemms;
    softmax += op.softmax;
    thin_gemms += op.thin_gemms;
    busy += op.busy_ns;
    for (GpuActivityId id : op.activities)
      if (!c.kernel(id).gemm) outside_gemms += c.activity(id).dur_ns;
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
  if (!compiled.empty())
    f.summary += fmt::format(
        "; compiled by Inductor ({}), it still writes {} between its GEMMs{}", compiled,
        scores_written(shown, gemms, thin_gemms),
        compiled_kernels.empty() ? "" : ": " + compiled_kernels + " runs apart from them");
  if (in_graph)
    f.summary +=
        "; captured in a CUDA graph, one launch replays these kernels, which still run one by "
        "one (their ops found by the graph's capture)";
  if (!found_by.empty())
    f.summary += "; found by " + found_by + " (a CUDA graph replayed without its capture, say)";
  f.gpu_ns = static_cast<double>(outside_gemms);
  f.suggestion =
      "scaled_dot_product_attention's flash, efficient or cuDNN backend computes it in "
      "one kernel, without writing " +
      scores_written(shown, gemms, thin_gemms) + " to memory";
  out.push_back(std::move(f));
}

}  // namespace attnprof
