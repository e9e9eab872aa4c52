#include "cell_format.h"

namespace attnprof::bench {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

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
