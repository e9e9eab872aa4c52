#include "analysis/text_match.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace attnprof {

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

size_t find_text(std::string_view text, std::string_view needle, size_t from) {
  if (needle.empty()) return from <= text.size() ? from : std::string_view::npos;
  // border[i]: the length of the longest proper prefix of needle[0..i] that is also its suffix.
  std::vector<size_t> border(needle.size(), 0);
  for (size_t i = 1, k = 0; i < needle.size(); ++i) {
    while (k > 0 && needle[i] != needle[k]) k = border[k - 1];
    if (needle[i] == needle[k]) ++k;
    border[i] = k;
  }
  for (size_t i = from, k = 0; i < text.size(); ++i) {
    while (k > 0 && text[i] != needle[k]) k = border[k - 1];
    if (text[i] == needle[k]) ++k;
    if (k == needle.size()) return i + 1 - needle.size();
  }
  return std::string_view::npos;
}

bool contains_ignoring_case(std::string_view text, std::string_view needle) {
  return find_text(to_lower(text), to_lower(needle)) != std::string_view::npos;
}

}  // namespace attnprof
