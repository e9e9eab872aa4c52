#include "analysis/counters/counter_findings.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "analysis/counters/counter_totals.h"
#include "analysis/findings/attention_op.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/kernels/kernel_names.h"

namespace attnprof {

namespace {

double value(const std::optional<double>& v) {
  return v.value_or(0);
}

// The occupancy of the longest kernel, beside its tensor pipe.
void occupancy_findings(const CounterSubject& s, std::vector<CounterFinding>& out) {
  const auto longest = longest_kernel(s.kernels);
  if (!longest) return;
  const KernelCounters& k = s.kernels[*longest];
  if (!k.achieved_occupancy_pct) return;
  const std::string name = short_kernel_name(k.name);
  const double achieved = *k.achieved_occupancy_pct;
  if (achieved < kLowOccupancyPct && value(k.tensor_pipe_pct) >= kBusyTensorPipePct) {
    out.push_back({s.variant, "occupancy-by-design",
                   fmt::format("{}: {} keeps {:.1f} % of the warps an SM can hold active, and its "
                               "tensor pipe is busy {:.1f} % of the time: its few, large warps "
                               "keep the tensor cores fed; low occupancy is a design choice",
                               s.variant, name, achieved, *k.tensor_pipe_pct)});
  }
  if (s.estimated_occupancy_pct &&
      std::abs(*s.estimated_occupancy_pct - achieved) >= kOccupancyGapPct) {
    std::string theoretical =
        k.theoretical_occupancy_pct
            ? fmt::format(" (ncu's theoretical occupancy: {:.1f} %)", *k.theoretical_occupancy_pct)
            : "";
    const bool lower = achieved < *s.estimated_occupancy_pct;
    out.push_back(
        {s.variant, "occupancy-measured",
         fmt::format("{}: {} measured {:.1f} % occupancy, attnprof estimated {:.1f} % from the "
                     "launch{}: {}",
                     s.variant, name, achieved, *s.estimated_occupancy_pct, theoretical,
                     lower ? "the estimate is the most warps the launch lets an SM hold; on "
                             "average fewer are resident, as blocks start and finish at different "
                             "times and the last wave leaves SMs idle"
                           : "more warps were resident than the estimate allows: the estimate "
                             "misjudged a limit (registers or shared memory as the trace gives "
                             "them)")});
  }
}

// What a memory-bound kernel spends its bytes on, from its name: the note says where the time
// goes rather than assume the score matrix (a decode step's time is copies of K and V and thin
// products that stream them: examples/h200-study/decode/counters).
enum class MemoryWork { kCopies, kProducts, kScorePasses, kAttention, kOther, kCount };

MemoryWork memory_work(std::string_view name) {
  switch (classify_kernel(short_kernel_name(name), name)) {
    case KernelClass::kCopy:
    case KernelClass::kMemset:
      return MemoryWork::kCopies;
    case KernelClass::kGemm:
      return MemoryWork::kProducts;
    case KernelClass::kSoftmax:
    case KernelClass::kMask:
    case KernelClass::kElementwise:
    case KernelClass::kReduction:
      return MemoryWork::kScorePasses;
    case KernelClass::kFusedAttention:
      return MemoryWork::kAttention;
    default:
      return MemoryWork::kOther;
  }
}

// Where the time of the memory-bound kernels goes: each kind of work with at least a tenth of it,
// the most first ("copies (81 %), matrix products ... (18 %)").
std::string where_the_time_goes(
    const std::array<double, static_cast<size_t>(MemoryWork::kCount)>& time, double total,
    bool thin_products) {
  const std::array<std::string_view, static_cast<size_t>(MemoryWork::kCount)> words = {
      "copies that move bytes and compute nothing",
      thin_products ? "matrix products of few query rows that stream K and V (a decode step)"
                    : "matrix products that wait on memory",
      // Without a square product the elementwise kernels may pass over K or V as well (SDPA's
      // math backend scales K in a decode step): only square attention says "score matrix".
      thin_products ? "elementwise passes (scale, mask, softmax)"
                    : "passes over the score matrix (scale, mask, softmax)",
      "attention kernels that stream K and V without tensor work", "other kernels"};
  std::vector<size_t> order;
  for (size_t i = 0; i < time.size(); ++i)
    if (time[i] >= 0.1 * total) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return time[a] > time[b]; });
  std::string text;
  for (size_t i : order)
    text +=
        fmt::format("{}{} ({:.0f} %)", text.empty() ? "" : ", ", words[i], 100 * time[i] / total);
  return text;
}

