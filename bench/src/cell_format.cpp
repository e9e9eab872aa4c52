#include "cell_format.h"

#include <cmath>

#include <fmt/format.h>

namespace attnprof::bench {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

std::string format_duration_us(double us) {
  if (us < 1e3) return fmt::format("{:.1f} µs", us);
  if (us < 1e6) return fmt::format("{:.2f} ms", us / 1e3);
  return fmt::format("{:.2f} s", us / 1e6);
}

std::string format_error(double relative_error) {
  if (std::isnan(relative_error)) return "nan";
  return fmt::format("{:.1e}", relative_error);
}

std::string format_percent(double percent) {
  return fmt::format("{:.1f} %", percent);
}

size_t display_width(const std::string& text) {
  size_t width = 0;
  for (char c : text) width += is_continuation_byte(c) ? 0 : 1;
  return width;
}

std::string truncate_text(const std::string& text, size_t width) {
  if (width == 0 || display_width(text) <= width) return text;
  size_t kept = 0, end = 0;
  while (end < text.size()) {
    if (!is_continuation_byte(text[end])) {
      if (kept == width - 1) break;
      ++kept;
    }
    ++end;
  }
  return text.substr(0, end) + "…";
}

}  // namespace attnprof::bench
