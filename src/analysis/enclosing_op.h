#pragma once
// The op or annotation an op runs under, past the Python frames between them (with_stack gives
// each op a frame of its own): what the attention calls and the attention ops group by.

#include "model/trace.h"

namespace attnprof {

inline HostEventId enclosing_op(const Trace& t, HostEventId op) {
  HostEventId p = t.host_parent[op];
  while (p != kNoId && t.host_events[p].kind != HostKind::kCpuOp &&
         t.host_events[p].kind != HostKind::kUserAnnotation)
    p = t.host_parent[p];
  return p;
}

}  // namespace attnprof