// Kernels that do no tensor work: their share of the call's time and DRAM bytes, how close
// they come to the copy kernel's bandwidth, and what they are.
void memory_bound_findings(const CounterSubject& s, std::optional<double> bandwidth,
                           std::vector<CounterFinding>& out) {
  const CounterTotals total = total_counters(s.kernels);
  if (total.duration_ns <= 0 || !total.dram_bytes() || *total.dram_bytes() <= 0) return;
  double time = 0, bytes = 0, best = 0;
  std::array<double, static_cast<size_t>(MemoryWork::kCount)> time_by_work{};
  bool thin_products = false;
  std::vector<std::string> names;
  for (const KernelCounters& k : s.kernels) {
    // No tensor work, and no FP32 arithmetic to speak of either (math's FP32 GEMMs are neither
    // on the tensor pipe nor memory-bound).
    if (!k.tensor_pipe_pct || *k.tensor_pipe_pct >= kNoTensorWorkPct ||
        value(k.fp32_pipe_pct) >= kBusyFp32PipePct || !k.duration_ns || !k.dram_bytes() ||
        *k.duration_ns <= 0)
      continue;
    time += *k.duration_ns;
    bytes += *k.dram_bytes();
    best = std::max(best, *k.dram_bytes() / (*k.duration_ns * 1e-9));
    const MemoryWork work = memory_work(k.name);
    time_by_work[static_cast<size_t>(work)] += *k.duration_ns;
    thin_products |= work == MemoryWork::kProducts &&
                     (kernel_traits::is_gemv(k.name) || kernel_traits::has_thin_tile(k.name));
    const std::string name = short_kernel_name(k.name);
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
  }
  if (names.empty() || time < kMemoryBoundShare * total.duration_ns) return;
  if (s.query_rows > 0 && s.keys > 0)
    thin_products = s.query_rows < s.keys && s.query_rows <= kDecodeQueryRows;
  std::string list;
  for (size_t i = 0; i < names.size() && i < 3; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > 3) list += fmt::format(" and {} more", names.size() - 3);
  std::string speed = fmt::format("up to {:.2f} TB/s", best / 1e12);
  if (bandwidth && *bandwidth > 0)
    speed += fmt::format(" ({:.0f} % of the copy kernel's {:.2f})", 100 * best / *bandwidth,
                         *bandwidth / 1e12);
  out.push_back(
      {s.variant, "memory-bound",
       fmt::format("{}: kernels without tensor or FP32 work ({}) take {:.0f} % of the call's "
                   "GPU time and move {:.2f} GB of its {:.2f} GB DRAM traffic ({:.0f} "
                   "%), {}: memory-bound; their time goes to {}",
                   s.variant, list, 100 * time / total.duration_ns, bytes / 1e9,
                   *total.dram_bytes() / 1e9, 100 * bytes / *total.dram_bytes(), speed,
                   where_the_time_goes(time_by_work, time, thin_products))});
}

// Kernels on the FP32 pipe with the tensor pipe idle, together.
void fp32_findings(const CounterSubject& s, std::vector<CounterFinding>& out) {
  const CounterTotals total = total_counters(s.kernels);
  if (total.duration_ns <= 0) return;
  double time = 0, busiest = 0, tensor = 0;
  std::vector<std::string> names;
  for (const KernelCounters& k : s.kernels) {
    if (value(k.fp32_pipe_pct) < kBusyFp32PipePct || value(k.tensor_pipe_pct) >= 1 ||
        !k.duration_ns)
      continue;
    time += *k.duration_ns;
    busiest = std::max(busiest, *k.fp32_pipe_pct);
    tensor = std::max(tensor, value(k.tensor_pipe_pct));
    names.push_back(short_kernel_name(k.name));
  }
  if (names.empty() || time < kMemoryBoundShare * total.duration_ns) return;
  std::string list;
  for (size_t i = 0; i < names.size() && i < 2; ++i) list += (i ? ", " : "") + names[i];
  if (names.size() > 2) list += fmt::format(" and {} more", names.size() - 2);
  out.push_back({s.variant, "fp32-pipe",
                 fmt::format("{}: {} kernel(s) ({}) run on the FP32 pipe (busy up to {:.1f} %) "
                             "with the tensor pipe idle (at most {:.2f} %), {:.0f} % of the "
                             "call's GPU time: half-precision inputs computed in FP32 on CUDA "
                             "cores",
                             s.variant, names.size(), list, busiest, tensor,
                             100 * time / total.duration_ns)});
}

}  // namespace

std::vector<CounterFinding> counter_findings(const std::vector<CounterSubject>& subjects,
                                             std::optional<double> bandwidth_bytes_per_s) {
  std::vector<CounterFinding> out;
  for (const CounterSubject& s : subjects) {
    occupancy_findings(s, out);
    memory_bound_findings(s, bandwidth_bytes_per_s, out);
    fp32_findings(s, out);
  }
  return out;
}

}  // namespace attnprof
