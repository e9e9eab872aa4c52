// Where each variant's (or rank's) GPU time goes: one bar per row, its span cut into compute,
// communication, memory and idle (docs/BREAKDOWN.md), with the communication overlap beside it.

#include <string>
#include <vector>

#include "base/format_units.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 1120;
constexpr double kGutter = 170;  // row names
constexpr double kPlot = 700;
constexpr double kLegend = 30;
constexpr double kRow = 26;
constexpr double kBar = 17;
constexpr double kAxis = 22;

struct Part {
  const char* name;
  const char* color;
  int64_t TimeBreakdown::*ns;
};
constexpr Part kParts[] = {{"compute", "#2563eb", &TimeBreakdown::compute_ns},
                           {"communication", "#ea580c", &TimeBreakdown::communication_ns},
                           {"memory", "#dc2626", &TimeBreakdown::memory_ns},
                           {"idle", "#e2e8f0", &TimeBreakdown::idle_ns}};

}  // namespace

std::string breakdown_bars(const std::vector<BreakdownBar>& bars) {
  const double rows_top = kLegend;
  const double rows_bottom = rows_top + kRow * static_cast<double>(bars.size());
  std::string out;
  put(out,
      R"(<svg id="breakdown-bars" class="bar-chart" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="GPU time: compute, communication, memory, idle">)",
      num(kWidth), num(rows_bottom + kAxis), num(kWidth));
  double lx = kGutter;
  for (const Part& p : kParts) {
    put(out,
        R"(<rect x="{}" y="6" width="12" height="12" rx="2" fill="{}" stroke="#94a3b8" stroke-width="0.5"/><text x="{}" y="16" font-size="12" fill="#334155">{}</text>)",
        num(lx), p.color, num(lx + 17), p.name);
    lx += 17 + static_cast<double>(std::string_view(p.name).size()) * 7.2 + 18;
  }
  for (int pct = 0; pct <= 100; pct += 25) {
    const double tx = kGutter + pct / 100.0 * kPlot;
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/><text x="{0}" y="{3}" font-size="10" fill="#64748b" text-anchor="middle">{4} %</text>)",
        num(tx), num(rows_top - 2), num(rows_bottom), num(rows_bottom + 14), pct);
  }
  for (size_t i = 0; i < bars.size(); ++i) {
    const BreakdownBar& bar = bars[i];
    const TimeBreakdown& b = bar.breakdown;
    const double y = rows_top + kRow * static_cast<double>(i) + (kRow - kBar) / 2;
    put(out,
        R"(<text class="bar-label" x="{}" y="{}" font-size="12" fill="#0f172a" text-anchor="end">{}</text>)",
        num(kGutter - 8), num(y + kBar / 2 + 4), escape(fit_width(bar.label, kGutter - 14, 12)));
    if (b.span_ns <= 0) {
      put(out, R"(<text x="{}" y="{}" font-size="11" fill="#94a3b8">no GPU work</text>)",
          num(kGutter + 4), num(y + kBar / 2 + 4));
      continue;
    }
    put(out, R"(<g class="bar" data-variant="{}">)", escape(bar.label));
    double x = kGutter;
    for (const Part& p : kParts) {
      const int64_t ns = b.*p.ns;
      if (ns <= 0) continue;
      const double share = static_cast<double>(ns) / static_cast<double>(b.span_ns);
      const double w = share * kPlot;
      put(out,
          R"(<rect class="segment" x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)",
          num(x), num(y), num(std::max(w, 0.8)), num(kBar), p.color,
          escape(fmt::format("{} · {}: {} ({:.1f} % of the {} span)", bar.label, p.name,
                             format_duration(static_cast<double>(ns)), share * 100,
                             format_duration(static_cast<double>(b.span_ns)))));
      if (w > 60)
        put(out, R"(<text x="{}" y="{}" font-size="10" fill="{}">{}</text>)", num(x + 3),
            num(y + kBar / 2 + 3.5), text_on(p.color),
            escape(fit_width(fmt::format("{} {:.0f} %", p.name, share * 100), w - 6, 10)));
      x += w;
    }
    std::string note = format_duration(static_cast<double>(b.span_ns));
    if (auto pct = b.communication_overlap_pct())
      note += fmt::format(" · {:.0f} % of communication overlaps compute", *pct);
    put(out, R"(<text class="bar-total" x="{}" y="{}" font-size="11" fill="#334155">{}</text>)",
        num(kGutter + kPlot + 8), num(y + kBar / 2 + 4), escape(note));
    put(out, "</g>");
  }
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
