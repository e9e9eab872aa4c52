#include "render/json_activity.h"

namespace attnprof {

void write_activity_fields(JsonWriter& w, const ActivityRow& a) {
  w.key("kind").string(activity_kind_name(a.kind));
  w.key("short_name").string(a.short_name);
  w.key("name").string(a.name);
  w.key("launch_api").string(a.launch_api);
  w.key("op_chain").begin_array();
  for (const auto& op : a.op_chain) w.string(op);
  w.end_array();
  w.key("attribution").string(attribution_name(a.attribution));
  if (a.kind == ActivityKind::kMemcpy) w.key("memcpy_kind").string(a.memcpy_kind);
  // What the trace does not give is null, never 0.
  auto known = [&](int64_t v) -> JsonWriter& { return v < 0 ? w.null() : w.number(v); };
  auto dim3 = [&](const std::array<int32_t, 3>& d) {
    if (d[0] < 0 || d[1] < 0 || d[2] < 0) return void(w.null());
    w.begin_array();
    for (int v : d) w.number(v);
    w.end_array();
  };
  if (a.kind == ActivityKind::kKernel) {
    w.key("grid");
    dim3(a.grid);
    w.key("block");
    dim3(a.block);
    w.key("registers_per_thread");
    known(a.registers_per_thread);
    w.key("shared_memory_bytes");
    known(a.shared_memory_bytes);
    w.key("occupancy_pct");
    if (a.occupancy_pct)
      w.number(*a.occupancy_pct);
    else
      w.null();
    w.key("occupancy_limiter").string(a.occupancy_limiter);
    w.key("kineto_occupancy_pct");
    if (a.kineto_occupancy_pct)
      w.number(*a.kineto_occupancy_pct);
    else
      w.null();
  } else {
    w.key("bytes");
    known(a.bytes);
  }
  w.key("stream").number(a.stream);
}

}  // namespace attnprof
