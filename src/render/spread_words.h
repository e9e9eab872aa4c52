#pragma once
// A spread over the regions (median, min, max) as words and as JSON.

#include <string>

#include "analysis/spread.h"
#include "render/json_writer.h"

namespace attnprof {

// A spread of nanoseconds in microseconds: "2271.2 (2270.8..2272.5)", or "2271.2" when min and
// max read the same.
std::string format_spread_us(const Spread& s);

// A spread of counts: "5 (4..6)", or "5" when min and max are the same.
std::string format_spread_count(const Spread& s);

// {"median", "min", "max", "regions"}; `divisor` turns ns into us (1000), ms (1e6), or leaves a
// count (1): dividing keeps decimals such as 0.09192 exact in the output.
void write_json_spread(JsonWriter& w, const Spread& s, double divisor = 1);

}  // namespace attnprof
