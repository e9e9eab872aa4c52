// The roofline: achieved FLOP/s against arithmetic intensity (FLOP per DRAM byte), under the
// memory roof and the compute roofs (analysis/roofline.h has the arithmetic).

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include "analysis/roofline.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 720;
constexpr double kHeight = 380;
constexpr double kLeft = 70;
constexpr double kRight = 260;  // the legend
constexpr double kLabelFont = 10;
constexpr double kCoincide = 9;  // centers closer than this (px) draw as one marker
constexpr double kSpread = 6;    // how far coinciding markers are moved apart
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

  // Where each mark is drawn. Marks closer than a marker's width coincide: each group is spread
  // on a small circle around its true position, ringed, so that every marker stays visible.
  const double x_min = std::pow(10, lx0), x_max = std::pow(10, lx1);
  const size_t n = chart.marks.size();
  std::vector<double> cx(n), cy(n);
  std::vector<size_t> group(n);
  for (size_t i = 0; i < n; ++i) {
    cx[i] = px(chart.marks[i].intensity);
    cy[i] = py(chart.marks[i].flop_per_s);
    group[i] = i;
    for (size_t j = 0; j < i; ++j)
      if (std::hypot(cx[i] - cx[j], cy[i] - cy[j]) < kCoincide) group[i] = group[j];
  }
  std::vector<Box> keep_clear;  // the drawn markers and the labels placed so far
  for (size_t g = 0; g < n; ++g) {
    std::vector<size_t> members;
    for (size_t i = 0; i < n; ++i)
      if (group[i] == g) members.push_back(i);
    if (members.size() < 2) continue;
    const double gx = cx[g], gy = cy[g];
    put(out,
        R"(<circle class="coincide-ring" cx="{}" cy="{}" r="{}" fill="none" stroke="#94a3b8" stroke-dasharray="2 2"/>)",
        num(gx), num(gy), num(kSpread + 7));
    for (size_t k = 0; k < members.size(); ++k) {
      const double angle =
          2 * std::numbers::pi * static_cast<double>(k) / static_cast<double>(members.size());
      cx[members[k]] = gx + kSpread * std::sin(angle);
      cy[members[k]] = gy - kSpread * std::cos(angle);
    }
  }
  for (size_t i = 0; i < n; ++i) keep_clear.push_back({cx[i] - 6, cy[i] - 6, 12, 12});

  // A label goes to the first of its candidate places that stays inside the plot and clear of
  // every marker and every label placed before it; with none free it goes to the legend.
  const Box plot{kLeft, kTop, kPlotW, kPlotH};
  std::vector<std::string> legend_lines;  // labels with no free place, listed under the marks
  auto place = [&](const std::string& text, const std::vector<std::pair<double, double>>& at) {
    for (auto [x, y] : at) {
      const Box b = label_box(x, y, text, kLabelFont);
      if (!b.inside(plot)) continue;
      if (std::any_of(keep_clear.begin(), keep_clear.end(),
                      [&](const Box& o) { return b.intersects(o); }))
        continue;
      keep_clear.push_back(b);
      put(out, R"(<text class="roof-label" x="{}" y="{}" font-size="{}" fill="#475569">{}</text>)",
          num(x), num(y), num(kLabelFont), escape(text));
      return;
    }
    legend_lines.push_back(text);
  };

  // Each roof: the memory slope up to its ridge, then flat. Clipped to the plot.
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
  }
  // No label may cross a roof's flat part either.
  for (const RooflineRoof& roof : chart.roofs) {
    const double x0 = px(ridge_intensity(roof.flop_per_s, chart.bandwidth_bytes_per_s));
    keep_clear.push_back({x0, py(roof.flop_per_s) - 1.5, kLeft + kPlotW - x0, 3});
  }
  // The roofs' names: above or below the flat part, at its right end or just right of the ridge.
  for (const RooflineRoof& roof : chart.roofs) {
    const std::string text = fmt::format("{} {} TFLOP/s", roof.name, tflops_label(roof.flop_per_s));
    const double w = text_width(text, kLabelFont);
    const double y = py(roof.flop_per_s);
    const double right = kLeft + kPlotW - 4 - w;
    const double after_ridge =
        px(ridge_intensity(roof.flop_per_s, chart.bandwidth_bytes_per_s)) + 6;
    place(text, {{right, y - 4},
                 {right, y + kLabelFont + 3},
                 {after_ridge, y - 4},
                 {after_ridge, y + kLabelFont + 3},
                 {(right + after_ridge) / 2, y - 4},
                 {(right + after_ridge) / 2, y + kLabelFont + 3}});
  }
  // The memory roof's name: beside the slope, left of it (above) or right of it (below), at a
  // few places along it.
  {
    const std::string text =
        fmt::format("HBM {:.2f} TB/s (copy kernel)", chart.bandwidth_bytes_per_s / 1e12);
    const double w = text_width(text, kLabelFont);
    const double lo = std::max(x_min, std::pow(10, ly0) / chart.bandwidth_bytes_per_s);
    const double hi = ridge_intensity(top_roof, chart.bandwidth_bytes_per_s);
    // Left of the line (the empty side above it) first, then below and right of it.
    std::vector<std::pair<double, double>> at;
    for (int side = 0; side < 2; ++side) {
      for (double f : {0.35, 0.5, 0.65, 0.2, 0.8, 0.05}) {
        const double x = std::pow(10, std::log10(lo) + f * (std::log10(hi) - std::log10(lo)));
        const double sx = px(x), sy = py(x * chart.bandwidth_bytes_per_s);
        if (side == 0)
          at.emplace_back(sx - w - 6, sy - 2);
        else
          at.emplace_back(sx + 8, sy + kLabelFont);
      }
    }
    place(text, at);
  }

  double ly = kTop + 8;
  for (size_t i = 0; i < n; ++i) {
    const RooflineMark& m = chart.marks[i];
    const std::string_view color = series_color(m.color);
    const double attainable =
        attainable_flop_per_s(top_roof, chart.bandwidth_bytes_per_s, m.intensity);
    const bool spread = std::count(group.begin(), group.end(), group[i]) > 1;
    const std::string title =
        fmt::format("{}: {} FLOP/B, {} TFLOP/s, {:.0f} % of the roof there{}{}", m.label,
                    intensity_label(m.intensity), tflops_label(m.flop_per_s),
                    100 * m.flop_per_s / attainable, m.detail.empty() ? "" : "; " + m.detail,
                    spread ? "; drawn beside the points it coincides with (ringed)" : "");
    put(out, R"(<circle class="{}" cx="{}" cy="{}" r="{}" {}><title>{}</title></circle>)",
        m.kernel ? "kernel-point" : "variant-point", num(cx[i]), num(cy[i]), m.kernel ? "5" : "4",
        m.kernel ? fmt::format(R"(fill="none" stroke="{}" stroke-width="1.8")", color)
                 : fmt::format(R"(fill="{}")", color),
        escape(title));
    put(out,
        R"(<circle cx="{}" cy="{}" r="4" {}/><text class="legend-label" x="{}" y="{}" font-size="11" fill="#334155">{}</text>)",
        num(kLeft + kPlotW + 16), num(ly),
        m.kernel ? fmt::format(R"(fill="none" stroke="{}" stroke-width="1.8")", color)
                 : fmt::format(R"(fill="{}")", color),
        num(kLeft + kPlotW + 26), num(ly + 4),
        escape(fit_width(m.label, kWidth - (kLeft + kPlotW + 26) - 4, 11)));
    ly += 15;
  }
  for (const std::string& text : legend_lines) {
    put(out, R"(<text class="legend-label" x="{}" y="{}" font-size="{}" fill="#475569">{}</text>)",
        num(kLeft + kPlotW + 10), num(ly + 4), num(kLabelFont),
        escape(fit_width(text, kWidth - (kLeft + kPlotW + 10) - 4, kLabelFont)));
    ly += 14;
  }
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
