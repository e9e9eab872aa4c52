// CPU-side cost: time an op spends on the CPU before its first launch (cuDNN builds an execution
// plan there), on the first call against the steady state.

#include <algorithm>
#include <unordered_map>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

// Below 50 us, launch overhead is the usual story; a first call counts as a cold start when it
// waits over 100 us and three times the steady state.
constexpr int64_t kMinGapNs = 50'000;
constexpr int64_t kMinColdStartNs = 100'000;

struct OpGap {
  HostEventId op = kNoId;
  int64_t gap_ns = 0;  // op start -> its first launch
};

// Per region, the op with the longest wait before its first launch: worked out per member set.
std::vector<OpGap> largest_gaps(const FindingContext& c) {
  std::vector<OpGap> of_set(c.set_count());
  for (size_t s = 0; s < c.set_count(); ++s) {
    std::unordered_map<HostEventId, int64_t> first_launch;
    for (GpuActivityId id : c.set_activities(s)) {
      HostEventId launch = c.trace.activity_launch[id];
      if (launch == kNoId) continue;
      HostEventId op = c.top_level_op(launch);
      if (op == kNoId) continue;
      int64_t t = c.trace.host_events[launch].start_ns;
      auto [it, inserted] = first_launch.emplace(op, t);
      if (!inserted) it->second = std::min(it->second, t);
    }
    for (const auto& [op, t] : first_launch) {
      int64_t gap = t - c.trace.host_events[op].start_ns;
      if (gap > of_set[s].gap_ns) of_set[s] = {op, gap};
    }
  }
  std::vector<OpGap> gaps(c.region_count());
  for (size_t r = 0; r < c.region_count(); ++r) gaps[r] = of_set[c.set_of(r)];
  return gaps;
}

}  // namespace

void find_cpu_side_cost(const FindingContext& c, std::vector<Finding>& out) {
  std::vector<OpGap> gaps = largest_gaps(c);
  std::vector<int64_t> values;
  for (const auto& g : gaps) values.push_back(g.gap_ns);
  std::vector<int64_t> rest(values.begin() + 1, values.end());
  std::sort(rest.begin(), rest.end());
  int64_t steady = rest.empty() ? values[0] : rest[rest.size() / 2];
  int64_t first = values[0];
  bool cold_start = gaps.size() > 1 && first >= kMinColdStartNs && first > 3 * steady;
  // In the steady state the wait matters when it is longer than the GPU work it leads to.
  const RegionSummary& typical = c.analysis.regions[std::max(c.typical(), 0)];
  bool cpu_heavy = steady >= kMinGapNs && steady > typical.gpu_busy_ns;
  if (!cold_start && !cpu_heavy) return;
  const OpGap& worst = cold_start ? gaps[0] : gaps[std::max(c.typical(), 0)];
  if (worst.op == kNoId) return;

  const HostEvent& op = c.trace.host_events[worst.op];
  Finding f{FindingKind::kCpuSideCost, {}, {}, {}, 0};
  for (int64_t v : values) f.regions_affected += v >= kMinGapNs;
  std::string op_name(c.trace.strings.view(op.name));
  if (cold_start) {
    f.summary = fmt::format(
        "{} spends {} on the CPU before its first launch on the first call, "
        "{} in the steady state: a one-time setup (such as building an "
        "execution plan) paid inside the first region",
        op_name, format_duration(first), format_duration(steady));
    f.suggestion = "warm up before measuring, and keep shapes stable so that the plan is reused";
  } else if (gaps.size() == 1) {
    // One region has one call of the op: a first call's setup (a plan, a kernel's module loaded
    // on its first use) reads the same as a cost paid on every call
    // (tests/data/op_families/gemm.json.gz, the whole trace: 23.88 ms before an AccumulateGrad's
    // first launch).
    f.summary = fmt::format(
        "{} spends {} on the CPU before its first launch, more than the {} of GPU work in the "
        "region; with one region, a one-time setup (a first call's plan, a kernel's module "
        "loaded on its first use) cannot be told from a cost paid on every call",
        op_name, format_duration(steady), format_duration(typical.gpu_busy_ns));
    f.suggestion =
        "profile several steps (torch.profiler's schedule, or --region on an annotation that "
        "repeats) to tell a one-time setup from a per-call cost; a per-call cost is amortized by "
        "a CUDA graph or a larger batch";
  } else {
    f.summary = fmt::format(
        "{} spends {} on the CPU before its first launch (median over regions), "
        "more than the {} of GPU work in the region",
        op_name, format_duration(steady), format_duration(typical.gpu_busy_ns));
    f.suggestion =
        "CPU work per call (plan lookup, argument checks) adds to latency: a CUDA graph or "
        "a larger batch amortizes it";
  }
  for (size_t r = 0; r < gaps.size() && r < 4; ++r)
    if (gaps[r].op != kNoId)
      f.evidence.push_back(fmt::format("{}: {} from {} start to its first launch",
                                       c.region_label(r), format_duration(gaps[r].gap_ns),
                                       c.trace.strings.view(c.trace.host_events[gaps[r].op].name)));
  out.push_back(std::move(f));
}

}  // namespace attnprof
