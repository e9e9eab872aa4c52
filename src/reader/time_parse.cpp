#include "reader/time_parse.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

namespace attnprof {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

std::optional<int64_t> via_double(std::string_view text) {
  double us = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), us);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  double ns = std::round(us * 1000.0);
  if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18) return std::nullopt;
  return static_cast<int64_t>(ns);
}

}  // namespace

std::optional<int64_t> microseconds_text_to_ns(std::string_view text) {
  while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' ||
                           text.back() == '\t'))
    text.remove_suffix(1);
  if (text.empty()) return std::nullopt;
  size_t i = 0;
  bool negative = false;
  if (text[0] == '-') {
    negative = true;
    i = 1;
  }
  if (i >= text.size() || !is_digit(text[i])) return std::nullopt;
  if (text.find_first_of("eE") != std::string_view::npos) return via_double(text);

  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  int64_t us = 0;
  for (; i < text.size() && is_digit(text[i]); ++i) {
    int d = text[i] - '0';
    if (us > (kMax / 1000 - d) / 10) return std::nullopt;  // keep room for the x1000 below
    us = us * 10 + d;
  }
  int64_t ns = us * 1000;
  if (i < text.size()) {
    if (text[i] != '.') return std::nullopt;
    ++i;
    if (i >= text.size() || !is_digit(text[i])) return std::nullopt;
    int64_t scale = 100;
    bool round_up = false;
    for (int digit = 0; i < text.size() && is_digit(text[i]); ++i, ++digit) {
      if (digit < 3) {
        ns += (text[i] - '0') * scale;
        scale /= 10;
      } else if (digit == 3) {
        round_up = text[i] >= '5';
      }
    }
    if (i != text.size()) return std::nullopt;
    if (round_up) ++ns;
  }
  return negative ? -ns : ns;
}

}  // namespace attnprof
