#pragma once
// Case-insensitive matching of names: kernel classes match keywords this way, and `check`'s `~`
// matches kernel names this way.

#include <string>
#include <string_view>

namespace attnprof {

// ASCII lowercase.
std::string to_lower(std::string_view text);

// The first position at or after `from` where `needle` occurs in `text`, or npos; linear in
// both lengths (Knuth-Morris-Pratt), whatever the names hold (std::string::find compares anew
// from each position: a 50,000-character needle against a 1 MB name takes minutes).
size_t find_text(std::string_view text, std::string_view needle, size_t from = 0);

// Whether `text` contains `needle`, ignoring ASCII case; linear as find_text.
bool contains_ignoring_case(std::string_view text, std::string_view needle);

}  // namespace attnprof
