#include "analysis/kernels/occupancy.h"

#include <algorithm>

namespace attnprof {

namespace {
// Hopper and Ampere: registers are allocated per warp in units of 256; each block also reserves
// 1 KiB of shared memory for the system; an SM holds at most 32 blocks.
constexpr int kRegisterUnit = 256;
constexpr int64_t kReservedSharedPerBlock = 1024;
constexpr int kMaxBlocksPerSm = 32;
}  // namespace

std::optional<OccupancyEstimate> estimate_occupancy(const GpuActivity& k,
                                                    const DeviceProperties& d) {
  // The rules are NVIDIA's; and without every input the figure would be made up (a [0,0,0] grid
  // read 100 %).
  if (k.kind != GpuKind::kKernel || d.vendor != DeviceVendor::kNvidia) return std::nullopt;
  if (k.registers_per_thread < 0 || k.shared_memory < 0) return std::nullopt;
  int64_t threads = int64_t{k.block[0]} * k.block[1] * k.block[2];
  int64_t grid = int64_t{k.grid[0]} * k.grid[1] * k.grid[2];
  for (int i = 0; i < 3; ++i)
    if (k.block[i] <= 0 || k.grid[i] <= 0) return std::nullopt;
  // Fewer threads per SM than a warp would divide by zero warps (reader/trace_builder.cpp drops
  // such figures with a diagnostic; a DeviceProperties made elsewhere gets the same answer).
  if (d.warp_size <= 0 || d.max_threads_per_sm < d.warp_size || d.regs_per_sm <= 0)
    return std::nullopt;
  // Rounded up without threads + warp_size - 1, which overflows for the largest blocks the reader
  // accepts (fuzz regression block-product-near-int64.json).
  int64_t warps_per_block = (threads - 1) / d.warp_size + 1;
  int64_t max_warps = d.max_threads_per_sm / d.warp_size;

  struct Limit {
    int64_t blocks;
    std::string_view name;
  };
  Limit limits[4] = {{kMaxBlocksPerSm, "blocks"},
                     {max_warps / warps_per_block, "threads"},
                     {kMaxBlocksPerSm, "registers"},
                     {kMaxBlocksPerSm, "shared memory"}};
  if (k.registers_per_thread > 0) {
    int64_t per_warp = (int64_t{k.registers_per_thread} * d.warp_size + kRegisterUnit - 1) /
                       kRegisterUnit * kRegisterUnit;
    limits[2].blocks = d.regs_per_sm / per_warp / warps_per_block;
  }
  if (k.shared_memory > 0 && d.shared_memory_per_sm > 0)
    limits[3].blocks = d.shared_memory_per_sm / (k.shared_memory + kReservedSharedPerBlock);
  const Limit* tightest = &limits[0];
  for (const Limit& l : limits)
    if (l.blocks < tightest->blocks) tightest = &l;

  OccupancyEstimate e;
  e.blocks_per_sm = static_cast<int>(std::max<int64_t>(tightest->blocks, 0));
  e.limiter = tightest->name;
  e.resource_limiter = tightest->name;
  e.theoretical_pct = 100.0 * static_cast<double>(e.blocks_per_sm * warps_per_block) /
                      static_cast<double>(max_warps);
  e.achieved_pct = e.theoretical_pct;
  if (d.sm_count > 0) {
    double blocks_available = static_cast<double>(grid) / d.sm_count;
    if (blocks_available < e.blocks_per_sm) {
      e.achieved_pct = 100.0 * blocks_available * static_cast<double>(warps_per_block) /
                       static_cast<double>(max_warps);
      e.limiter = "grid";
    }
  }
  return e;
}

}  // namespace attnprof
