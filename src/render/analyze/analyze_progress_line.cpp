#include "render/analyze/analyze_progress_line.h"

#include <fmt/format.h>

#include "render/display_text.h"

namespace attnprof {

namespace {

// Carriage return, then clear to the end of the line (ECMA-48 EL).
constexpr const char* kClearLine = "\r\033[K";

// "1.2/4.5 GB": both in the unit of the total, so the two read at a glance.
std::string bytes_done_of(uint64_t done, uint64_t total) {
  const double reference = static_cast<double>(total > 0 ? total : done);
  const auto [divisor, unit] = reference >= 1e9   ? std::pair{1e9, "GB"}
                               : reference >= 1e6 ? std::pair{1e6, "MB"}
                                                  : std::pair{1e3, "kB"};
  if (total == 0) return fmt::format("{:.1f} {}", done / divisor, unit);
  return fmt::format("{:.1f}/{:.1f} {} ({}%)", done / divisor, total / divisor, unit,
                     done >= total ? 100 : done * 100 / total);
}

std::string bytes_rate(double per_second) {
  if (per_second >= 1e9) return fmt::format("{:.2f} GB/s", per_second / 1e9);
  if (per_second >= 100e6) return fmt::format("{:.0f} MB/s", per_second / 1e6);
  return fmt::format("{:.1f} MB/s", per_second / 1e6);
}

std::string events_rate(double per_second) {
  if (per_second >= 1e6) return fmt::format("{:.1f} M events/s", per_second / 1e6);
  if (per_second >= 100e3) return fmt::format("{:.0f} k events/s", per_second / 1e3);
  if (per_second >= 1e3) return fmt::format("{:.1f} k events/s", per_second / 1e3);
  return fmt::format("{:.0f} events/s", per_second);
}

}  // namespace

std::string format_progress_line(const ReadingTally& t, double seconds) {
  std::string what = t.traces == 1 ? clip(t.single_name, 40)
                                   : fmt::format("{}/{} traces", t.traces_done, t.traces);
  if (t.traces_failed > 0) what += fmt::format(" ({} failed)", t.traces_failed);
  const double s = seconds > 0 ? seconds : 0;
  return fmt::format("reading {}  {}  {}  {}", what, bytes_done_of(t.bytes_read, t.bytes_total),
                     bytes_rate(s > 0 ? t.bytes_read / s : 0),
                     events_rate(s > 0 ? t.events_read / s : 0));
}

std::string ProgressLine::frame(const ReadingTally& tally, double seconds, size_t columns) {
  if (seconds < kFirstDrawSeconds) return {};
  std::string line = format_progress_line(tally, seconds);
  if (columns > 1 && line.size() > columns - 1) line.resize(columns - 1);
  drawn_ = true;
  return kClearLine + line;
}

std::string ProgressLine::erase() {
  if (!drawn_) return {};
  drawn_ = false;
  return kClearLine;
}

}  // namespace attnprof
