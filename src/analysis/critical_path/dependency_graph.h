#pragma once
// The dependency graph of one region (docs/CRITICAL_PATH.md, "The graph"): nodes are the starts
// and ends of CPU ops, annotations, runtime and driver calls, kernels, copies and memsets; each
// edge says that its end could not happen before its start plus its weight. The edges:
// - thread: the next start or end on the same CPU thread (op nesting and program order), weighted
//   by the time between them, which the innermost open event spent (none for the time a blocking
//   call waited: that is the host-wait edge's);
// - GPU work: a kernel's, copy's or memset's start to its end, weighted by its duration;
// - launch: the runtime call's start to its GPU work's start (a graph replay's kernels all hang
//   off their cudaGraphLaunch);
// - stream order: the previous work of the stream's end to the next one's start;
// - stream wait: the work a cudaEventRecord followed to the first work its cudaStreamWaitEvent's
//   stream runs after the wait (cuda_sync "Stream Wait Event");
// - host wait: GPU work's end to the end of the call that waited on it (cudaDeviceSynchronize,
//   cudaStreamSynchronize, cudaEventSynchronize, a copy to the host that blocks);
// - region: the region's start to each thread's first node and to GPU work nothing else precedes,
//   and the threads' and streams' last nodes to the region's end.
// Built in one pass over the region's members and its threads' events.

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "analysis/regions/regions.h"
#include "model/trace.h"

namespace attnprof {

// Where a stretch of the path's time goes (attnprof/critical_path.h's categories).
enum class PathCategory : uint8_t {
  kCpu,
  kLaunchOverhead,
  kSync,
  kCompute,
  kCommunication,
  kMemory,
  kKernelGap,
};

enum class EdgeKind : uint8_t {
  kThread,
  kGpuWork,
  kLaunch,
  kStreamOrder,
  kStreamWait,
  kHostWait,
  kRegion,
};

struct GraphEdge {
  uint32_t from = 0, to = 0;
  int64_t weight_ns = 0;  // as recorded
  EdgeKind kind = EdgeKind::kThread;
  // The category of its weight, and of the time its end waited beyond it when it is the edge
  // its end waited for last.
  PathCategory category = PathCategory::kCpu;
  // The event the edge's time belongs to: the GPU work (kGpuWork), the innermost event open on
  // the thread (kThread; none between top-level events), the launching call (kLaunch) or the
  // waiting call (kHostWait). kNoId otherwise.
  GpuActivityId activity = kNoId;
  HostEventId host = kNoId;
  // The what-if rules (by index, at most 32) that select the weight's time.
  uint32_t rules = 0;
};

struct DependencyGraph {
  std::vector<int64_t> time_ns;  // each node's time, as recorded
  std::vector<GraphEdge> edges;
  uint32_t start = 0, end = 0;  // the region's start and end nodes
  int64_t waits_without_record = 0;
};

// The GPU activity classes, and for each what-if rule the activities and host events it selects,
// all indexed by the trace's ids. Empty selections: no what-if.
struct GraphInputs {
  const std::vector<uint8_t>* class_of = nullptr;  // KernelClass per activity (summarize.cpp)
  std::vector<uint32_t> activity_rules;            // per activity: the rules that select it
  std::vector<uint32_t> host_rules;                // per host event: the cpu: rules it matches
};

// What every region's graph reads of the trace, found once and read by every builder (the steps'
// graphs are built on several threads): each thread's range of host events, the cudaEventRecord
// calls by correlation id, and each GPU activity's predecessor on its stream.
struct TraceGraphIndex {
  struct ThreadRange {
    int32_t pid = 0, tid = 0;
    size_t begin = 0, end = 0;  // in host_events
  };
  std::vector<ThreadRange> threads;                      // sorted by pid, tid
  std::vector<std::pair<int64_t, HostEventId>> records;  // sorted by correlation id
  std::vector<GpuActivityId> previous_on_stream;         // per activity: the stream's previous work

  explicit TraceGraphIndex(const Trace& trace);
};

// What building a region's graph keeps between regions: the trace's index (its own, or one shared
// with other builders) and node indices by id, reset after each region.
class DependencyGraphBuilder {
 public:
  DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs);
  // With an index that outlives the builder.
  DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs,
                         const TraceGraphIndex& index);

  DependencyGraph build(const Region& region, const MemberSet& members);

 private:
  using ThreadRange = TraceGraphIndex::ThreadRange;
  DependencyGraphBuilder(const Trace& trace, const GraphInputs& inputs,
                         std::unique_ptr<TraceGraphIndex> own_index);
  void allocate_scratch();
  enum class CallKind : uint8_t { kUnknown, kBlocking, kOther };

  CallKind call_kind(const HostEvent& e);
  void add_thread(DependencyGraph& g, const ThreadRange& t, const Region& region);
  uint32_t add_node(DependencyGraph& g, int64_t t);

  const Trace& trace_;
  const GraphInputs& inputs_;
  std::unique_ptr<TraceGraphIndex> own_index_;  // when none was given
  const TraceGraphIndex& index_;
  std::vector<uint8_t> call_kinds_;             // CallKind per name id
  std::vector<int32_t> host_start_, host_end_;  // node per host event, -1: none
  std::vector<int32_t> gpu_start_, gpu_end_;    // node per activity, -1: none
  std::vector<uint8_t> blocking_;               // per host event: waits on the GPU here
  std::vector<HostEventId> touched_hosts_;
  std::vector<GpuActivityId> touched_activities_;
};

}  // namespace attnprof
