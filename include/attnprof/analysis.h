#pragma once
// The public entry point of the core: read a trace, find its regions, summarize them.
// Everything here is plain data; renderers (text, JSON, Markdown) only format it.

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/attention_calls.h"
#include "attnprof/attribution.h"
#include "attnprof/collectives.h"
#include "attnprof/critical_path.h"
#include "attnprof/diagnostics.h"
#include "attnprof/findings.h"
#include "attnprof/launch_queue.h"
#include "attnprof/limits.h"
#include "attnprof/region_facts.h"
#include "attnprof/region_memory.h"
#include "attnprof/result.h"
#include "attnprof/time_breakdown.h"
#include "attnprof/top_tables.h"

namespace attnprof {

enum class ActivityKind : uint8_t { kKernel, kMemcpy, kMemset };

// The kind's one name, in every output: "kernel", "memcpy", "memset".
constexpr std::string_view activity_kind_name(ActivityKind kind) {
  switch (kind) {
    case ActivityKind::kKernel:
      return "kernel";
    case ActivityKind::kMemcpy:
      return "memcpy";
    case ActivityKind::kMemset:
      return "memset";
  }
  return "";
}

// One GPU activity of a region, in the order it ran on the GPU.
struct ActivityRow {
  ActivityKind kind = ActivityKind::kKernel;
  std::string short_name;  // demangled, template arguments and parameters folded
  std::string name;        // as the trace gives it
  std::string
      launch_api;  // cudaLaunchKernel, cuLaunchKernelEx, cudaMemcpyAsync, cudaGraphLaunch, ...
  std::vector<std::string>
      op_chain;  // outermost op first, e.g. aten::masked_fill, aten::clone, aten::copy_
  // How op_chain was found: its own launch, or, in a CUDA graph replay, the capture's launch.
  Attribution attribution = Attribution::kLaunch;
  std::string memcpy_kind;  // DtoD, HtoD, DtoH, ... for memcpy; empty otherwise
  // Each -1 where the trace does not give it (a grid or block then has -1 in all three).
  std::array<int32_t, 3> grid{-1, -1, -1};
  std::array<int32_t, 3> block{-1, -1, -1};
  int32_t registers_per_thread = -1;
  int64_t shared_memory_bytes = -1;
  // Kineto's own "est. achieved occupancy %" (absent for copies; 0 where Kineto could not tell,
  // as for cuLaunchKernelEx launches).
  std::optional<double> kineto_occupancy_pct;
  // attnprof's estimate from registers, shared memory, block size, grid and the device's limits.
  std::optional<double> occupancy_pct;
  // What limits blocks per SM in that estimate: "registers", "shared memory", "threads", "blocks",
  // "grid".
  std::string occupancy_limiter;
  int64_t bytes = -1;    // memcpy and memset; -1 where the trace does not give it
  int64_t start_ns = 0;  // from the region's start
  int64_t duration_ns = 0;
  int32_t stream = 0;
};

struct RegionSummary {
  std::string name;
  int32_t pid = 0;          // the process whose annotation it is (0 for the whole trace)
  int64_t start_ns = 0;     // trace clock
  int64_t wall_ns = 0;      // the annotation's duration on the CPU
  int64_t cpu_ns = 0;       // time in top-level CPU ops of the region, all threads of the process
  int64_t gpu_busy_ns = 0;  // union of the region's GPU activity intervals
  int64_t kernels = 0;
  int64_t memcpy = 0;
  std::map<std::string, int64_t> memcpy_by_kind;  // "DtoD" -> 1
  int64_t memset = 0;
  // Synchronizations on the GPU timeline that the trace records (cuda_sync, MTIA's event waits
  // and records), placed by the call that asked for them: waits, not work.
  int64_t gpu_syncs = 0;
  TimeBreakdown breakdown;                 // compute, communication, memory and idle over its span
  std::vector<StreamIdle> idle_by_stream;  // each stream's idle time by cause, by stream number
  // The starts of its communication kernels (trace clock, in order): the cross-rank comparison
  // matches the n-th of each rank (include/attnprof/cross_trace.h).
  std::vector<int64_t> communication_starts_ns;
  // Its collectives by name, with their bytes and bandwidths (attnprof/collectives.h), the
  // most GPU time first; empty without communication kernels.
  std::vector<CollectiveTotals> collectives;
  // Its collectives one by one, in start order: its communication kernels, or where it has none
  // the collectives its CPU ran (gloo:, nccl: ops); and what held its path after the last of them,
  // up to its end (as CollectiveVisit::held_by).
  std::vector<CollectiveVisit> collective_visits;
  std::string held_after_collectives;
  LaunchDelays launch_delays;       // launch call to GPU start, over its activities
  std::vector<StreamQueue> queues;  // launches queued per stream, by stream number
  // Its kernels, copies and memsets by how their op was found (indexed by Attribution).
  std::array<int64_t, kAttributionCount> by_attribution{};
  std::vector<ActivityRow> activities;  // in GPU start order (see AnalyzeOptions)
  // Totals per kernel, op and nn.Module (attnprof/top_tables.h), complete.
  RegionTables tables;
  // Its attention calls and their GPU time (attnprof/attention_calls.h).
  AttentionCalls attention;
  // Its memory per CUDA device, by device id (attnprof/region_memory.h); empty for a trace
  // without [memory] events.
  std::vector<RegionMemory> memory;
  // The longest chain of dependent work from its start to its end (attnprof/critical_path.h).
  CriticalPath critical_path;
  // Its path timed again with AnalyzeOptions::what_if applied; absent without rules.
  std::optional<WhatIf> what_if;
};

// A device as the trace describes it; -1 and "" where it does not say.
struct DeviceSummary {
  int32_t id = 0;
  std::string name;
  std::string vendor;     // "nvidia", "amd", or "" when the properties do not tell
  int32_t sm_count = -1;  // NVIDIA's SMs, AMD's compute units
  int32_t compute_major = -1, compute_minor = -1;
  std::string arch;  // "sm_90"; AMD's gcnArchName ("gfx90a"); "" when unknown
  // What the trace says of it, in its vendor's words: "132 SMs, sm_90", "104 compute units,
  // gfx90a"; "unknown" for each property it does not give.
  std::string description;
};

// The trace's GPU work (kernels, copies, memsets) that no region holds. Regions are the
// annotations matched; the whole trace, as a region, holds all of it.
struct WorkOutsideRegions {
  int64_t trace_activities = 0;  // the trace's GPU work, all of it
  int64_t activities = 0;        // in no region
  int64_t busy_ns = 0;           // union of their GPU intervals
  // Of those, work launched before the profiler's window opened: its correlation ids name no
  // call of the trace and are below every call it recorded. Kineto keeps GPU work that runs inside
  // the window but drops the launches made before it.
  int64_t carried_in = 0;
  int64_t carried_in_busy_ns = 0;
  std::vector<std::string> carried_in_overlaps;  // the regions whose span its GPU time overlaps
};

// A marker `attnprof annotate` wrote into the trace, read back (an instant named "attnprof: ...").
struct TraceMarker {
  std::string name;   // "hidden-copy", "typical region", "hidden copy"
  int64_t ts_ns = 0;  // trace clock
};

// The user annotations (record_function) of a trace by name, numbered names (ProfilerStep#3)
// counted under their pattern (ProfilerStep#*), which --region accepts.
struct AnnotationCount {
  std::string name;
  int64_t count = 0;
};

struct TraceAnalysis {
  std::string path;
  uint64_t json_bytes = 0;          // decompressed
  uint64_t events = 0;              // elements of traceEvents
  std::string distributed_backend;  // empty when the trace has no distributedInfo
  // From distributedInfo; -1 where it does not say (never guessed).
  int32_t rank = -1, world_size = -1;
  std::string region_pattern;  // what regions were matched against, "" for the whole trace
  // When the default fell back to the whole trace: the annotations --region could pick instead,
  // the most frequent first (README.md, `attnprof analyze`); empty otherwise.
  std::vector<AnnotationCount> annotations;
  std::vector<DeviceSummary> devices;
  std::vector<RegionSummary> regions;
  // The processes the regions come from, when more than one: each region then names its pid.
  std::vector<int32_t> region_pids;
  WorkOutsideRegions outside_regions;
  // The time breakdown of all the trace's GPU work, in regions or not (every device together).
  TimeBreakdown breakdown;
  // Each stream's idle time by cause over all the trace's GPU work, by stream number (HTA's
  // idle time breakdown is of the whole trace).
  std::vector<StreamIdle> idle_by_stream;
  // The collectives of all the trace's GPU work, in regions or not, and the link they read
  // against (attnprof/collectives.h).
  std::vector<CollectiveTotals> collectives;
  GpuLink link;
  // Index into regions of the typical one (closest to the medians); -1 when there are none.
  int typical_region = -1;
  // Medians over the regions, per kernel class, and the typical region's main kernel.
  RegionFacts facts;
  // The typical region's attention calls with their median GPU time over the regions.
  MedianAttentionCalls attention;
  // Filled when AnalyzeOptions::explain is set.
  std::vector<Finding> findings;
  // The markers of a trace annotated by `attnprof annotate`, in trace order; empty otherwise.
  std::vector<TraceMarker> markers;
  Diagnostics diagnostics;
};

// The activities of one region (an index into TraceAnalysis::regions), listed as the typical
// region's are. Valid only during the call it is passed to: it reads the trace's model.
using RegionActivities = std::function<std::vector<ActivityRow>(size_t region)>;
// The top tables of one region, made on request (as RegionActivities, and valid as long).
using RegionTablesOf = std::function<RegionTables(size_t region)>;

struct AnalyzeOptions {
  // Regions are user annotations whose name matches this glob (`*` and `?`). Empty: ProfilerStep#*
  // when the trace has such annotations, else the whole trace as one region.
  std::string region_pattern;
  // Activities are listed for the typical region only unless this is set (the facts, per-class
  // totals included, are over every region either way).
  bool activities_of_every_region = false;
  // Top tables (RegionSummary::tables) for every region; else for the typical region only, as
  // analyze's text shows them (a trace of many regions then holds one region's tables).
  bool tables_of_every_region = true;
  // Attention calls (RegionSummary::attention) for every region; else for the typical region
  // only, with TraceAnalysis::attention, their median, made over every region either way. Regions
  // that hold the same work share their calls while they are made, so without this many
  // overlapping steps around many attention kernels cost their calls once, not once a region.
  bool attention_of_every_region = true;
  // The ops table has a row per op name and input shapes (key_averages(group_by_input_shape=
  // True)) instead of per name: `analyze --group-by shape`.
  bool ops_by_shape = false;
  // Compute findings (what the trace means) as well.
  bool explain = false;
  // Scale the selected work's durations and time each region's critical path again
  // (RegionSummary::what_if; docs/CRITICAL_PATH.md). Empty: no what-if.
  std::vector<WhatIfRule> what_if;
  // A trace that holds the capture of the CUDA graphs this one replays, and replays after it:
  // replays that the trace cannot pair with a capture of its own take their ops from it, matched
  // by their kernel names (attribution "signature", docs/CUDA_GRAPHS.md). Empty: none.
  std::string graph_capture;
  Limits limits;
  // Threads that read and parse the trace, the calling one included: 0 for one per core (at most
  // 8). analyze_files sets it when it reads several traces at once, so that together they keep
  // to the cores.
  size_t reading_workers = 0;
  // Called as the file is read, with the bytes of the file consumed so far (compressed, for gzip)
  // and the events read so far.
  std::function<void(uint64_t file_bytes_read, uint64_t events_read)> progress;
  // With activities_of_every_region: each region's activities, handed over as they are made
  // instead of kept in its RegionSummary (whose `activities` then stay empty, but for the typical
  // region's). It runs on the thread that analyzes the trace, beside the findings when they are
  // made, so that an output turning rows into its own form (the Python module's columns) does
  // that work meanwhile. `analysis` has all but its findings, markers and per-class facts yet.
  std::function<void(const TraceAnalysis& analysis, size_t region,
                     std::vector<ActivityRow>&& activities)>
      take_activities;
  // Called once the analysis is made, while the trace's model is still in memory: an output can
  // then list every region's activities one region at a time instead of holding all of them, as
  // activities_of_every_region does (analyze --format json, docs/PERFORMANCE.md).
  // `tables` makes any region's top tables, for an output that writes them one region at a time
  // without tables_of_every_region.
  std::function<void(const TraceAnalysis& analysis, const RegionActivities& activities,
                     const RegionTablesOf& tables)>
      analyzed;
};

// Reads the trace at `path` (.json or .json.gz, detected by content) and summarizes its regions.
// Fails with one line naming the file (and the byte offset for JSON errors) when the file cannot
// be read, is not JSON, is truncated, or is not a trace; and when `options.region_pattern` is
// given and matches no region (the message lists the annotation names the trace has). `path` "-"
// reads standard input.
Result<TraceAnalysis> analyze_file(const std::string& path, const AnalyzeOptions& options);

struct ManyTracesOptions {
  // Traces read at once; 0 for one per two cores. Each reads with cores / jobs threads (at least
  // one) unless AnalyzeOptions::reading_workers says otherwise.
  size_t jobs = 0;
  // Called from the reading threads, several at once: make them thread-safe. `trace` indexes
  // the paths. AnalyzeOptions::progress is not used by analyze_files.
  std::function<void(size_t trace, uint64_t file_bytes_read, uint64_t events_read)> progress;
  std::function<void(size_t trace, const Result<TraceAnalysis>& outcome)> finished;
  // As AnalyzeOptions::take_activities (which analyze_files then does not use), with the trace's
  // index: called from the reading threads, several traces at once, each trace's regions in order.
  // A trace handed over may still fail after (a --region pattern that matched nothing).
  std::function<void(size_t trace, const TraceAnalysis& analysis, size_t region,
                     std::vector<ActivityRow>&& activities)>
      take_activities;
  // As AnalyzeOptions::analyzed (which analyze_files does not use), but one trace at a time and
  // in the order of the paths: a trace read early waits, holding its model, for those before it.
  // A trace that fails is skipped.
  std::function<void(size_t trace, const TraceAnalysis& analysis,
                     const RegionActivities& activities, const RegionTablesOf& tables)>
      analyzed_in_order;
};

// Analyzes each trace of `paths` as analyze_file does, `jobs` at a time, and returns the outcomes
// in the order of `paths`. A trace's model is dropped as soon as its analysis is made, so memory
// holds about `jobs` models at once however many traces there are. A trace that fails (its Error
// names its file) does not stop the others.
std::vector<Result<TraceAnalysis>> analyze_files(const std::vector<std::string>& paths,
                                                 const AnalyzeOptions& options,
                                                 const ManyTracesOptions& many);

}  // namespace attnprof
