#include "render/region_memory_json.h"

namespace attnprof {

namespace {

void optional_text(JsonWriter& w, std::string_view key, const std::string& v) {
  w.key(key);
  if (v.empty())
    w.null();
  else
    w.string(v);
}

}  // namespace

void write_region_memory_json(JsonWriter& w, const std::vector<RegionMemory>& memory) {
  w.key("memory").begin_array();
  for (const RegionMemory& m : memory) {
    w.begin_object();
    w.key("device").number(m.device);
    w.key("events").number(m.events);
    w.key("peak_allocated_bytes").number(m.peak_allocated_bytes);
    w.key("peak_at_us").number(m.peak_at_ns / 1000.0);
    optional_text(w, "peak_op", m.peak_op);
    optional_text(w, "peak_module", m.peak_module);
    w.key("at_start_bytes").number(m.at_start_bytes);
    w.key("at_end_bytes").number(m.at_end_bytes);
    w.key("peak_reserved_bytes").number(m.peak_reserved_bytes);
    w.key("allocated_before_trace_bytes").number(m.allocated_before_trace_bytes);
    w.key("top_allocators").begin_array();
    for (const MemoryHolder& h : m.top_allocators) {
      w.begin_object();
      optional_text(w, "op", h.op);
      w.key("bytes").number(h.bytes);
      w.key("allocations").number(h.allocations);
      w.end_object();
    }
    w.end_array();
    w.end_object();
  }
  w.end_array();
}

}  // namespace attnprof
