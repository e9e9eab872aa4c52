// GPU time per variant by kernel class: stacked bars in time, and the same as shares.

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "analysis/duration_sum.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 1120;
constexpr double kGutter = 170;  // variant names
constexpr double kTimePlot = 520;
constexpr double kTotalLabel = 78;  // the total, right of the longest bar
constexpr double kGap = 36;
// The right margin holds half of the last tick's label ("100 %").
constexpr double kSharePlot = kWidth - kGutter - kTimePlot - kTotalLabel - kGap - 24;
constexpr double kLegend = 4;
constexpr double kPanelTitle = 20;
constexpr double kRow = 26;
constexpr double kBar = 17;
constexpr double kAxis = 22;

}  // namespace

std::string class_bars(const std::vector<ClassBar>& bars) {
  double max_total = 0;
  for (const ClassBar& bar : bars) {
    int64_t total = 0;
    for (size_t c = 0; c < kKernelClassCount; ++c) {
      add_duration(total, bar.ns[c]);
    }
    max_total = std::max(max_total, static_cast<double>(total));
  }
  const std::vector<double> ticks = linear_ticks(max_total, 5, true);
  const double axis_max = std::max(ticks.back(), max_total);
  const double rows_top = kLegend + kPanelTitle;
  const double rows_bottom = rows_top + kRow * static_cast<double>(bars.size());
  const double height = rows_bottom + kAxis;
  const double share_left = kGutter + kTimePlot + kTotalLabel + kGap;

  std::string out;
  put(out,
      R"(<svg id="class-bars" class="bar-chart" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="GPU time by kernel class">)",
      num(kWidth), num(height), num(kWidth));

  // The classes' legend is the page's (HTML, so that it wraps in a narrow window).
  put(out,
      R"(<text x="{}" y="{}" font-size="12" font-weight="600" fill="#334155">GPU time of the typical region</text>)",
      num(kGutter), num(kLegend + 12));
  put(out,
      R"(<text x="{}" y="{}" font-size="12" font-weight="600" fill="#334155">share of it</text>)",
      num(share_left), num(kLegend + 12));

  // Axes: grid lines and tick labels below.
  for (double tick : ticks) {
    const double tx = kGutter + (axis_max > 0 ? tick / axis_max : 0) * kTimePlot;
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/><text x="{0}" y="{3}" font-size="10" fill="#64748b" text-anchor="middle">{4}</text>)",
        num(tx), num(rows_top - 2), num(rows_bottom), num(rows_bottom + 14),
        format_tick_duration(tick));
  }
  for (int pct = 0; pct <= 100; pct += 25) {
    const double tx = share_left + pct / 100.0 * kSharePlot;
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/><text x="{0}" y="{3}" font-size="10" fill="#64748b" text-anchor="middle">{4} %</text>)",
        num(tx), num(rows_top - 2), num(rows_bottom), num(rows_bottom + 14), pct);
  }

  for (size_t i = 0; i < bars.size(); ++i) {
    const ClassBar& bar = bars[i];
    const double y = rows_top + kRow * static_cast<double>(i) + (kRow - kBar) / 2;
    put(out,
        R"(<text class="bar-label" x="{}" y="{}" font-size="12" fill="#0f172a" text-anchor="end">{}</text>)",
        num(kGutter - 8), num(y + kBar / 2 + 4), escape(fit_width(bar.label, kGutter - 14, 12)));
    const int64_t total = std::accumulate(bar.ns.begin(), bar.ns.end(), int64_t{0});
    if (!bar.has_data || total <= 0) {
      put(out, R"(<text x="{}" y="{}" font-size="11" fill="#94a3b8">no trace</text>)",
          num(kGutter + 4), num(y + kBar / 2 + 4));
      continue;
    }
    put(out, R"(<g class="bar" data-variant="{}">)", escape(bar.label));
    double tx = kGutter, sx = share_left;
    for (KernelClass c : kAllKernelClasses) {
      const int64_t ns = bar.ns[static_cast<size_t>(c)];
      if (ns <= 0) continue;
      const double share = static_cast<double>(ns) / static_cast<double>(total);
      const double w = static_cast<double>(ns) / axis_max * kTimePlot;
      const double sw = share * kSharePlot;
      const std::string title =
          fmt::format("{} · {}: {} ({:.0f} % of its GPU time)", bar.label, kernel_class_label(c),
                      format_duration(static_cast<double>(ns)), share * 100);
      put(out,
          R"(<rect class="segment" x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)",
          num(tx), num(y), num(std::max(w, 0.8)), num(kBar), class_color(c), escape(title));
      put(out,
          R"(<rect class="share" x="{}" y="{}" width="{}" height="{}" fill="{}"><title>{}</title></rect>)",
          num(sx), num(y), num(std::max(sw, 0.8)), num(kBar), class_color(c), escape(title));
      if (sw > 40) {
        put(out, R"(<text x="{}" y="{}" font-size="10" fill="{}">{}</text>)", num(sx + 3),
            num(y + kBar / 2 + 3.5), text_on(class_color(c)),
            escape(fit_width(kernel_class_label(c), sw - 6, 10)));
      }
      tx += w;
      sx += sw;
    }
    put(out, R"(<text class="bar-total" x="{}" y="{}" font-size="11" fill="#334155">{}</text>)",
        num(tx + 6), num(y + kBar / 2 + 4), format_duration(static_cast<double>(total)));
    put(out, "</g>");
  }
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
