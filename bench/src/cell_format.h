#pragma once
// Numbers as the study's table shows them, with their units. Counts and bytes are formatted by
// the core's base/format_units.h, as in `attnprof analyze`'s tables.

#include <cstddef>
#include <string>

namespace attnprof::bench {

std::string format_duration_us(double microseconds);  // "157.2 µs", "7.41 ms", "1.20 s"
std::string format_error(double relative_error);      // "3.1e-03"; "nan"
std::string format_percent(double percent);           // "13.2 %"

// At most `width` characters (UTF-8 code points) of `text`, ending in "…" when cut.
std::string truncate_text(const std::string& text, size_t width);
// Display width of UTF-8 text: code points, not bytes ("µs" is 2).
size_t display_width(const std::string& text);

}  // namespace attnprof::bench
