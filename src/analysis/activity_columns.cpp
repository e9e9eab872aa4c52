#include "analysis/activity_columns.h"

#include <array>

namespace attnprof {

namespace {

using T = ActivityColumnType;

bool is_kernel(const ActivityRow& a) {
  return a.kind == ActivityKind::kKernel;
}

// The core writes -1 where the trace gives no value; that is unknown, never a number.
std::optional<double> known(int64_t v) {
  if (v < 0) return std::nullopt;
  return static_cast<double>(v);
}

// A kernel's launch configuration: unknown for copies and memsets, which have none.
std::optional<double> of_kernel(const ActivityRow& a, int64_t v) {
  if (!is_kernel(a)) return std::nullopt;
  return known(v);
}

constexpr std::array<ActivityColumn, 22> kColumns = {{
    {"kind", T::kText,
     [](const ActivityRow& a, std::string&) { return activity_kind_name(a.kind); }, nullptr},
    {"short_name", T::kText,
     [](const ActivityRow& a, std::string&) { return std::string_view(a.short_name); }, nullptr},
    {"name", T::kText, [](const ActivityRow& a, std::string&) { return std::string_view(a.name); },
     nullptr},
    {"launch_api", T::kText,
     [](const ActivityRow& a, std::string&) { return std::string_view(a.launch_api); }, nullptr},
    {"op_chain", T::kText,
     [](const ActivityRow& a, std::string& chain) {
       chain.clear();  // one buffer for every row's chain: no allocation per row
       for (const auto& op : a.op_chain) {
         if (!chain.empty()) chain += kOpChainSeparator;
         chain += op;
       }
       return std::string_view(chain);
     },
     nullptr},
    {"attribution", T::kText,
     [](const ActivityRow& a, std::string&) { return attribution_name(a.attribution); }, nullptr},
    {"memcpy_kind", T::kText,
     [](const ActivityRow& a, std::string&) { return std::string_view(a.memcpy_kind); }, nullptr},
    {"grid_x", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.grid[0]); }},
    {"grid_y", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.grid[1]); }},
    {"grid_z", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.grid[2]); }},
    {"block_x", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.block[0]); }},
    {"block_y", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.block[1]); }},
    {"block_z", T::kNumber, nullptr, [](const ActivityRow& a) { return of_kernel(a, a.block[2]); }},
    {"registers_per_thread", T::kNumber, nullptr,
     [](const ActivityRow& a) { return of_kernel(a, a.registers_per_thread); }},
    {"shared_memory_bytes", T::kNumber, nullptr,
     [](const ActivityRow& a) { return of_kernel(a, a.shared_memory_bytes); }},
    {"occupancy_pct", T::kNumber, nullptr,
     [](const ActivityRow& a) { return is_kernel(a) ? a.occupancy_pct : std::nullopt; }},
    {"occupancy_limiter", T::kText,
     [](const ActivityRow& a, std::string&) {
       return is_kernel(a) ? std::string_view(a.occupancy_limiter) : std::string_view();
     },
     nullptr},
    {"kineto_occupancy_pct", T::kNumber, nullptr,
     [](const ActivityRow& a) { return is_kernel(a) ? a.kineto_occupancy_pct : std::nullopt; }},
    {"bytes", T::kNumber, nullptr,
     [](const ActivityRow& a) { return is_kernel(a) ? std::nullopt : known(a.bytes); }},
    {"stream", T::kInteger, nullptr,
     [](const ActivityRow& a) { return std::optional<double>(a.stream); }},
    {"start_us", T::kNumber, nullptr,
     [](const ActivityRow& a) { return std::optional<double>(a.start_ns / 1000.0); }},
    {"duration_us", T::kNumber, nullptr,
     [](const ActivityRow& a) { return std::optional<double>(a.duration_ns / 1000.0); }},
}};

}  // namespace

std::span<const ActivityColumn> activity_columns() {
  return kColumns;
}

}  // namespace attnprof
