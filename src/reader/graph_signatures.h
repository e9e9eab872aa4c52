#pragma once
// Attribution by signature (docs/CUDA_GRAPHS.md, "Attribution"): a trace that holds a graph's
// replays alone takes its ops from a capture trace given apart (`analyze --graph-capture`). The
// capture's launches ran nothing and carry no kernel names, so what can be matched are the
// capture trace's own replays, whose ops graph_replays.cpp found by capture order: a replay of
// the trace whose activities have, in order, the same kinds and names as the replays of exactly
// one graph of the capture trace takes that graph's ops, activity by activity. Two graphs of
// the capture trace with the same names and different ops match nothing (ambiguous); a replay
// that matches no graph stays unknown. Never a guess.

#include <cstdint>
#include <string>
#include <vector>

#include "attnprof/result.h"
#include "model/trace.h"

namespace attnprof {

// An op of the capture trace, above a replayed activity: copied into the replay trace.
struct SignatureOp {
  std::string name;
  int64_t start_ns = 0, dur_ns = 0;  // on the capture trace's clock
  int32_t parent = -1;               // index into GraphSignatures::ops; -1 at the top
  // Its recorded inputs (Trace::op_input_texts), so that the copy's costs and attention shapes
  // are the captured op's; "" where none were recorded.
  std::string inputs;
};

// One graph of the capture trace: the kinds and names of a replay's activities, in start order,
// and the innermost op of each.
struct GraphSignature {
  std::string key;
  std::vector<int32_t> ops;  // per activity: index into GraphSignatures::ops; -1 for none
  bool ambiguous = false;    // another graph has the same key and other ops
};

struct GraphSignatures {
  std::string path;  // the capture trace, for messages
  std::vector<SignatureOp> ops;
  std::vector<GraphSignature> graphs;
  int64_t replays_read = 0;  // replays of the capture trace paired with their capture
};

// The graphs of a linked capture trace. Fails with one line naming it when it holds no replay
// paired with its capture: then there is nothing to match against.
Result<GraphSignatures> graph_signatures(const Trace& capture);

// Gives each graph replay of `trace` whose activities are unknown the ops of the one graph of
// `signatures` that has its signature (attribution "signature"): the ops are copied onto the
// thread kCopiedOpsTid, before the trace's first event. Returns how many replays matched.
int64_t attribute_by_signature(Trace& trace, const GraphSignatures& signatures);

}  // namespace attnprof
