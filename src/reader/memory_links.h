#pragma once
// Links each [memory] event (profile_memory=True) to what holds its allocation: the innermost
// cpu_op, or user annotation other than a ProfilerStep#N, that encloses it on its thread, and the
// innermost nn.Module around it (Trace::instant_op, Trace::instant_module). One sweep per thread
// over its host events (in table order: by thread, then start, the longest first) and its memory
// events sorted by time, with a stack as the op nesting has: linear in both.

#include "model/trace.h"

namespace attnprof {

void link_memory_events(Trace& trace);

}  // namespace attnprof
