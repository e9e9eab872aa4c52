#pragma once
// How much memory a Trace holds: what the model costs, apart from the reader's buffers (which
// must not grow with the file). The benchmarks report it beside peak RSS.

#include <cstddef>

#include "model/trace.h"

namespace attnprof {

// Bytes reserved by the Trace's tables, links and strings (capacities, not sizes: what was
// allocated).
size_t trace_memory_bytes(const Trace& trace);

}  // namespace attnprof
