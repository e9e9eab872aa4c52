// The roofline: achieved FLOP/s against arithmetic intensity (FLOP per DRAM byte), under the
// memory roof and the compute roofs (analysis/roofline.h has the arithmetic).

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/roofline.h"
#include "render/report_svg.h"
#include "render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 640;
constexpr double kHeight = 380;
constexpr double kLeft = 70;
constexpr double kRight = 190;  // the legend
constexpr double kTop = 34;
constexpr double kBottom = 46;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

std::string tflops_label(double flop_per_s) {
  const double t = flop_per_s / 1e12;
  return t >= 10  ? fmt::format("{:.0f}", t)
         : t >= 1 ? fmt::format("{:.1f}", t)
                  : fmt::format("{:.2g}", t);
}

std::string intensity_label(double v) {
  return v >= 1 ? fmt::format("{:.0f}", v) : fmt::format("{:.2g}", v);
}

}  // namespace

std::string roofline_chart(const RooflineChart& chart) {
  std::string out;
  put(out,
      R"(<svg class="roofline-chart" id="{}" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="roofline">)",
      escape(chart.id), num(kWidth), num(kHeight), num(kWidth));
  put(out,
      R"(<text x="{}" y="18" font-size="13" font-weight="600" fill="#0f172a">Roofline: TFLOP/s against FLOP per DRAM byte</text>)",
      num(kLeft));
  if (chart.marks.empty() || chart.roofs.empty() || chart.bandwidth_bytes_per_s <= 0) {
    put(out, R"(<text x="{}" y="{}" font-size="12" fill="#94a3b8">no counters</text></svg>)",
        num(kLeft), num(kTop + kPlotH / 2));
    return out;
  }
  const double top_roof = chart.roofs.front().flop_per_s;
  double x_lo = ridge_intensity(chart.roofs.back().flop_per_s, chart.bandwidth_bytes_per_s);
  double x_hi = ridge_intensity(top_roof, chart.bandwidth_bytes_per_s);
  double y_lo = chart.roofs.back().flop_per_s;
  for (const RooflineMark& m : chart.marks) {
    x_lo = std::min(x_lo, m.intensity);
    x_hi = std::max(x_hi, m.intensity);
    y_lo = std::min(y_lo, m.flop_per_s);
  }
  const double lx0 = std::log10(x_lo) - 0.3, lx1 = std::log10(x_hi) + 0.5;
  const double ly0 = std::log10(y_lo) - 0.3, ly1 = std::log10(top_roof) + 0.25;
  auto px = [&](double v) { return kLeft + (std::log10(v) - lx0) / (lx1 - lx0) * kPlotW; };
  auto py = [&](double v) { return kTop + kPlotH - (std::log10(v) - ly0) / (ly1 - ly0) * kPlotH; };

  put(out, R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#f8fafc" stroke="#cbd5e1"/>)",
      num(kLeft), num(kTop), num(kPlotW), num(kPlotH));
  for (double t : log_ticks(std::pow(10, lx0), std::pow(10, lx1))) {
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/><text x="{0}" y="{3}" font-size="10" fill="#475569" text-anchor="middle">{4}</text>)",
        num(px(t)), num(kTop), num(kTop + kPlotH), num(kTop + kPlotH + 14), intensity_label(t));
  }
  for (double t : log_ticks(std::pow(10, ly0), std::pow(10, ly1))) {
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e2e8f0"/><text x="{3}" y="{4}" font-size="10" fill="#475569" text-anchor="end">{5}</text>)",
        num(kLeft), num(py(t)), num(kLeft + kPlotW), num(kLeft - 5), num(py(t) + 3.5),
        tflops_label(t));
  }
  put(out,
      R"(<text x="{}" y="{}" font-size="11" fill="#334155" text-anchor="middle">arithmetic intensity, FLOP per DRAM byte (log scale)</text>)",
      num(kLeft + kPlotW / 2), num(kHeight - 10));
  put(out,
      R"svg(<text transform="translate(14 {}) rotate(-90)" font-size="11" fill="#334155" text-anchor="middle">TFLOP/s (log scale)</text>)svg",
      num(kTop + kPlotH / 2));

  // Each roof: the memory slope up to its ridge, then flat. Clipped to the plot.
  const double x_min = std::pow(10, lx0), x_max = std::pow(10, lx1);
  for (size_t r = 0; r < chart.roofs.size(); ++r) {
    const RooflineRoof& roof = chart.roofs[r];
    const double ridge = ridge_intensity(roof.flop_per_s, chart.bandwidth_bytes_per_s);
    const double start = std::max(x_min, std::pow(10, ly0) / chart.bandwidth_bytes_per_s);
    put(out,
        R"(<polyline class="roof" points="{},{} {},{} {},{}" fill="none" stroke="{}" stroke-width="{}"><title>{}: {} TFLOP/s; ridge at {} FLOP/B</title></polyline>)",
        num(px(start)), num(py(start * chart.bandwidth_bytes_per_s)), num(px(ridge)),
        num(py(roof.flop_per_s)), num(px(x_max)), num(py(roof.flop_per_s)),
        r == 0 ? "#0f172a" : "#64748b", r == 0 ? "2" : "1.5", escape(roof.name),
        tflops_label(roof.flop_per_s), intensity_label(ridge));
    put(out, R"(<text x="{}" y="{}" font-size="10" fill="#475569" text-anchor="end">{}</text>)",
        num(kLeft + kPlotW - 4), num(py(roof.flop_per_s) - 4),
        escape(fmt::format("{} {} TFLOP/s", roof.name, tflops_label(roof.flop_per_s))));
  }
  put(out, R"(<text x="{}" y="{}" font-size="10" fill="#475569">{}</text>)", num(px(x_min) + 6),
      num(py(x_min * chart.bandwidth_bytes_per_s) - 6),
      escape(fmt::format("HBM {:.2f} TB/s (copy kernel)", chart.bandwidth_bytes_per_s / 1e12)));

  double ly = kTop + 8;
  for (const RooflineMark& m : chart.marks) {
    const std::string_view color = series_color(m.color);
    const double attainable =
        attainable_flop_per_s(top_roof, chart.bandwidth_bytes_per_s, m.intensity);
    const std::string title =
        fmt::format("{}: {} FLOP/B, {} TFLOP/s, {:.0f} % of the roof there{}", m.label,
                    intensity_label(m.intensity), tflops_label(m.flop_per_s),
                    100 * m.flop_per_s / attainable, m.detail.empty() ? "" : "; " + m.detail);
    put(out, R"(<circle class="{}" cx="{}" cy="{}" r="{}" {}><title>{}</title></circle>)",
        m.kernel ? "kernel-point" : "variant-point", num(px(m.intensity)), num(py(m.flop_per_s)),
        m.kernel ? "5" : "4",
        m.kernel ? fmt::format(R"(fill="none" stroke="{}" stroke-width="1.8")", color)
                 : fmt::format(R"(fill="{}")", color),
        escape(title));
    put(out,
        R"(<circle cx="{}" cy="{}" r="4" {}/><text x="{}" y="{}" font-size="11" fill="#334155">{}</text>)",
        num(kLeft + kPlotW + 16), num(ly),
        m.kernel ? fmt::format(R"(fill="none" stroke="{}" stroke-width="1.8")", color)
                 : fmt::format(R"(fill="{}")", color),
        num(kLeft + kPlotW + 26), num(ly + 4), escape(fit(m.label, 26)));
    ly += 15;
  }
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
