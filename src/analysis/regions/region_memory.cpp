#include "analysis/regions/region_memory.h"

#include <algorithm>
#include <set>
#include <unordered_map>

#include <fmt/format.h>

#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// A region's peak on one stream, whose holders the replay fills.
struct PeakQuery {
  size_t position;  // of the peak event in the stream
  size_t region;
  size_t slot;  // in that region's list
};

std::string_view op_name(const Trace& trace, HostEventId id) {
  return id == kNoId ? std::string_view() : trace.strings.view(trace.host_events[id].name);
}

std::string module_name(const Trace& trace, HostEventId id) {
  std::string_view name = op_name(trace, id);
  if (name.starts_with(kineto::kModuleEventPrefix))
    name.remove_prefix(kineto::kModuleEventPrefix.size());
  return std::string(name);
}

// The live blocks of one stream as its events are replayed in order, summed by the name of the
// op that allocated them.
class LiveBlocks {
 public:
  explicit LiveBlocks(const Trace& trace) : trace_(trace) {}

  // False for a free of a block that is not live.
  bool apply(uint32_t event) {
    const InstantEvent& e = trace_.instants[event];
    if (e.bytes > 0) {
      if (auto old = blocks_.find(e.address); old != blocks_.end()) release(old->second);
      const HostEventId op = trace_.instant_op[event];
      const StringId holder = op == kNoId ? StringPool::kEmpty : trace_.host_events[op].name;
      blocks_[e.address] = {e.bytes, holder};
      Sum& sum = by_holder_[holder];
      sum.bytes += e.bytes;
      ++sum.blocks;
      live_bytes_ += e.bytes;
      return true;
    }
    if (e.bytes == 0) return true;
    auto block = blocks_.find(e.address);
    if (block == blocks_.end()) return false;
    release(block->second);
    blocks_.erase(block);
    return true;
  }

  // The holders now, the most bytes first, and the bytes of every live block.
  std::vector<MemoryHolder> holders(size_t top) const {
    std::vector<MemoryHolder> out;
    for (const auto& [holder, sum] : by_holder_)
      if (sum.bytes > 0)
        out.push_back({std::string(trace_.strings.view(holder)), sum.bytes, sum.blocks});
    std::sort(out.begin(), out.end(), [](const MemoryHolder& a, const MemoryHolder& b) {
      return a.bytes != b.bytes ? a.bytes > b.bytes : a.op < b.op;
    });
    if (out.size() > top) out.resize(top);
    return out;
  }
  int64_t live_bytes() const { return live_bytes_; }

 private:
  struct Block {
    int64_t bytes;
    StringId holder;
  };
  struct Sum {
    int64_t bytes = 0, blocks = 0;
  };
  void release(const Block& b) {
    Sum& sum = by_holder_[b.holder];
    sum.bytes -= b.bytes;
    --sum.blocks;
    live_bytes_ -= b.bytes;
  }

  const Trace& trace_;
  std::unordered_map<uint64_t, Block> blocks_;
  std::unordered_map<StringId, Sum> by_holder_;
  int64_t live_bytes_ = 0;
};

RegionMemory memory_of(const Trace& trace, const Region& region, int32_t device,
                       std::span<const uint32_t> span, size_t& peak_in_span) {
  const auto& instants = trace.instants;
  RegionMemory m;
  m.device = device;
  m.events = static_cast<int64_t>(span.size());
  m.at_start_bytes = instants[span.front()].total_allocated;
  m.at_end_bytes = instants[span.back()].total_allocated;
  m.peak_allocated_bytes = -1;
  m.samples.reserve(span.size());
  for (size_t i = 0; i < span.size(); ++i) {
    const InstantEvent& e = instants[span[i]];
    if (e.total_allocated > m.peak_allocated_bytes) {
      m.peak_allocated_bytes = e.total_allocated;
      peak_in_span = i;
    }
    m.peak_reserved_bytes = std::max(m.peak_reserved_bytes, e.total_reserved);
    m.samples.push_back({e.ts_ns - region.start_ns, e.total_allocated});
  }
  const uint32_t peak = span[peak_in_span];
  m.peak_at_ns = instants[peak].ts_ns - region.start_ns;
  m.peak_op = std::string(op_name(trace, trace.instant_op[peak]));
  m.peak_module = module_name(trace, trace.instant_module[peak]);
  return m;
}

