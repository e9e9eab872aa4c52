#pragma once
// Hardware counters of GPU kernels, as Nsight Compute (ncu) measures them: what the trace can only
// estimate (occupancy) or not see at all (how busy the tensor and FP32 pipes are, how many bytes
// came from DRAM). `attnprof bench --counters` measures them for every kernel of each variant's
// typical call (docs/counters.md); the core reads ncu's CSV (src/reader/ncu_csv.h), sums a
// variant's kernels (src/analysis/counters/counter_totals.h) and places them on the roofline
// (src/analysis/roofline.h). A counter ncu did not report is unknown (nullopt), never 0.

#include <optional>
#include <string>
#include <vector>

namespace attnprof {

// One kernel launch as ncu measured it.
struct KernelCounters {
  std::string name;   // as ncu names it (demangled, with its template arguments)
  std::string grid;   // "(16, 4, 16)"
  std::string block;  // "(128, 1, 1)"
  std::optional<double> duration_ns;
  // Warps active per cycle over the SM's maximum, while the SM was active: the measured
  // counterpart of the occupancy attnprof estimates from the launch.
  std::optional<double> achieved_occupancy_pct;
  std::optional<double> theoretical_occupancy_pct;  // what the launch allows, by ncu
  std::optional<double> tensor_pipe_pct;            // tensor (HMMA/GMMA) pipe busy, % of peak
  std::optional<double> fp32_pipe_pct;              // FMA pipe (FP32 arithmetic) busy, % of peak
  std::optional<double> dram_read_bytes, dram_write_bytes;
  std::optional<double> dram_throughput_pct;  // % of the DRAM's peak, over the kernel's time
  std::optional<double> l2_hit_rate_pct;
  std::optional<double> sm_throughput_pct;  // the busiest SM unit, % of its peak
  std::optional<double> sm_clock_hz;        // the SMs' clock while it ran
  // Floating-point operations the kernel executed, counted by the hardware: tensor-core ops
  // (bf16, fp16, tf32 inputs) and FP32 ones (an FMA counts 2). Causal kernels compute whole tiles
  // on the diagonal, so these exceed the useful FLOPs a little.
  std::optional<double> tensor_flop, fp32_flop;

  // Read plus written; unknown when either is.
  std::optional<double> dram_bytes() const {
    if (!dram_read_bytes || !dram_write_bytes) return std::nullopt;
    return *dram_read_bytes + *dram_write_bytes;
  }
  // Tensor plus FP32; unknown when both are.
  std::optional<double> flop() const {
    if (!tensor_flop && !fp32_flop) return std::nullopt;
    return tensor_flop.value_or(0) + fp32_flop.value_or(0);
  }
};

// The kernels of one call summed: times, bytes and operations add up; the percentages are
// averages weighted by each kernel's duration (what a kernel that runs longer does weighs more),
// over the kernels that report them.
struct CounterTotals {
  int kernels = 0;
  double duration_ns = 0;
  std::optional<double> dram_read_bytes, dram_write_bytes;
  std::optional<double> tensor_flop, fp32_flop;
  std::optional<double> achieved_occupancy_pct, tensor_pipe_pct, fp32_pipe_pct;
  std::optional<double> dram_throughput_pct, l2_hit_rate_pct, sm_throughput_pct;

  std::optional<double> dram_bytes() const {
    if (!dram_read_bytes || !dram_write_bytes) return std::nullopt;
    return *dram_read_bytes + *dram_write_bytes;
  }
};

}  // namespace attnprof
