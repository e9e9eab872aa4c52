#pragma once
// Case-insensitive matching of names: kernel classes match keywords this way, and `check`'s `~`
// matches kernel names this way.

#include <string>
#include <string_view>

namespace attnprof {

// ASCII lowercase.
std::string to_lower(std::string_view text);

// Whether `text` contains `needle`, ignoring ASCII case.
bool contains_ignoring_case(std::string_view text, std::string_view needle);

}  // namespace attnprof
