#include "analysis/critical_path/dependency_graph.h"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "analysis/kernels/kernel_names.h"
#include "attnprof/region_facts.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// The calls that return only once the GPU work they wait for is done. cudaMemcpy waits for the
// copy it makes (and any work before it on the legacy stream).
bool is_blocking_call_name(std::string_view name) {
  for (std::string_view n :
       {"cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize", "cudaMemcpy",
        "cudaMemcpy2D", "cuCtxSynchronize", "cuStreamSynchronize", "cuEventSynchronize",
        "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventSynchronize", "hipMemcpy"})
    if (name == n) return true;
  return false;
}

PathCategory category_of_class(uint8_t kernel_class, GpuKind kind) {
  if (kind != GpuKind::kKernel) return PathCategory::kMemory;
  return static_cast<KernelClass>(kernel_class) == KernelClass::kCommunication
             ? PathCategory::kCommunication
             : PathCategory::kCompute;
}

int64_t stream_key(int32_t device, int32_t stream) {
  return static_cast<int64_t>(device) << 32 | static_cast<uint32_t>(stream);
}

// A region's work by when it was launched, to answer "the last work launched on a stream before
// a time" (what an event recorded, what a stream synchronization waits for) and "the work
// launched before a time that ends last" (what a device synchronization waits for).
class LaunchOrder {
 public:
  LaunchOrder(const Trace& trace, const std::vector<GpuActivityId>& activities) : trace_(trace) {
    for (GpuActivityId id : activities) {
      const HostEventId launch = trace.activity_launch[id];
      if (launch == kNoId) continue;
      const GpuActivity& a = trace.gpu_activities[id];
      all_.push_back({trace.host_events[launch].start_ns, stream_key(a.device, a.stream), id});
    }
    std::stable_sort(all_.begin(), all_.end(), [](const Launched& x, const Launched& y) {
      return x.launch_ns < y.launch_ns;
    });
    latest_end_.resize(all_.size());
    for (size_t i = 0; i < all_.size(); ++i) {
      latest_end_[i] = all_[i].id;
      if (i > 0 && end_of(latest_end_[i - 1]) > end_of(all_[i].id))
        latest_end_[i] = latest_end_[i - 1];
    }
    by_stream_ = all_;
    std::stable_sort(by_stream_.begin(), by_stream_.end(),
                     [](const Launched& x, const Launched& y) { return x.stream < y.stream; });
  }

  // The work launched before `t` that ends last; kNoId for none.
  GpuActivityId latest_end_before(int64_t t) const {
    const auto it = std::lower_bound(all_.begin(), all_.end(), t,
                                     [](const Launched& x, int64_t v) { return x.launch_ns < v; });
    return it == all_.begin() ? GpuActivityId() : latest_end_[it - all_.begin() - 1];
  }
  // The last work launched on (device, stream) before `t`; kNoId for none.
  GpuActivityId last_before(int32_t device, int32_t stream, int64_t t) const {
    const auto [first, last] = stream_range(device, stream);
    const auto it = std::lower_bound(first, last, t,
                                     [](const Launched& x, int64_t v) { return x.launch_ns < v; });
    return it == first ? GpuActivityId() : std::prev(it)->id;
  }
  // The first work launched on (device, stream) after `t`; kNoId for none.
  GpuActivityId first_after(int32_t device, int32_t stream, int64_t t) const {
    const auto [first, last] = stream_range(device, stream);
    const auto it = std::upper_bound(first, last, t,
                                     [](int64_t v, const Launched& x) { return v < x.launch_ns; });
    return it == last ? GpuActivityId() : it->id;
  }

