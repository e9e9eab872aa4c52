#pragma once
// What the report's SVG plots share: escaping, numbers as SVG wants them, axis ticks, colors and
// the units people read. The plots are drawn by the project (no library, no script): each is one
// <svg> element inlined in the page, with hover text in <title> elements.

#include <cstdint>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/kernel_class.h"
#include "analysis/region_timeline.h"
#include "base/format_units.h"   // format_duration, as the tables print it
#include "render/text_append.h"  // put, found from svg:: in attnprof::

namespace attnprof::svg {

// Text for HTML and SVG content and attribute values: render/escape_html.h's html_escape.
std::string escape(std::string_view text);

// A coordinate: at most two decimals, no trailing zeros ("12.5", "3").
std::string num(double v);

// Ticks for a linear axis from 0: 1, 2 or 5 times a power of ten apart, about `target` of them
// up to `max` (0 included); with `cover`, one more when needed so that the last is >= `max`.
std::vector<double> linear_ticks(double max, int target, bool cover = false);
// Ticks for a log axis over [lo, hi]: the 1, 2 and 5 of each decade inside, or only the decades
// when the range spans many of them.
std::vector<double> log_ticks(double lo, double hi);
// Ticks for a log axis of bytes over [lo, hi]: powers of two, every second or fourth one when
// there would be more than eight.
std::vector<double> log2_ticks(double lo, double hi);

// Cuts `text` to at most `chars` characters (UTF-8 aware), ending in "…" when cut; "" when even
// one character and the ellipsis do not fit.
std::string fit(std::string_view text, int chars);
// How wide `text` draws at `font_px`, erring wide: per-glyph widths of DejaVu Sans, the widest of
// the fonts the report's font list falls back to (Debian's Chromium draws with it), so that a
// label placed by it never runs past what it was given (docs/REPORT.md, "Plots").
double text_width(std::string_view text, double font_px);
// Cuts `text` as fit() does, to what draws within `width` pixels at `font_px` (text_width).
std::string fit_width(std::string_view text, double width, double font_px);

// A box in a plot's user units, to keep labels off points and off each other.
struct Box {
  double x = 0, y = 0, w = 0, h = 0;
  bool intersects(const Box& o) const {
    return x < o.x + o.w && o.x < x + w && y < o.y + o.h && o.y < y + h;
  }
  bool inside(const Box& o) const {
    return x >= o.x && y >= o.y && x + w <= o.x + o.w && y + h <= o.y + o.h;
  }
};
// The box of a one-line label drawn at (x, baseline y), anchored at its start.
Box label_box(double x, double baseline, std::string_view text, double font_px);

// The color of each kernel class, the same in the bar chart and the timelines.
std::string_view class_color(KernelClass c);
// The color of a CPU span: annotations grey, runtime and driver calls orange, ops in two shades
// of indigo that alternate with the nesting depth.
std::string_view cpu_color(SpanKind kind, int32_t depth);
// Dark or white text, whichever reads better on the fill `hex` ("#rrggbb").
std::string_view text_on(std::string_view hex);
// Distinct colors for the lines of a chart (Tableau 10), cycling.
std::string_view series_color(size_t i);

}  // namespace attnprof::svg
