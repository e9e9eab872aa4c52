#include "model/trace_memory.h"

namespace attnprof {

namespace {

template <typename T>
size_t reserved(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}

}  // namespace

size_t trace_memory_bytes(const Trace& trace) {
  return trace.strings.memory_bytes() + reserved(trace.host_events) +
         reserved(trace.gpu_activities) + reserved(trace.instants) + reserved(trace.flows) +
         reserved(trace.thread_names) + reserved(trace.devices) + reserved(trace.host_parent) +
         reserved(trace.activity_launch) + reserved(trace.activity_op) +
         reserved(trace.activity_attribution) + trace.op_input_texts.memory_bytes();
}

}  // namespace attnprof
