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
  // Copies have no launch configuration: empty fields, not zeros, so that pandas reads NaN.
  for (const auto* dims : {&a.grid, &a.block})
    for (int32_t v : *dims) kernel ? csv.number(int64_t{v}) : csv.empty();
  if (kernel) {
    csv.number(int64_t{a.registers_per_thread}).number(a.shared_memory_bytes);
    csv.number(a.occupancy_pct).text(a.occupancy_limiter).number(a.kineto_occupancy_pct);
    csv.empty();
  } else {
    csv.empty().empty().empty().empty().empty();
    csv.number(a.bytes);
  }
  csv.number(int64_t{a.stream});
  csv.number(a.start_ns / 1000.0).number(a.duration_ns / 1000.0);
}

}  // namespace attnprof
