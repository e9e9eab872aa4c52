#include "render/breakdown_words.h"

#include <fmt/format.h>

#include "base/format_units.h"

namespace attnprof {

std::string breakdown_line(const TimeBreakdown& b, std::string_view separator) {
  auto share = [&](int64_t ns) {
    return b.span_ns > 0
               ? format_percent(100.0 * static_cast<double>(ns) / static_cast<double>(b.span_ns))
               : std::string("-");
  };
  // Two lines, so that the text fits 120 columns whatever the durations.
  std::string line = fmt::format("GPU time of the trace: span {} = busy {} + idle {} ({} idle)",
                                 format_duration(b.span_ns), format_duration(b.busy_ns),
                                 format_duration(b.idle_ns), share(b.idle_ns));
  line += fmt::format("{}busy = compute {} + communication {} + memory {}", separator,
                      format_duration(b.compute_ns), format_duration(b.communication_ns),
                      format_duration(b.memory_ns));
  if (auto pct = b.communication_overlap_pct())
    line += fmt::format("; communication overlaps compute {}", format_percent(*pct));
  return line;
}

std::string idle_causes_line(const std::vector<StreamIdle>& streams, const std::string& name) {
  const StreamIdle* main = nullptr;
  for (const StreamIdle& s : streams)
    if (!main || s.busy_ns > main->busy_ns) main = &s;
  if (!main || main->idle_ns() == 0) return {};
  return fmt::format(
      "idle of stream {} (the most work) in {}: host wait {}, kernel gap {}, other {}",
      main->stream, name, format_duration(main->host_wait_ns), format_duration(main->kernel_gap_ns),
      format_duration(main->other_ns));
}

}  // namespace attnprof