 private:
  struct Launched {
    int64_t launch_ns = 0;
    int64_t stream = 0;
    GpuActivityId id;
  };
  int64_t end_of(GpuActivityId id) const { return trace_.gpu_activities[id].end_ns(); }
  std::pair<std::vector<Launched>::const_iterator, std::vector<Launched>::const_iterator>
  stream_range(int32_t device, int32_t stream) const {
    const int64_t key = stream_key(device, stream);
    const auto first = std::lower_bound(by_stream_.begin(), by_stream_.end(), key,
                                        [](const Launched& x, int64_t k) { return x.stream < k; });
    const auto last = std::upper_bound(first, by_stream_.end(), key,
                                       [](int64_t k, const Launched& x) { return k < x.stream; });
    return {first, last};
  }

  const Trace& trace_;
  std::vector<Launched> all_;              // by launch time
  std::vector<GpuActivityId> latest_end_;  // per prefix of all_
  std::vector<Launched> by_stream_;        // by stream, then launch time
};

}  // namespace

TraceGraphIndex::TraceGraphIndex(const Trace& trace) {
  const auto& hosts = trace.host_events;
  for (size_t i = 0; i < hosts.size(); ++i) {
    const HostEvent& e = hosts[HostEventId(i)];
    if (threads.empty() || threads.back().pid != e.pid || threads.back().tid != e.tid)
      threads.push_back({e.pid, e.tid, i, i});
    threads.back().end = i + 1;
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) &&
        e.correlation != kNoValue &&
        trace.strings.view(e.name).find("EventRecord") != std::string_view::npos)
      records.emplace_back(e.correlation, HostEventId(i));
  }
  std::sort(records.begin(), records.end());
  previous_on_stream.assign(trace.gpu_activities.size(), kNoId);
  std::unordered_map<int64_t, GpuActivityId> last;
  for (size_t i = 0; i < trace.gpu_activities.size(); ++i) {
    const GpuActivity& a = trace.gpu_activities[GpuActivityId(i)];
    if (!is_gpu_work(a.kind)) continue;
    auto [it, added] = last.try_emplace(stream_key(a.device, a.stream), GpuActivityId(i));
    if (!added) {
      previous_on_stream[i] = it->second;
      it->second = GpuActivityId(i);
    }
  }
}

DependencyGraphBuilder::DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs)
    : DependencyGraphBuilder(trace, inputs, std::make_unique<TraceGraphIndex>(trace)) {}

DependencyGraphBuilder::DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs,
                                               std::unique_ptr<TraceGraphIndex> own_index)
    : trace_(trace), inputs_(inputs), own_index_(std::move(own_index)), index_(*own_index_) {
  allocate_scratch();
}

DependencyGraphBuilder::DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs,
                                               const TraceGraphIndex& index)
    : trace_(trace), inputs_(inputs), index_(index) {
  allocate_scratch();
}

void DependencyGraphBuilder::allocate_scratch() {
  const size_t hosts = trace_.host_events.size(), activities = trace_.gpu_activities.size();
  call_kinds_.assign(trace_.strings.size(), static_cast<uint8_t>(CallKind::kUnknown));
  host_start_.assign(hosts, -1);
  host_end_.assign(hosts, -1);
  blocking_.assign(hosts, 0);
  gpu_start_.assign(activities, -1);
  gpu_end_.assign(activities, -1);
}

DependencyGraphBuilder::CallKind DependencyGraphBuilder::call_kind(const HostEvent& e) {
  uint8_t& k = call_kinds_[e.name];
  if (k == static_cast<uint8_t>(CallKind::kUnknown))
    k = static_cast<uint8_t>(is_blocking_call_name(trace_.strings.view(e.name))
                                 ? CallKind::kBlocking
                                 : CallKind::kOther);
  return static_cast<CallKind>(k);
}

uint32_t DependencyGraphBuilder::add_node(DependencyGraph& g, int64_t t) {
  g.time_ns.push_back(t);
  return static_cast<uint32_t>(g.time_ns.size() - 1);
}

namespace {

// blocking_'s bits: the call waits on the GPU; the GPU work it waits for is known already.
constexpr uint8_t kWaits = 1, kWaitKnown = 2;

}  // namespace

