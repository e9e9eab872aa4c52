#include "study/render/counter_diff_output.h"

#include <fmt/format.h>

#include "render/display_text.h"

namespace attnprof {

namespace {

std::string number(const std::optional<double>& v) {
  if (!v) return "-";
  const double x = *v;
  if (std::abs(x) >= 1e9) return fmt::format("{:.3f} G", x / 1e9);
  if (std::abs(x) >= 1e6) return fmt::format("{:.3f} M", x / 1e6);
  if (std::abs(x) >= 1e3) return fmt::format("{:.1f} k", x / 1e3);
  return fmt::format("{:.2f}", x);
}

std::string change(const CounterChange& c) {
  if (!c.a || !c.b) return "";
  if (*c.a == 0) return *c.b == 0 ? "0" : "new";
  return fmt::format("{:+.1f} %", 100 * (*c.b - *c.a) / *c.a);
}

}  // namespace

std::string render_counter_diff_text(const CounterDiff& diff) {
  std::string out = fmt::format("hardware counters, A: {}\n                   B: {}\n",
                                escape_control(diff.a), escape_control(diff.b));
  size_t moved = 0;
  for (const VariantCounterDiff& v : diff.variants) {
    out += '\n';  // not "\n" + string, on which g++ 12 warns (-Wrestrict, falsely)
    out += escape_control(v.variant);
    if (!v.missing.empty()) {
      out += ": " + v.missing + "\n";
      continue;
    }
    out += fmt::format("\n    {:<24} {:>12} {:>12} {:>9}\n", "counter", "A", "B", "change");
    for (const CounterChange& c : v.counters) {
      moved += c.changed;
      out += fmt::format("  {} {:<24} {:>12} {:>12} {:>9}\n", c.changed ? "*" : " ", c.counter,
                         number(c.a), number(c.b), change(c));
    }
  }
  out += fmt::format(
      "\n{} counter(s) moved (* : more than {:.0f} % of A, and {:.0f} points for a "
      "percentage)\n",
      moved, 100 * kCounterRelativeChange, kCounterPointsChange);
  return out;
}

}  // namespace attnprof
