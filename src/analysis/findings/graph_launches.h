#pragma once
// What each region's CUDA graph replays cost the CPU, and what launching their work one kernel at
// a time would have cost (docs/CUDA_GRAPHS.md, "Findings"). A replay is one launch call
// (cudaGraphLaunch) that runs every node of the graph, so the launch-bound rule judges a region
// of replays by its graph launches, not by its kernel count, and the graph-replay rule compares
// the replays' CPU time with the launches they replaced.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/findings/finding_context.h"

namespace attnprof {

// The median CPU time of a kernel launch call (cudaLaunchKernel, cuLaunchKernelEx, ...) made one
// by one on the H200, for a trace that has too few of its own: 7.5 µs over the 212 kernel
// launches of tests/data/models/llama-decode-sdpa.json.gz (graph_findings_test.cpp measures it
// again).
inline constexpr int64_t kTypicalLaunchNs = 7'500;

// Fewer kernel launches made one by one than this, and the trace's own median is not the price
// of a launch: the two launches of naive-graph-capture.json.gz are the generator's graph state
// (aten::fill_, 78 µs each, the first launches of the process).
inline constexpr size_t kMinLaunchesMeasured = 5;

struct RegionGraphLaunches {
  int64_t graph_launches = 0;  // graph launch calls whose work the region holds
  int64_t graph_launch_cpu_ns = 0;
  int64_t replayed = 0;        // the GPU activities those replays ran
  int64_t launched_alone = 0;  // the region's other GPU activities, each with its own launch
  // The launches the replays replaced: the captured launches of each replay's graph where the
  // capture is in the trace (replays_with_capture of them), else one per replayed activity.
  int64_t replaced_launches = 0;
  int64_t replays_with_capture = 0;
};

struct GraphLaunches {
  // By member set (FindingContext::set_of): regions that hold the same work share their launches.
  std::vector<RegionGraphLaunches> sets;
  // By region: a cudaStreamBeginCapture of the region's process starts in its span.
  std::vector<bool> captures;
  // What one launch made alone costs the CPU: the median of the trace's own kernel launch calls
  // outside any graph (launches_measured of them), or kTypicalLaunchNs where it has fewer than
  // kMinLaunchesMeasured.
  int64_t launch_ns = kTypicalLaunchNs;
  int64_t launches_measured = 0;
};

GraphLaunches find_graph_launches(const FindingContext& c);

}  // namespace attnprof
