#include "analysis/critical_path/path_categories.h"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>

#include "analysis/critical_path/path_segments.h"

namespace attnprof {

namespace {

int64_t& category_field(CriticalPathCategories& c, PathCategory category) {
  switch (category) {
    case PathCategory::kCpu:
      return c.cpu_ns;
    case PathCategory::kLaunchOverhead:
      return c.launch_overhead_ns;
    case PathCategory::kSync:
      return c.sync_ns;
    case PathCategory::kCompute:
      return c.compute_ns;
    case PathCategory::kCommunication:
      return c.communication_ns;
    case PathCategory::kMemory:
      return c.memory_ns;
    case PathCategory::kKernelGap:
      return c.kernel_gap_ns;
  }
  return c.cpu_ns;
}

// The items of one kind with the most time, the longest first (names in order at a tie).
void add_top(const std::map<std::string, int64_t>& totals, CriticalPathItemKind kind,
             std::vector<CriticalPathItem>& out) {
  std::vector<CriticalPathItem> items;
  for (const auto& [name, ns] : totals)
    if (ns > 0) items.push_back({kind, name, ns});
  std::stable_sort(
      items.begin(), items.end(),
      [](const CriticalPathItem& a, const CriticalPathItem& b) { return a.ns > b.ns; });
  if (items.size() > kCriticalPathTop) items.resize(kCriticalPathTop);
  out.insert(out.end(), items.begin(), items.end());
}

}  // namespace

HostEventId innermost_op(const Trace& trace, HostEventId e) {
  while (e != kNoId && trace.host_events[e].kind != HostKind::kCpuOp) e = trace.host_parent[e];
  return e;
}

std::string gpu_work_name(const Trace& trace, GpuActivityId id, KernelShortNames& kernel_names) {
  const GpuActivity& a = trace.gpu_activities[id];
  if (a.kind == GpuKind::kKernel) return kernel_names.of(trace.strings, a.name);
  const std::string_view full = trace.strings.view(a.name);
  return std::string(full.substr(0, full.find(" (")));
}

CriticalPath critical_path_of(const Trace& trace, const DependencyGraph& g,
                              const PathTiming& timing, const std::vector<uint8_t>& is_attention,
                              KernelShortNames& kernel_names) {
  CriticalPath path;
  path.present = true;
  path.length_ns = timing.time_ns[g.end] - timing.time_ns[g.start];
  // Keyed by one activity of each name, which names the whole group.
  std::unordered_map<GpuActivityId, int64_t> kernels;
  std::unordered_map<StringId, GpuActivityId> first_of_name;
  std::unordered_map<HostEventId, int64_t> ops;
  for (const PathSegment& s : critical_path_segments(g, timing)) {
    category_field(path.categories, s.category) += s.end_ns - s.start_ns;
    if (s.kind == EdgeKind::kGpuWork && s.activity != kNoId) {
      kernels[first_of_name.try_emplace(trace.gpu_activities[s.activity].name, s.activity)
                  .first->second] += s.weight_ns;
      if (!is_attention.empty() && is_attention[s.activity.index()])
        path.attention_ns += s.weight_ns;
    } else if (s.kind == EdgeKind::kThread && s.host != kNoId) {
      const HostEventId op = innermost_op(trace, s.host);
      if (op != kNoId) ops[op] += s.weight_ns;
    }
  }
  std::map<std::string, int64_t> by_kernel, by_op;
  for (const auto& [id, ns] : kernels) by_kernel[gpu_work_name(trace, id, kernel_names)] += ns;
  for (const auto& [op, ns] : ops)
    by_op[std::string(trace.strings.view(trace.host_events[op].name))] += ns;
  add_top(by_kernel, CriticalPathItemKind::kKernel, path.top);
  add_top(by_op, CriticalPathItemKind::kOp, path.top);
  return path;
}

}  // namespace attnprof
