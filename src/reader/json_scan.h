#pragma once
// An exact, scalar scanner for the extent of JSON values. The reader uses it only where text is
// small or a fast cut failed: the top-level object around "traceEvents", and the rare chunk whose
// quick cut fell inside a string. simdjson validates whatever it finds.

#include <cstddef>
#include <string_view>

namespace attnprof::json_scan {

enum class Outcome { kComplete, kNeedMore, kInvalid };

struct ValueExtent {
  Outcome outcome;
  size_t end = 0;  // one past the value when complete; the offending byte when invalid
};

inline bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// First index at or after `pos` that is not JSON whitespace (text.size() if none).
size_t skip_space(std::string_view text, size_t pos);

// The extent of the value starting at text[pos] (a non-space byte). Strings, objects and arrays
// are matched exactly (escapes and nesting); scalars run to the next delimiter, so a scalar that
// touches the end of `text` needs more unless `at_eof`.
ValueExtent scan_value(std::string_view text, size_t pos, bool at_eof);

// The end of the string whose opening quote is text[pos].
ValueExtent scan_string(std::string_view text, size_t pos);

}  // namespace attnprof::json_scan
