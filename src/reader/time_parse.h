#pragma once
// Kineto prints times as microseconds with a fraction ("5145954783975.973"). A double holds
// only ~16 significant digits, and these values have 16 already: parse the decimal text into
// integer nanoseconds exactly instead.

#include <cstdint>
#include <optional>
#include <string_view>

namespace attnprof {

// Parses a JSON number given in microseconds into nanoseconds, rounding sub-nanosecond digits
// half away from zero. Accepts exponents (falls back to a double for those). Returns nullopt for
// text that is not a JSON number or overflows int64 nanoseconds. Trailing whitespace is ignored.
std::optional<int64_t> microseconds_text_to_ns(std::string_view text);

}  // namespace attnprof
