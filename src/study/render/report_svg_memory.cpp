// A device's allocated memory over a region as SVG, on the region timeline's time axis.

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "base/format_units.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

// The timeline's geometry (report_svg_timeline.cpp), so that a time is at the same x in both.
constexpr double kWidth = 1120;
constexpr double kGutter = 176;
constexpr double kRight = 14;
constexpr double kPlot = kWidth - kGutter - kRight;
constexpr double kTop = 26;  // room for the peak's label above the plot
constexpr double kHeight = 80;
constexpr double kBottom = 10;
constexpr double kFont = 10;

}  // namespace

std::string memory_chart(const RegionMemory& m, int64_t end_ns, const std::string& id,
                         const std::string& variant) {
  const double last = std::max<double>(static_cast<double>(end_ns), 1.0);
  const double end = last * 1.01;
  auto x = [&](double ns) { return kGutter + std::clamp(ns, 0.0, end) / end * kPlot; };
  const double top_bytes = std::max<double>(static_cast<double>(m.peak_allocated_bytes) * 1.1, 1.0);
  auto y = [&](double bytes) { return kTop + kHeight - bytes / top_bytes * kHeight; };
  const double total_height = kTop + kHeight + kBottom;

  std::string out;
  put(out,
      R"(<svg class="memory-chart" id="{}" data-variant="{}" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="allocated memory of {} on device {}">)",
      escape(id), escape(variant), num(kWidth), num(total_height), num(kWidth), escape(variant),
      m.device);
  put(out, R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#f8fafc"/>)", num(kGutter),
      num(kTop), num(kPlot), num(kHeight));
  put(out,
      R"(<text class="lane-label" x="8" y="{}" font-size="11" font-weight="600" fill="#334155">{}</text>)",
      num(kTop + 12), escape(fmt::format("device {} memory", m.device)));
  put(out,
      R"(<text class="lane-label" x="8" y="{}" font-size="10" fill="#64748b">allocated</text>)",
      num(kTop + 24));
  // Two y ticks: zero and the peak, on the gutter's right edge.
  for (double bytes : {0.0, static_cast<double>(m.peak_allocated_bytes)}) {
    put(out, R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e2e8f0"/>)", num(kGutter),
        num(y(bytes)), num(kGutter + kPlot));
    put(out, R"(<text x="{}" y="{}" font-size="{}" fill="#64748b" text-anchor="end">{}</text>)",
        num(kGutter - 4), num(bytes == 0 ? y(bytes) : y(bytes) + 8), num(kFont),
        escape(format_bytes(static_cast<int64_t>(bytes))));
  }
  for (double tick : linear_ticks(last, 8))
    put(out, R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/>)", num(x(tick)),
        num(kTop), num(kTop + kHeight));

  // The step line, one pixel column at a time: each column draws its lowest and highest value
  // and ends at its last, so that no peak falls between two points.
  if (!m.samples.empty()) {
    std::string path =
        fmt::format("M{},{}", num(x(0)), num(y(static_cast<double>(m.at_start_bytes))));
    double column = -1, low = 0, high = 0, at = 0;
    auto flush = [&] {
      if (column < 0) return;
      path += fmt::format(" H{} V{} V{} V{}", num(column), num(y(high)), num(y(low)), num(y(at)));
    };
    for (const MemorySample& s : m.samples) {
      const double sx = std::round(x(static_cast<double>(s.at_ns)) * 2) / 2;
      const double v = static_cast<double>(s.allocated_bytes);
      if (sx != column) {
        flush();
        column = sx;
        low = high = v;
      }
      low = std::min(low, v);
      high = std::max(high, v);
      at = v;
    }
    flush();
    path += fmt::format(" H{}", num(x(static_cast<double>(m.samples.back().at_ns))));
    put(out,
        R"(<path class="memory-line" d="{}" fill="none" stroke="#4f46e5" stroke-width="1.5"/>)",
        path);
  }

  // The peak: a marker, and its size and op above the plot, on the side with room.
  const double px = x(static_cast<double>(m.peak_at_ns));
  const double py = y(static_cast<double>(m.peak_allocated_bytes));
  const std::string where = m.peak_op.empty() ? std::string("outside every op") : m.peak_op;
  put(out,
      R"(<circle class="memory-peak" cx="{}" cy="{}" r="3.5" fill="#dc2626"><title>peak {} at {} in {}{}</title></circle>)",
      num(px), num(py), escape(format_bytes(m.peak_allocated_bytes)),
      escape(format_duration(static_cast<double>(m.peak_at_ns))), escape(where),
      escape(m.peak_module.empty() ? std::string() : " (module " + m.peak_module + ")"));
  const std::string label =
      fmt::format("peak {} in {}", format_bytes(m.peak_allocated_bytes), where);
  const bool left = px > kGutter + kPlot * 0.6;
  const double room = left ? px - kGutter : kGutter + kPlot - px;
  put(out,
      R"(<text class="memory-peak-label" x="{}" y="{}" font-size="{}" fill="#991b1b" text-anchor="{}">{}</text>)",
      num(px), num(kTop - 8), num(kFont), left ? "end" : "start",
      escape(fit_width(label, room, kFont)));
  out += "</svg>";
  return out;
}

}  // namespace attnprof::svg