void diagnose_devices_without_memory(const Trace& trace, const MemoryEvents& events,
                                     Diagnostics& diagnostics) {
  std::set<int32_t> with_memory, with_work;
  for (const MemoryEvents::Stream& s : events.streams()) with_memory.insert(s.device);
  for (const GpuActivity& a : trace.gpu_activities)
    if (is_gpu_work(a.kind)) with_work.insert(a.device);
  for (int32_t device : with_work)
    if (!with_memory.contains(device))
      diagnostics.add(DiagnosticKind::kDeviceWithoutMemory, 0,
                      fmt::format("device {} ran GPU work but has no [memory] event: no peak is "
                                  "given for it",
                                  device));
}

}  // namespace

std::vector<std::vector<RegionMemory>> region_memory(const Trace& trace, const RegionSet& set,
                                                     const MemoryEvents& events,
                                                     Diagnostics& diagnostics) {
  std::vector<std::vector<RegionMemory>> out(set.regions.size());
  if (events.empty()) return out;
  const auto& streams = events.streams();
  std::vector<std::vector<PeakQuery>> queries(streams.size());
  for (size_t r = 0; r < set.regions.size(); ++r) {
    const Region& region = set.regions[r];
    for (size_t s = 0; s < streams.size(); ++s) {
      const MemoryEvents::Stream& stream = streams[s];
      if (!region.any_process && stream.pid != region.pid) continue;
      const std::span<const uint32_t> span = events.in_span(stream, region.start_ns, region.end_ns);
      if (span.empty()) continue;
      size_t peak = 0;
      out[r].push_back(memory_of(trace, region, stream.device, span, peak));
      const auto position = static_cast<size_t>(span.data() - stream.events.data()) + peak;
      queries[s].push_back({position, r, out[r].size() - 1});
    }
  }
  // Each stream replayed once from the trace's start, the peaks' holders taken on the way.
  uint64_t unpaired = 0;
  for (size_t s = 0; s < streams.size(); ++s) {
    const MemoryEvents::Stream& stream = streams[s];
    std::vector<PeakQuery>& asked = queries[s];
    std::stable_sort(asked.begin(), asked.end(), [](const PeakQuery& a, const PeakQuery& b) {
      return a.position < b.position;
    });
    LiveBlocks live(trace);
    size_t q = 0;
    for (size_t i = 0; i < stream.events.size(); ++i) {
      if (!live.apply(stream.events[i])) {
        const InstantEvent& e = trace.instants[stream.events[i]];
        diagnostics.add(
            DiagnosticKind::kFreeWithoutAllocation, 0,
            unpaired++ < Diagnostics::kKeptPerKind
                ? fmt::format("device {}: free of {} bytes at address {:#x} ({:.3f} "
                              "µs), allocated before the trace or not recorded",
                              e.device, -e.bytes, e.address, static_cast<double>(e.ts_ns) / 1e3)
                : std::string());
      }
      for (; q < asked.size() && asked[q].position == i; ++q) {
        RegionMemory& m = out[asked[q].region][asked[q].slot];
        m.top_allocators = live.holders(kTopAllocators);
        m.allocated_before_trace_bytes =
            std::max<int64_t>(0, m.peak_allocated_bytes - live.live_bytes());
      }
    }
  }
  diagnose_devices_without_memory(trace, events, diagnostics);
  for (auto& list : out)
    std::stable_sort(list.begin(), list.end(), [](const RegionMemory& a, const RegionMemory& b) {
      return a.device < b.device;
    });
  return out;
}

}  // namespace attnprof
