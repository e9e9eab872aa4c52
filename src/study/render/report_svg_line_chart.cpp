// A line chart with both axes logarithmic: time or memory against sequence length.

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof::svg {

namespace {

constexpr double kWidth = 548;
constexpr double kHeight = 330;
constexpr double kLeft = 70;
constexpr double kRight = 132;  // the legend
constexpr double kTop = 34;
constexpr double kBottom = 46;
constexpr double kPlotW = kWidth - kLeft - kRight;
constexpr double kPlotH = kHeight - kTop - kBottom;

std::string integer_label(double v) {
  return fmt::format("{:.0f}", v);
}

// Two points coincide when they share x and their y differ by at most 3 %: on a log axis 3 % is
// about a line's width, so a line drawn later hides the earlier one there
// (tests/browser/report_in_chromium.sh: sdpa-auto picks cuDNN, and its line covered sdpa-cudnn's).
constexpr double kCoincidence = 0.03;

bool same_point(std::pair<double, double> a, std::pair<double, double> b) {
  return a.first == b.first &&
         std::abs(std::log(a.second) - std::log(b.second)) <= std::log1p(kCoincidence);
}

// How a series lies on an earlier one: `on` is the earlier series (-1: on none), `whole` when
// every point coincides (else some stretch between two points does), `layer` counts the series
// before it that lie on the same one, so that each is drawn with its own dashes.
struct Overlap {
  int on = -1;
  bool whole = false;
  int layer = 0;
};

std::vector<Overlap> overlaps(const std::vector<Series>& series) {
  std::vector<Overlap> out(series.size());
  for (size_t i = 0; i < series.size(); ++i) {
    const auto& a = series[i].points;
    for (size_t j = 0; j < i && out[i].on < 0; ++j) {
      const auto& b = series[j].points;
      if (a.size() != b.size() || a.empty()) continue;
      size_t same = 0;
      bool stretch = a.size() == 1 && same_point(a[0], b[0]);
      for (size_t k = 0; k < a.size(); ++k) {
        if (!same_point(a[k], b[k])) continue;
        ++same;
        if (k > 0 && same_point(a[k - 1], b[k - 1])) stretch = true;
      }
      if (!stretch) continue;
      // Lie on the series that j lies on, if any: one base per group of coinciding lines.
      const int base = out[j].on >= 0 ? out[j].on : static_cast<int>(j);
      out[i].on = base;
      out[i].whole = same == a.size();
      for (size_t k = 0; k < i; ++k) out[i].layer += out[k].on == base;
    }
  }
  return out;
}

constexpr std::string_view kDashes[] = {"7 5", "2 4", "11 3 2 3"};

}  // namespace

std::string loglog_chart(const LogLogChart& chart) {
  double x_lo = std::numeric_limits<double>::max(), x_hi = 0;
  double y_lo = std::numeric_limits<double>::max(), y_hi = 0;
  std::set<double> xs;
  for (const Series& s : chart.series) {
    for (auto [px, py] : s.points) {
      x_lo = std::min(x_lo, px);
      x_hi = std::max(x_hi, px);
      y_lo = std::min(y_lo, py);
      y_hi = std::max(y_hi, py);
      xs.insert(px);
    }
  }
  std::string out;
  put(out,
      R"(<svg class="sweep-chart" id="{}" viewBox="0 0 {} {}" width="100%" style="min-width:{}px" role="img" aria-label="{}">)",
      escape(chart.id), num(kWidth), num(kHeight), num(kWidth), escape(chart.title));
  put(out, R"(<text x="{}" y="18" font-size="13" font-weight="600" fill="#0f172a">{}</text>)",
      num(kLeft), escape(chart.title));
  if (xs.empty()) {
    put(out, R"(<text x="{}" y="{}" font-size="12" fill="#94a3b8">no measurements</text></svg>)",
        num(kLeft), num(kTop + kPlotH / 2));
    return out;
  }
  // Some room around the data, in log space.
  const double lx0 = std::log(x_lo) - 0.12, lx1 = std::log(x_hi) + 0.12;
  const double ly0 = std::log(y_lo) - 0.25, ly1 = std::log(y_hi) + 0.25;
  auto px = [&](double v) {
    return kLeft + (std::log(v) - lx0) / std::max(lx1 - lx0, 1e-9) * kPlotW;
  };
  auto py = [&](double v) {
    return kTop + kPlotH - (std::log(v) - ly0) / std::max(ly1 - ly0, 1e-9) * kPlotH;
  };

  put(out, R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#f8fafc" stroke="#cbd5e1"/>)",
      num(kLeft), num(kTop), num(kPlotW), num(kPlotH));
  // x ticks: the measured sizes themselves when there are few (powers of two read better so).
  std::vector<double> x_ticks = xs.size() <= 10 ? std::vector<double>(xs.begin(), xs.end())
                                                : log_ticks(std::exp(lx0), std::exp(lx1));
  for (double t : x_ticks) {
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{0}" y2="{2}" stroke="#e2e8f0"/><text x="{0}" y="{3}" font-size="10" fill="#475569" text-anchor="middle">{4}</text>)",
        num(px(t)), num(kTop), num(kTop + kPlotH), num(kTop + kPlotH + 14), integer_label(t));
  }
  const double y_min = std::exp(ly0), y_max = std::exp(ly1);
  for (double t : chart.binary_ticks ? log2_ticks(y_min, y_max) : log_ticks(y_min, y_max)) {
    put(out,
        R"(<line x1="{0}" y1="{1}" x2="{2}" y2="{1}" stroke="#e2e8f0"/><text x="{3}" y="{4}" font-size="10" fill="#475569" text-anchor="end">{5}</text>)",
        num(kLeft), num(py(t)), num(kLeft + kPlotW), num(kLeft - 5), num(py(t) + 3.5),
        escape(chart.format_tick(t)));
  }
  put(out,
      R"(<text x="{}" y="{}" font-size="11" fill="#334155" text-anchor="middle">{} (log scale)</text>)",
      num(kLeft + kPlotW / 2), num(kHeight - 10), escape(chart.x_label));

  // A series that lies on an earlier one is drawn dashed, with hollow rings around the other's
  // dots, so that both stay visible; the legend says which line it lies on.
  const std::vector<Overlap> overlap = overlaps(chart.series);
  double ly = kTop + 8;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const Series& s = chart.series[i];
    const std::string_view color = series_color(i);
    const Overlap& o = overlap[i];
    const bool covered = o.on >= 0;
    const std::string_view dash = kDashes[size_t(o.layer) % std::size(kDashes)];
    const std::string on_name = covered ? chart.series[size_t(o.on)].name : std::string();
    std::string points;
    for (auto [x, y] : s.points) points += num(px(x)) + "," + num(py(y)) + " ";
    put(out,
        R"(<g class="series" data-series="{}"{}><polyline points="{}" fill="none" stroke="{}" stroke-width="2"{}/>)",
        escape(s.name), covered ? fmt::format(R"( data-coincides-with="{}")", escape(on_name)) : "",
        points, color, covered ? fmt::format(R"( stroke-dasharray="{}")", dash) : "");
    for (auto [x, y] : s.points) {
      put(out, R"(<circle cx="{}" cy="{}" r="{}" {}><title>{} · {} {}: {}</title></circle>)",
          num(px(x)), num(py(y)), covered ? num(5.5 + 2.0 * o.layer) : "3.2",
          covered ? fmt::format(R"(fill="none" stroke="{}" stroke-width="1.8")", color)
                  : fmt::format(R"(fill="{}")", color),
          escape(s.name), escape(chart.x_label), integer_label(x), escape(chart.format_y(y)));
    }
    put(out, "</g>");
    put(out,
        R"(<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{}" stroke-width="2.5"{}/><text x="{}" y="{}" font-size="11" fill="#334155">{}</text>)",
        num(kLeft + kPlotW + 10), num(ly), num(kLeft + kPlotW + 26), num(ly), color,
        covered ? fmt::format(R"( stroke-dasharray="{}")", dash) : "", num(kLeft + kPlotW + 31),
        num(ly + 4), escape(fit_width(s.name, kWidth - (kLeft + kPlotW + 31) - 3, 11)));
    if (covered) {
      // "partly on NAME" on one line where it fits, else NAME on a line of its own.
      const double room = kWidth - (kLeft + kPlotW + 31) - 3;
      const std::string note = (o.whole ? "= " : "partly on ") + on_name;
      std::vector<std::string> note_lines{note};
      if (text_width(note, 10) > room)
        note_lines = {o.whole ? "=" : "partly on", fit_width(on_name, room, 10)};
      for (const std::string& text : note_lines) {
        ly += 13;
        put(out, R"(<text class="coincides" x="{}" y="{}" font-size="10" fill="#64748b">{}</text>)",
            num(kLeft + kPlotW + 31), num(ly + 4), escape(text));
      }
    }
    ly += 17;
  }
  put(out, "</svg>");
  return out;
}

}  // namespace attnprof::svg
