#pragma once
// Gives the activities of each CUDA graph replay the ops that launched them while the graph was
// captured (docs/CUDA_GRAPHS.md, "Attribution"): Kineto writes no graph or node id, so a replay's
// n-th activity on its stream is paired with the n-th launch recorded between
// cudaStreamBeginCapture and cudaStreamEndCapture, when the sequence of kinds (kernel, memset,
// memcpy) and its length match exactly one capture of the process. Fills
// trace.activity_attribution, and activity_op for the activities it pairs; needs
// activity_launch, activity_op and host_parent (link_trace).

#include "model/trace.h"

namespace attnprof {

void attribute_graph_replays(Trace& trace);

}  // namespace attnprof
