#pragma once
// Spreads (include/attnprof/region_facts.h) of values measured once per region.

#include <vector>

#include "attnprof/region_facts.h"

namespace attnprof {

// The median (the mean of the two middle values for an even count), min and max of `values`.
Spread spread_of(std::vector<double> values);

// A spread of a single value (a quantity that exists once, such as the typical region's main
// kernel).
Spread spread_of_one(double value);

}  // namespace attnprof
