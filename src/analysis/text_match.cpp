#include "analysis/text_match.h"

#include <algorithm>
#include <cctype>

namespace attnprof {

std::string to_lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool contains_ignoring_case(std::string_view text, std::string_view needle) {
  return to_lower(text).find(to_lower(needle)) != std::string::npos;
}

}  // namespace attnprof
