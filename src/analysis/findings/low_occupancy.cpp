// Low occupancy, explained: a kernel that takes a good share of the region's GPU time with few
// resident warps, what caps them (registers, shared memory), and whether that is a design
// choice: fused attention and tensor-core GEMM kernels keep large tiles in registers and shared
// memory on purpose, trading occupancy for on-chip reuse.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/kernel_names.h"
#include "analysis/occupancy.h"
#include "base/format_units.h"

namespace attnprof {

namespace {
constexpr double kLowOccupancyPct = 25.0;
constexpr double kShareOfRegion = 0.10;
}  // namespace

void find_low_occupancy(const FindingContext& c, std::vector<Finding>& out) {
  int r = c.typical();
  if (r < 0) return;
  int64_t busy = c.analysis.regions[r].gpu_busy_ns;
  std::vector<std::string> seen;
  // Kernels whose grid cannot fill the GPU are one story, told once: too little work per launch.
  Finding small_grids{FindingKind::kLowOccupancy, {}, {}, {}, static_cast<int>(c.region_count())};
  int sm_count = 0;
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
    if (occupancy->limiter == "grid") {
      sm_count = device->sm_count;
      small_grids.evidence.push_back(
          fmt::format("{}: {} blocks of {} threads, {:.1f}% occupancy, {}", name,
                      int64_t{a.grid[0]} * a.grid[1] * a.grid[2], threads, occupancy->achieved_pct,
                      format_duration(a.dur_ns)));
      continue;
    }
    std::string cause;
    if (occupancy->limiter == "registers")
      cause = fmt::format(
          "{} registers per thread x {} threads per block leave room for {} block(s) per SM",
          a.registers_per_thread, threads, occupancy->blocks_per_sm);
    else if (occupancy->limiter == "shared memory")
      cause = fmt::format("{} of shared memory per block leaves room for {} block(s) per SM",
                          format_bytes(a.shared_memory), occupancy->blocks_per_sm);
    else
      cause = fmt::format("{} threads per block", threads);
    bool by_design = c.kernel(id).fused_attention || c.kernel(id).gemm;
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
        by_design ? "a design choice, not a problem: this kernel keeps its tiles in registers and "
                    "shared memory and reuses them on chip; judge it by its time and TFLOP/s"
                  : "fewer registers per thread (launch bounds) or less shared memory per block "
                    "would let more warps hide latency";
    out.push_back(std::move(f));
  }
  if (!small_grids.evidence.empty()) {
    small_grids.summary = fmt::format(
        "{} kernel(s) launch fewer blocks than the GPU's {} SMs: the problem "
        "is too small to fill the GPU, so most SMs idle",
        small_grids.evidence.size(), sm_count);
    small_grids.suggestion =
        "a larger batch (or several problems per launch) fills the GPU; at this "
        "size launch overhead dominates anyway";
    out.push_back(std::move(small_grids));
  }
}

}  // namespace attnprof