DependencyGraph DependencyGraphBuilder::build(const Region& region, const MemberSet& members) {
  DependencyGraph g;
  g.start = add_node(g, region.start_ns);
  g.end = add_node(g, region.end_ns);
  const auto& hosts = trace_.host_events;
  const auto& gpu = trace_.gpu_activities;
  const LaunchOrder launches(trace_, members.activities);
  auto touch_host = [&](HostEventId id) { touched_hosts_.push_back(id); };

  // What each waiting call waits for, before the threads are walked: a call's category and the
  // weight of its end depend on it.
  std::vector<std::pair<GpuActivityId, HostEventId>> host_waits;
  std::vector<std::pair<GpuActivityId, GpuActivityId>> stream_waits;
  for (GpuActivityId id : members.activities) {
    const HostEventId call = trace_.activity_launch[id];
    if (call == kNoId) continue;
    const HostEvent& c = hosts[call];
    const int64_t end = gpu[id].end_ns();
    // A copy to the host returns once it is done (pageable memory); other calls that outlast
    // their work (a launch of a short kernel on an idle GPU) did not wait for it.
    if (gpu[id].kind == GpuKind::kMemcpy && end > c.start_ns && end <= c.end_ns() &&
        memcpy_kind(trace_.strings.view(gpu[id].name)) == "DtoH") {
      blocking_[call.index()] = kWaits | kWaitKnown;
      touch_host(call);
      host_waits.emplace_back(id, call);
    }
  }
  auto record_call = [&](int64_t correlation) -> HostEventId {
    const auto& records = index_.records;
    const auto it = std::lower_bound(records.begin(), records.end(),
                                     std::pair<int64_t, HostEventId>(correlation, HostEventId(0)));
    return it != records.end() && it->first == correlation ? it->second : HostEventId();
  };
  for (GpuActivityId sync : members.syncs) {
    const GpuActivity& y = gpu[sync];
    const HostEventId call = trace_.activity_launch[sync];
    if (call == kNoId) continue;
    const int64_t call_start = hosts[call].start_ns;
    const std::string_view kind = trace_.strings.view(y.name);
    const bool stream_wait = kind == "Stream Wait Event";
    // What the event waited on was recorded after: the last work of the recording stream launched
    // before the cudaEventRecord call.
    GpuActivityId source = kNoId;
    if (stream_wait || kind == "Event Sync") {
      if (y.waited_record == kNoValue) continue;
      const HostEventId record = record_call(y.waited_record);
      if (record == kNoId) {
        ++g.waits_without_record;
        continue;
      }
      source = launches.last_before(y.device, y.waited_stream, hosts[record].start_ns);
    } else if (kind == "Stream Sync") {
      source = launches.last_before(y.device, y.stream, call_start);
    } else if (kind == "Context Sync") {
      source = launches.latest_end_before(call_start);
    } else {
      continue;
    }
    if (stream_wait) {
      const GpuActivityId next = launches.first_after(y.device, y.stream, call_start);
      if (source != kNoId && next != kNoId) stream_waits.emplace_back(source, next);
      continue;
    }
    blocking_[call.index()] = kWaits | kWaitKnown;
    touch_host(call);
    if (source != kNoId) host_waits.emplace_back(source, call);
  }

  // Each thread of the region's process (the index's threads are sorted by process): its events
  // that start inside the region, in order.
  const auto& threads = index_.threads;
  auto threads_begin = threads.begin();
  auto threads_end = threads.end();
  if (!region.any_process) {
    threads_begin = std::lower_bound(threads.begin(), threads.end(), region.pid,
                                     [](const ThreadRange& t, int32_t pid) { return t.pid < pid; });
    threads_end = std::upper_bound(threads_begin, threads.end(), region.pid,
                                   [](int32_t pid, const ThreadRange& t) { return pid < t.pid; });
  }
  for (auto it = threads_begin; it != threads_end; ++it) {
    const ThreadRange& t = *it;
    if (t.tid == kCopiedOpsTid) continue;
    const auto first =
        std::lower_bound(hosts.begin() + static_cast<std::ptrdiff_t>(t.begin),
                         hosts.begin() + static_cast<std::ptrdiff_t>(t.end), region.start_ns,
                         [](const HostEvent& e, int64_t v) { return e.start_ns < v; });
    const auto last =
        std::lower_bound(first, hosts.begin() + static_cast<std::ptrdiff_t>(t.end), region.end_ns,
                         [](const HostEvent& e, int64_t v) { return e.start_ns < v; });
    if (first == last) continue;
    ThreadRange inside = t;
    inside.begin = static_cast<size_t>(first - hosts.begin());
    inside.end = static_cast<size_t>(last - hosts.begin());
    // A call that waits by its name alone (no cuda_sync event says on what) waits for the work
    // launched before it that ends last.
    for (size_t i = inside.begin; i < inside.end; ++i) {
      const HostEvent& e = hosts[HostEventId(i)];
      if ((e.kind != HostKind::kRuntime && e.kind != HostKind::kDriver) ||
          (blocking_[i] & kWaitKnown) || call_kind(e) != CallKind::kBlocking)
        continue;
      blocking_[i] = kWaits;
      touch_host(HostEventId(i));
      const GpuActivityId source = launches.latest_end_before(e.start_ns);
      if (source != kNoId) host_waits.emplace_back(source, HostEventId(i));
    }
    add_thread(g, inside, region);
  }

  // The GPU work, in start order: each after its launch and its stream's previous work.
  struct StreamLast {
    int64_t key;
    GpuActivityId id;
  };
  std::vector<StreamLast> stream_last;
  for (GpuActivityId id : members.activities) {
    const GpuActivity& a = gpu[id];
    const uint32_t s = add_node(g, a.start_ns);
    const uint32_t e = add_node(g, a.end_ns());
    gpu_start_[id.index()] = static_cast<int32_t>(s);
    gpu_end_[id.index()] = static_cast<int32_t>(e);
    touched_activities_.push_back(id);
    const uint32_t rules = inputs_.activity_rules.empty() ? 0 : inputs_.activity_rules[id.index()];
    g.edges.push_back({s, e, a.dur_ns, EdgeKind::kGpuWork,
                       category_of_class((*inputs_.class_of)[id.index()], a.kind), id, kNoId,
                       rules});
    bool preceded = false;
    const HostEventId launch = trace_.activity_launch[id];
    if (launch != kNoId && host_start_[launch.index()] >= 0) {
      g.edges.push_back({static_cast<uint32_t>(host_start_[launch.index()]), s, 0,
                         EdgeKind::kLaunch, PathCategory::kLaunchOverhead, kNoId, launch});
      preceded = true;
    }
    const GpuActivityId previous = index_.previous_on_stream[id.index()];
    if (previous != kNoId) {
      const GpuActivity& p = gpu[previous];
      if (gpu_end_[previous.index()] < 0 && p.end_ns() > region.start_ns) {
        // Work of an earlier region still running at the start: its time inside this region.
        const uint32_t pe = add_node(g, p.end_ns());
        gpu_end_[previous.index()] = static_cast<int32_t>(pe);
        touched_activities_.push_back(previous);
        g.edges.push_back(
            {g.start, pe, p.end_ns() - region.start_ns, EdgeKind::kGpuWork,
             category_of_class((*inputs_.class_of)[previous.index()], p.kind), previous, kNoId,
             inputs_.activity_rules.empty() ? 0 : inputs_.activity_rules[previous.index()]});
      }
      if (gpu_end_[previous.index()] >= 0) {
        g.edges.push_back({static_cast<uint32_t>(gpu_end_[previous.index()]), s, 0,
                           EdgeKind::kStreamOrder, PathCategory::kKernelGap});
        preceded = true;
      }
    }
    if (!preceded) g.edges.push_back({g.start, s, 0, EdgeKind::kRegion, PathCategory::kKernelGap});
    const int64_t key = stream_key(a.device, a.stream);
    auto it = std::find_if(stream_last.begin(), stream_last.end(),
                           [&](const StreamLast& l) { return l.key == key; });
    if (it == stream_last.end())
      stream_last.push_back({key, id});
    else
      it->id = id;
  }
  for (const auto& [source, next] : stream_waits)
    if (gpu_end_[source.index()] >= 0 && gpu_start_[next.index()] >= 0)
      g.edges.push_back({static_cast<uint32_t>(gpu_end_[source.index()]),
                         static_cast<uint32_t>(gpu_start_[next.index()]), 0, EdgeKind::kStreamWait,
                         PathCategory::kKernelGap});
  for (const auto& [source, call] : host_waits)
    if (gpu_end_[source.index()] >= 0 && host_end_[call.index()] >= 0)
      g.edges.push_back({static_cast<uint32_t>(gpu_end_[source.index()]),
                         static_cast<uint32_t>(host_end_[call.index()]), 0, EdgeKind::kHostWait,
                         PathCategory::kSync, kNoId, call});
  // The region ends after its streams' last work that ends inside it.
  for (const StreamLast& l : stream_last) {
    const int32_t node = gpu_end_[l.id.index()];
    if (g.time_ns[static_cast<size_t>(node)] <= region.end_ns)
      g.edges.push_back(
          {static_cast<uint32_t>(node), g.end, 0, EdgeKind::kRegion, PathCategory::kKernelGap});
  }

  for (HostEventId id : touched_hosts_) {
    host_start_[id.index()] = host_end_[id.index()] = -1;
    blocking_[id.index()] = 0;
  }
  for (GpuActivityId id : touched_activities_) gpu_start_[id.index()] = gpu_end_[id.index()] = -1;
  touched_hosts_.clear();
  touched_activities_.clear();
  return g;
}

