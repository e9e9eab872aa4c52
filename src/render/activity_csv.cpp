#include "render/activity_csv.h"

#include <string>

namespace attnprof {

const std::vector<std::string_view>& activity_csv_header() {
  static const std::vector<std::string_view> header{"kind",
                                                    "short_name",
                                                    "name",
                                                    "launch_api",
                                                    "op_chain",
                                                    "attribution",
                                                    "memcpy_kind",
                                                    "grid_x",
                                                    "grid_y",
                                                    "grid_z",
                                                    "block_x",
                                                    "block_y",
                                                    "block_z",
                                                    "registers_per_thread",
                                                    "shared_memory_bytes",
                                                    "occupancy_pct",
                                                    "occupancy_limiter",
                                                    "kineto_occupancy_pct",
                                                    "bytes",
                                                    "stream",
                                                    "start_us",
                                                    "duration_us"};
  return header;
}

void activity_csv_fields(CsvWriter& csv, const ActivityRow& a) {
  const bool kernel = a.kind == ActivityKind::kKernel;
  csv.text(kernel ? "kernel" : a.kind == ActivityKind::kMemcpy ? "memcpy" : "memset");
  csv.text(a.short_name).text(a.name).text(a.launch_api);
  std::string chain;
  for (const auto& op : a.op_chain) {
    if (!chain.empty()) chain += kOpChainSeparator;
    chain += op;
  }
  csv.text(chain).text(attribution_name(a.attribution)).text(a.memcpy_kind);
  // Copies have no launch configuration, and a trace may not give a kernel's: empty fields, not
  // zeros or -1, so that pandas reads NaN (docs/METRICS.md, "Unknown values").
  auto known = [&csv](int64_t v) -> CsvWriter& { return v < 0 ? csv.empty() : csv.number(v); };
  for (const auto* dims : {&a.grid, &a.block})
    for (int32_t v : *dims) kernel ? known(v) : csv.empty();
  if (kernel) {
    known(a.registers_per_thread);
    known(a.shared_memory_bytes);
    csv.number(a.occupancy_pct).text(a.occupancy_limiter).number(a.kineto_occupancy_pct);
    csv.empty();
  } else {
    csv.empty().empty().empty().empty().empty();
    known(a.bytes);
  }
  csv.number(int64_t{a.stream});
  csv.number(a.start_ns / 1000.0).number(a.duration_ns / 1000.0);
}

}  // namespace attnprof
