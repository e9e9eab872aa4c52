#include "reader/json_scan.h"

#include <cstring>

namespace attnprof::json_scan {

size_t skip_space(std::string_view text, size_t pos) {
  while (pos < text.size() && is_space(text[pos])) ++pos;
  return pos;
}

ValueExtent scan_string(std::string_view text, size_t pos) {
  // One pass, escapes and all: the next quote is looked for again only once the scan has passed
  // it (an escaped quote), and each backslash search stops at that quote, so every byte is read
  // a bounded number of times. Searching the rest of the text for the quote after each escape
  // made a string of N escapes cost N times its length.
  const char* const base = text.data();
  const size_t size = text.size();
  size_t i = pos + 1;
  size_t q = pos;  // the first quote at or after i once i <= q; found when i passes it
  while (i < size) {
    if (q < i) {
      const void* quote = std::memchr(base + i, '"', size - i);
      q = quote ? static_cast<const char*>(quote) - base : size;
    }
    const void* slash = std::memchr(base + i, '\\', q - i);
    if (slash) {
      i = static_cast<const char*>(slash) - base + 2;  // the escaped byte is never a quote end
      continue;
    }
    if (q == size) break;
    return {Outcome::kComplete, q + 1};
  }
  return {Outcome::kNeedMore, size};
}

ValueExtent scan_value(std::string_view text, size_t pos, bool at_eof) {
  char first = text[pos];
  if (first == '"') return scan_string(text, pos);
  if (first == '{' || first == '[') {
    size_t depth = 0;
    size_t i = pos;
    while (i < text.size()) {
      char c = text[i];
      if (c == '"') {
        ValueExtent s = scan_string(text, i);
        if (s.outcome != Outcome::kComplete) return s;
        i = s.end;
        continue;
      }
      if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) return {Outcome::kInvalid, i};
        if (--depth == 0) return {Outcome::kComplete, i + 1};
      }
      ++i;
    }
    return {Outcome::kNeedMore, text.size()};
  }
  if (first == '}' || first == ']' || first == ',' || first == ':') return {Outcome::kInvalid, pos};
  size_t i = pos;
  while (i < text.size()) {
    char c = text[i];
    if (c == ',' || c == '}' || c == ']' || c == ':' || is_space(c)) break;
    if (c == '"' || c == '{' || c == '[') return {Outcome::kInvalid, i};
    ++i;
  }
  if (i == text.size() && !at_eof) return {Outcome::kNeedMore, i};
  return {Outcome::kComplete, i};
}

}  // namespace attnprof::json_scan
