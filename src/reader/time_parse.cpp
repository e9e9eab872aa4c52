#include "reader/time_parse.h"

#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <string>

#include "reader/ascii_digits.h"

namespace attnprof {

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

std::optional<int64_t> via_double(std::string_view text) {
  double us = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), us);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  double ns = std::round(us * 1000.0);
  if (!std::isfinite(ns) || std::fabs(ns) > 9.2e18) return std::nullopt;
  return static_cast<int64_t>(ns);
}

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// Every case: exponents, overflow, malformed text.
std::optional<int64_t> any_microseconds_text_to_ns(std::string_view text) {
  while (!text.empty() &&
         (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
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
    int64_t fraction_ns = 0;
    bool round_up = false;
    for (int digit = 0; i < text.size() && is_digit(text[i]); ++i, ++digit) {
      if (digit < 3) {
        fraction_ns += (text[i] - '0') * scale;
        scale /= 10;
      } else if (digit == 3) {
        round_up = text[i] >= '5';
      }
    }
    if (i != text.size()) return std::nullopt;
    if (round_up) ++fraction_ns;
    // The check above left room for the x1000, not for the fraction: 9223372036854775.808 us is
    // one past int64's largest ns (fuzz regression time-fraction-past-int64.json).
    if (ns > kMax - fraction_ns) return std::nullopt;
    ns += fraction_ns;
  }
  return negative ? -ns : ns;
}

// Kineto's own form, "<6 to 15 digits>.<3 digits>" (it prints microseconds with three decimals),
// sixteen digits at a time (reader/ascii_digits.h). [p, p + n) is the trimmed text; every load
// stays inside it. Nothing when the text has another form.
std::optional<int64_t> three_decimals_to_ns(const char* p, size_t n) {
  if (n < 10 || n > 19 || p[n - 4] != '.') return std::nullopt;
  // The last five digits before the point and the three after it, the point dropped.
  uint64_t low = ascii_digits::load8(p + n - 9);
  low = (low & 0xFFFFFFFFFF) | (low >> 48 << 40) |
        uint64_t{static_cast<unsigned char>(p[n - 1])} << 56;
  if (!ascii_digits::all_digits(low)) return std::nullopt;
  // The digits before those: k of them, one to ten.
  const size_t k = n - 9;
  uint64_t top = 0, high;
  if (k <= 8) {
    high = ascii_digits::padded(ascii_digits::load8(p), static_cast<unsigned>(k));
  } else {
    for (size_t i = 0; i < k - 8; ++i) {
      if (!is_digit(p[i])) return std::nullopt;
      top = top * 10 + static_cast<uint64_t>(p[i] - '0');
    }
    high = ascii_digits::load8(p + k - 8);
  }
  if (!ascii_digits::all_digits(high)) return std::nullopt;
  // At most 18 digits: below 1e18, no overflow.
  return static_cast<int64_t>((top * 100000000 + ascii_digits::value(high)) * 100000000 +
                              ascii_digits::value(low));
}

}  // namespace

// The common case, Kineto's "<up to 15 digits>.<digits>", without overflow checks (15 digits of
// microseconds are below 1e18 ns); anything else goes to the general parser, so both agree.
std::optional<int64_t> microseconds_text_to_ns(std::string_view text) {
  const char* p = text.data();
  const char* end = p + text.size();
  while (end > p && is_space(end[-1])) --end;
  if (auto ns = three_decimals_to_ns(p, static_cast<size_t>(end - p))) return ns;
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  const char* digits = p;
  uint64_t us = 0;
  while (p < end && is_digit(*p)) us = us * 10 + static_cast<uint64_t>(*p++ - '0');
  if (p == digits || p - digits > 15) return any_microseconds_text_to_ns(text);
  uint64_t ns = us * 1000;
  if (p < end) {
    if (*p != '.' || p + 1 == end || !is_digit(p[1])) return any_microseconds_text_to_ns(text);
    ++p;
    if (is_digit(*p)) ns += static_cast<uint64_t>(*p++ - '0') * 100;
    if (p < end && is_digit(*p)) ns += static_cast<uint64_t>(*p++ - '0') * 10;
    if (p < end && is_digit(*p)) ns += static_cast<uint64_t>(*p++ - '0');
    if (p < end && is_digit(*p)) {
      ns += *p >= '5';  // rounds half away from zero: the sign comes after
      while (++p < end && is_digit(*p)) {
      }
    }
    if (p != end) return any_microseconds_text_to_ns(text);
  }
  auto value = static_cast<int64_t>(ns);
  return negative ? -value : value;
}

}  // namespace attnprof
