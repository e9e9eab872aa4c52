#include "analysis/memory_events.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "model/sorted_runs.h"

namespace attnprof {

MemoryEvents::MemoryEvents(const Trace& trace, Diagnostics& diagnostics) : trace_(trace) {
  const auto& instants = trace.instants;
  std::vector<uint32_t> cuda;
  for (size_t i = 0; i < instants.size(); ++i) {
    const InstantEvent& e = instants[i];
    if (!e.memory || e.device_type != kMemoryDeviceCuda) continue;
    if (e.total_allocated < 0 || e.total_reserved < 0) {
      diagnostics.add(
          DiagnosticKind::kNegativeMemoryTotal, 0,
          diagnostics.count(DiagnosticKind::kNegativeMemoryTotal) < Diagnostics::kKeptPerKind
              ? fmt::format("[memory] event of device {} at {:.3f} µs has \"Total Allocated\" {} "
                            "and \"Total Reserved\" {}: left out",
                            e.device, static_cast<double>(e.ts_ns) / 1e3, e.total_allocated,
                            e.total_reserved)
              : std::string());
      continue;
    }
    if (is_cuda_memory_event(e)) cuda.push_back(static_cast<uint32_t>(i));
  }
  if (cuda.empty()) return;
  by_thread_ = cuda;
  stable_sort_runs(by_thread_.begin(), by_thread_.end(), [&](uint32_t a, uint32_t b) {
    return std::tuple(instants[a].pid, instants[a].tid, instants[a].ts_ns) <
           std::tuple(instants[b].pid, instants[b].tid, instants[b].ts_ns);
  });
  std::vector<uint32_t> by_device = cuda;
  stable_sort_runs(by_device.begin(), by_device.end(), [&](uint32_t a, uint32_t b) {
    return std::tuple(instants[a].pid, instants[a].device, instants[a].ts_ns) <
           std::tuple(instants[b].pid, instants[b].device, instants[b].ts_ns);
  });
  for (uint32_t i : by_device) {
    const InstantEvent& e = instants[i];
    if (streams_.empty() || streams_.back().pid != e.pid || streams_.back().device != e.device)
      streams_.push_back({e.pid, e.device, {}});
    streams_.back().events.push_back(i);
  }
}

std::span<const uint32_t> MemoryEvents::in_span(const Stream& stream, int64_t start_ns,
                                                int64_t end_ns) const {
  const auto& instants = trace_.instants;
  auto first = std::lower_bound(stream.events.begin(), stream.events.end(), start_ns,
                                [&](uint32_t i, int64_t t) { return instants[i].ts_ns < t; });
  auto last = std::upper_bound(first, stream.events.end(), end_ns,
                               [&](int64_t t, uint32_t i) { return t < instants[i].ts_ns; });
  return {first, last};
}

std::span<const uint32_t> MemoryEvents::on_thread(int32_t pid, int32_t tid, int64_t start_ns,
                                                  int64_t end_ns) const {
  const auto& instants = trace_.instants;
  auto key = [&](uint32_t i) {
    return std::tuple(instants[i].pid, instants[i].tid, instants[i].ts_ns);
  };
  auto first =
      std::lower_bound(by_thread_.begin(), by_thread_.end(), std::tuple(pid, tid, start_ns),
                       [&](uint32_t i, const auto& k) { return key(i) < k; });
  auto last = std::upper_bound(first, by_thread_.end(), std::tuple(pid, tid, end_ns),
                               [&](const auto& k, uint32_t i) { return k < key(i); });
  return {first, last};
}

}  // namespace attnprof
