#pragma once
// Text cells of the study's table in a terminal: cut to a width, measured in code points. Numbers
// and their units are formatted by the core's base/format_units.h, as every output does.

#include <cstddef>
#include <string>

namespace attnprof::bench {

// At most `width` characters (UTF-8 code points) of `text`, ending in "…" when cut.
std::string truncate_text(const std::string& text, size_t width);
// Display width of UTF-8 text: code points, not bytes ("µs" is 2).
size_t display_width(const std::string& text);

}  // namespace attnprof::bench
