#include "render/fact_cells.h"

#include <fmt/format.h>

#include "base/format_units.h"

namespace attnprof {

std::string kernels_cell(const RegionFacts& f) {
  return format_count(f.kernels.median);
}

std::string main_kernel_cell(const RegionFacts& f) {
  return f.main_kernel && !f.main_kernel->short_name.empty() ? f.main_kernel->short_name : kNoCell;
}

std::string memcpy_cell(const RegionFacts& f) {
  std::string kinds;
  for (const auto& [kind, count] : f.memcpy_by_kind) {
    if (count.median <= 0) continue;
    kinds += kinds.empty() ? kind : ", " + kind;
  }
  return format_count(f.memcpy.median) + (kinds.empty() ? "" : " (" + kinds + ")");
}

std::string occupancy_cell(const RegionFacts& f) {
  if (!f.main_kernel) return "n/a";
  const MainKernel& k = *f.main_kernel;
  if (k.occupancy_pct) return fmt::format("{:.0f} %", *k.occupancy_pct);
  if (k.kineto_occupancy_pct) return fmt::format("{:.0f} % (Kineto)", *k.kineto_occupancy_pct);
  return "n/a";
}

std::string launch_api_cell(const RegionFacts& f) {
  return f.main_kernel && !f.main_kernel->launch_api.empty() ? f.main_kernel->launch_api : kNoCell;
}

std::string cpu_time_cell(const RegionFacts& f) {
  return format_duration(f.cpu_ns.median);
}

}  // namespace attnprof
