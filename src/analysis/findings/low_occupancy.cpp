// Low occupancy, explained: a kernel that takes a good share of the region's GPU time with few
// resident warps, what caps them (registers, shared memory), and whether that is a design
// choice: fused attention and tensor-core GEMM kernels keep large tiles in registers and shared
// memory on purpose, trading occupancy for on-chip reuse.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/kernels/occupancy.h"
#include "base/format_units.h"

namespace attnprof {

namespace {
constexpr double kLowOccupancyPct = 25.0;
constexpr double kShareOfRegion = 0.10;
// A grid that gives each SM this share of the blocks its registers and shared memory allow fills
// the GPU as well as the kernel can: its occupancy is the resources', not the grid's (flash's
// split-KV kernel of a decode step: 256 blocks on 132 SMs, 1.9 of the 2 that fit).
constexpr double kNearlyFull = 0.9;
// Below this a kernel's time is mostly the fixed cost of starting and draining a grid, whatever
// its size (a few µs on current GPUs).
constexpr int64_t kShortKernelNs = 10'000;

// flash-attention's split-KV combine (flash_fwd_splitkv_combine_kernel): the reduction that merges
// the partial softmax results of the key splits, one small grid per call.
bool is_split_kv_combine(std::string_view name) {
  return name.find("splitkv_combine") != std::string_view::npos;
}
}  // namespace

void find_low_occupancy(const FindingContext& c, std::vector<Finding>& out) {
  int r = c.typical();
  if (r < 0) return;
  int64_t busy = c.analysis.regions[r].gpu_busy_ns;
  // A decode step (few query rows per head against many keys, from the ops' recorded shapes) is
  // memory-bound: its yardstick is bytes per second.
  bool decode = !c.attention_ops(r).empty();
  for (const AttentionOp& op : c.attention_ops(r)) decode &= op.decode_step();
  std::vector<std::string> seen;
  // Kernels whose grid cannot fill the GPU are one story, told once: too little work per launch.
  Finding small_grids{FindingKind::kLowOccupancy, {}, {}, {}, static_cast<int>(c.region_count())};
  int sm_count = 0;
  bool idle_sms = false, long_kernel = false, combine = false;
  for (GpuActivityId id : c.activities(r)) {
    const GpuActivity& a = c.activity(id);
    if (a.kind != GpuKind::kKernel || busy <= 0 || a.dur_ns < kShareOfRegion * busy) continue;
    const DeviceProperties* device = c.trace.device(a.device);
    if (!device) continue;
    auto occupancy = estimate_occupancy(a, *device);
    if (!occupancy || occupancy->achieved_pct >= kLowOccupancyPct) continue;
    std::string name = short_kernel_name(c.name(id));
    bool repeated = false;
    for (const auto& s : seen) repeated |= s == name;
    if (repeated) continue;
    seen.push_back(name);

    int64_t threads = int64_t{a.block[0]} * a.block[1] * a.block[2];
    int warps_per_sm = device->max_threads_per_sm / device->warp_size;
    double warps = occupancy->achieved_pct * warps_per_sm / 100.0;
    std::string_view limiter = occupancy->limiter;
    if (limiter == "grid" && occupancy->achieved_pct >= kNearlyFull * occupancy->theoretical_pct)
      limiter = occupancy->resource_limiter;
    if (limiter == "grid") {
      sm_count = device->sm_count;
      const int64_t blocks = int64_t{a.grid[0]} * a.grid[1] * a.grid[2];
      std::string where = blocks < sm_count ? fmt::format("{} SMs get none", sm_count - blocks)
                                            : fmt::format("{:.1f} per SM where {} fit",
                                                          static_cast<double>(blocks) / sm_count,
                                                          occupancy->blocks_per_sm);
      idle_sms |= blocks < sm_count;
      long_kernel |= a.dur_ns >= kShortKernelNs;
      combine |= is_split_kv_combine(name);
      small_grids.evidence.push_back(fmt::format(
          "{}: {} blocks of {} threads for {} SMs ({}), {:.1f}% occupancy, {}", name, blocks,
          threads, sm_count, where, occupancy->achieved_pct, format_duration(a.dur_ns)));
      continue;
    }
    std::string cause;
    if (limiter == "registers")
      cause = fmt::format(
          "{} registers per thread x {} threads per block leave room for {} block(s) per SM",
          a.registers_per_thread, threads, occupancy->blocks_per_sm);
    else if (limiter == "shared memory")
      cause = fmt::format("{} of shared memory per block leaves room for {} block(s) per SM",
                          format_bytes(a.shared_memory), occupancy->blocks_per_sm);
    else
      cause = fmt::format("{} threads per block", threads);
    // A GEMV (math's decode step) keeps no tiles: its few warps are not a trade for reuse.
    bool by_design = c.kernel(id).fused_attention || (c.kernel(id).gemm && !c.kernel(id).gemv);
    double share = 100.0 * static_cast<double>(a.dur_ns) / static_cast<double>(busy);

    Finding f{FindingKind::kLowOccupancy, {}, {}, {}, 0};
    f.regions_affected = static_cast<int>(c.region_count());
    f.summary = fmt::format(
        "{}: {:.1f}% estimated occupancy ({:.1f} of {} warps per SM) for {:.0f}% of "
        "the region's GPU time; {}",
        name, occupancy->achieved_pct, warps, warps_per_sm, share, cause);
    f.evidence.push_back(fmt::format("grid {}, block {}, {} registers/thread, {} shared memory, {}",
                                     format_dim3(a.grid), format_dim3(a.block),
                                     a.registers_per_thread, format_bytes(a.shared_memory),
                                     format_duration(a.dur_ns)));
    if (a.kineto_occupancy_pct >= 0)
      f.evidence.push_back(fmt::format(
          "Kineto's own estimate: {:.0f}%{}", a.kineto_occupancy_pct,
          a.kineto_occupancy_pct == 0 ? " (it writes 0 where it cannot query the launch)" : ""));
    f.suggestion =
        by_design ? std::string(
                        "a design choice, not a problem: this kernel keeps its tiles in "
                        "registers and shared memory and reuses them on chip; ") +
                        (decode ? "judge it by its time and its bytes per second: a decode step "
                                  "streams K and V, and its TFLOP/s are small by nature"
                                : "judge it by its time and TFLOP/s")
                  : "fewer registers per thread (launch bounds) or less shared memory per block "
                    "would let more warps hide latency";
    out.push_back(std::move(f));
  }
  if (!small_grids.evidence.empty()) {
    small_grids.summary = fmt::format(
        "{} kernel(s) launch too few blocks to fill the GPU's {} SMs{}: the grid, not registers "
        "or shared memory, caps their occupancy",
        small_grids.evidence.size(), sm_count, idle_sms ? ", so some SMs idle" : "");
    // What helps depends on the kernel: a long one has work to spread, a short one is mostly the
    // cost of a launch, and split-KV's combine is small by design.
    std::vector<std::string> advice;
    if (long_kernel)
      advice.push_back(
          "more work per launch fills the GPU (a larger batch, more heads per launch, or for a "
          "decode step more splits of the keys); a kernel that streams memory may reach the "
          "memory's bandwidth with few warps per SM, so judge it by its bytes per second first");
    if (combine)
      advice.push_back(
          "split-KV's combine kernel is a small reduction over the splits' partial results: a few "
          "blocks and a few µs are the price of splitting the keys, not work left on the table");
    else if (!long_kernel)
      advice.push_back(
          "each takes under 10 µs, so the fixed cost of a launch weighs as much as its work: more "
          "problems per launch, or a CUDA graph of the step, amortizes it");
    for (const std::string& a : advice)
      small_grids.suggestion += (small_grids.suggestion.empty() ? "" : "; ") + a;
    out.push_back(std::move(small_grids));
  }
}

}  // namespace attnprof
