#pragma once
// Builds the links of a freshly read trace (docs/PRACTICES.md, typed tables: links live in their
// own columns):
// - host_parent: op nesting per thread (a stack over events sorted by start, longest first);
// - activity_launch: GPU activity -> the runtime/driver call with the same correlation id
//   (all kernels of one cudaGraphLaunch share its id);
// - activity_op: GPU activity -> the innermost cpu_op above its launch, or by "External id"
//   where the launch is missing; for a CUDA graph replay's activities, the op of the launch
//   recorded while capturing the graph (reader/graph_replays.h);
// - activity_attribution: how that op was found.
// Oddities (activities without launches, unpaired flows, ...) become diagnostics.

#include <cstddef>

#include "model/trace.h"

namespace attnprof {

// On up to `workers` threads, the calling one included; 0 is one per core (base/parallel_tasks.h).
void link_trace(Trace& trace, size_t workers = 0);

}  // namespace attnprof
