#include "analysis/counters/counter_totals.h"

namespace attnprof {

namespace {

// Sums one counter over the kernels; unknown when no kernel has it, or when `every` and some
// kernel lacks it.
std::optional<double> sum(const std::vector<KernelCounters>& kernels,
                          std::optional<double> KernelCounters::*field, bool every) {
  std::optional<double> total;
  for (const KernelCounters& k : kernels) {
    if (!(k.*field)) {
      if (every) return std::nullopt;
      continue;
    }
    total = total.value_or(0) + *(k.*field);
  }
  return total;
}

std::optional<double> weighted_mean(const std::vector<KernelCounters>& kernels,
                                    std::optional<double> KernelCounters::*field) {
  double weighted = 0, weight = 0;
  for (const KernelCounters& k : kernels) {
    if (!(k.*field) || !k.duration_ns || *k.duration_ns <= 0) continue;
    weighted += *(k.*field) * *k.duration_ns;
    weight += *k.duration_ns;
  }
  if (weight <= 0) return std::nullopt;
  return weighted / weight;
}

}  // namespace

CounterTotals total_counters(const std::vector<KernelCounters>& kernels) {
  CounterTotals t;
  t.kernels = static_cast<int>(kernels.size());
  t.duration_ns = sum(kernels, &KernelCounters::duration_ns, false).value_or(0);
  t.dram_read_bytes = sum(kernels, &KernelCounters::dram_read_bytes, true);
  t.dram_write_bytes = sum(kernels, &KernelCounters::dram_write_bytes, true);
  t.tensor_flop = sum(kernels, &KernelCounters::tensor_flop, false);
  t.fp32_flop = sum(kernels, &KernelCounters::fp32_flop, false);
  t.achieved_occupancy_pct = weighted_mean(kernels, &KernelCounters::achieved_occupancy_pct);
  t.tensor_pipe_pct = weighted_mean(kernels, &KernelCounters::tensor_pipe_pct);
  t.fp32_pipe_pct = weighted_mean(kernels, &KernelCounters::fp32_pipe_pct);
  t.dram_throughput_pct = weighted_mean(kernels, &KernelCounters::dram_throughput_pct);
  t.l2_hit_rate_pct = weighted_mean(kernels, &KernelCounters::l2_hit_rate_pct);
  t.sm_throughput_pct = weighted_mean(kernels, &KernelCounters::sm_throughput_pct);
  return t;
}

std::optional<size_t> longest_kernel(const std::vector<KernelCounters>& kernels) {
  std::optional<size_t> best;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!kernels[i].duration_ns) continue;
    if (!best || *kernels[i].duration_ns > *kernels[*best].duration_ns) best = i;
  }
  return best;
}

}  // namespace attnprof
