#include "base/format_units.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

namespace attnprof {

std::string format_us(double ns) {
  return fmt::format("{:.1f}", ns / 1000.0);
}

std::string format_duration(double ns) {
  const double us = ns / 1e3;
  if (us < 1000) return fmt::format("{:.1f} µs", us);
  if (us < 1e6) return fmt::format("{:.2f} ms", us / 1e3);
  return fmt::format("{:.2f} s", us / 1e6);
}

DurationUnit common_duration_unit(const std::vector<double>& ns) {
  if (ns.empty()) return DurationUnit::kMicroseconds;
  const double smallest = *std::min_element(ns.begin(), ns.end());
  return smallest >= 1e6 ? DurationUnit::kMilliseconds : DurationUnit::kMicroseconds;
}

std::string_view unit_symbol(DurationUnit unit) {
  return unit == DurationUnit::kMilliseconds ? "ms" : "µs";
}

std::string format_duration_in(double ns, DurationUnit unit) {
  return unit == DurationUnit::kMilliseconds ? fmt::format("{:.2f}", ns / 1e6) : format_us(ns);
}

std::string format_tick_duration(double ns) {
  if (ns == 0) return "0";
  const double us = ns / 1e3;
  if (us < 1000) return fmt::format("{:g} µs", us);
  if (us < 1e6) return fmt::format("{:g} ms", us / 1e3);
  return fmt::format("{:g} s", us / 1e6);
}

std::string format_tick_bytes(double bytes) {
  static constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  size_t unit = 0;
  while (bytes >= 1024 && unit + 1 < kUnits.size()) {
    bytes /= 1024;
    ++unit;
  }
  return fmt::format("{:g} {}", bytes, kUnits[unit]);
}

std::string format_percent(double percent) {
  return fmt::format("{:.1f} %", percent);
}

std::string format_error(double relative_error) {
  if (std::isnan(relative_error)) return "nan";
  return fmt::format("{:.1e}", relative_error);
}

std::string format_count(double v) {
  if (std::fabs(v - std::round(v)) < 1e-9)
    return fmt::format("{}", static_cast<int64_t>(std::round(v)));
  return fmt::format("{:.1f}", v);
}

std::string format_bytes(int64_t bytes) {
  double b = static_cast<double>(bytes);
  if (std::fabs(b) >= 1 << 30) return fmt::format("{:.1f} GiB", b / (1 << 30));
  if (std::fabs(b) >= 1 << 20) return fmt::format("{:.1f} MiB", b / (1 << 20));
  if (std::fabs(b) >= 1 << 10) return fmt::format("{:.1f} KiB", b / (1 << 10));
  return fmt::format("{} B", bytes);
}

std::string format_size(int64_t bytes) {
  return bytes < 0 ? "-" : format_bytes(bytes);
}

std::string format_known_count(int64_t count) {
  return count < 0 ? "-" : fmt::format("{}", count);
}

std::string format_dim3(const std::array<int32_t, 3>& d) {
  if (d[0] < 0 || d[1] < 0 || d[2] < 0) return "-";
  return fmt::format("[{},{},{}]", d[0], d[1], d[2]);
}

}  // namespace attnprof