void DependencyGraphBuilder::add_thread(DependencyGraph& g, const ThreadRange& t,
                                        const Region& region) {
  struct Open {
    HostEventId id;
    int64_t end_ns;
    PathCategory category;
    uint32_t rules;
  };
  std::vector<Open> open;
  uint32_t previous = g.start;
  auto step = [&](int64_t time, bool waited) {
    const uint32_t node = add_node(g, time);
    const int64_t gap = time - g.time_ns[previous];
    GraphEdge edge{previous, node, waited ? 0 : std::max<int64_t>(gap, 0), EdgeKind::kThread};
    if (!open.empty()) {
      edge.category = open.back().category;
      edge.host = open.back().id;
      edge.rules = open.back().rules;
    }
    g.edges.push_back(edge);
    previous = node;
    return node;
  };
  auto close = [&] {
    const Open o = open.back();
    const bool waited = blocking_[o.id.index()] & kWaits;
    host_end_[o.id.index()] = static_cast<int32_t>(step(o.end_ns, waited));
    touched_hosts_.push_back(o.id);
    open.pop_back();
  };
  const auto& hosts = trace_.host_events;
  for (size_t i = t.begin; i < t.end; ++i) {
    const HostEvent& e = hosts[HostEventId(i)];
    const bool call = e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver;
    if (!call && e.kind != HostKind::kCpuOp && e.kind != HostKind::kUserAnnotation) continue;
    while (!open.empty() && open.back().end_ns <= e.start_ns) close();
    host_start_[i] = static_cast<int32_t>(step(e.start_ns, false));
    touched_hosts_.push_back(HostEventId(i));
    const PathCategory category = !call                     ? PathCategory::kCpu
                                  : (blocking_[i] & kWaits) ? PathCategory::kSync
                                                            : PathCategory::kLaunchOverhead;
    uint32_t rules = open.empty() ? 0 : open.back().rules;
    if (!inputs_.host_rules.empty()) rules |= inputs_.host_rules[i];
    open.push_back({HostEventId(i), std::min(e.end_ns(), region.end_ns), category, rules});
  }
  while (!open.empty()) close();
  g.edges.push_back({previous, g.end, 0, EdgeKind::kRegion, PathCategory::kCpu});
}

}  // namespace attnprof
