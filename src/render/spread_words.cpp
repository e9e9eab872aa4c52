#include "render/spread_words.h"

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

namespace {

// "median (min..max)", or the median alone when min and max read the same.
template <typename Format>
std::string format_spread(const Spread& s, Format format) {
  std::string low = format(s.min), high = format(s.max);
  if (s.count <= 1 || low == high) return format(s.median);
  return fmt::format("{} ({}..{})", format(s.median), low, high);
}

}  // namespace

std::string format_spread_us(const Spread& s) {
  return format_spread(s, [](double ns) { return format_us(ns); });
}

std::string format_spread_count(const Spread& s) {
  return format_spread(s, [](double v) { return format_count(v); });
}

void write_json_spread(JsonWriter& w, const Spread& s, double divisor) {
  w.begin_object();
  w.key("median").number(s.median / divisor);
  w.key("min").number(s.min / divisor);
  w.key("max").number(s.max / divisor);
  w.key("regions").number(s.count);
  w.end_object();
}

}  // namespace attnprof
