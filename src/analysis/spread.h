#pragma once
// A quantity measured once per region: its median, and its spread (min..max) so that a reader can
// tell a change from noise.

#include <vector>

namespace attnprof {

struct Spread {
  double median = 0, min = 0, max = 0;
  int count = 0;  // how many values (regions) it summarizes; 0 gives all zeros

  // Half the range: how far a single region may stray from the middle.
  double half_range() const { return (max - min) / 2; }
  bool varies() const { return max != min; }
};

// The median (the mean of the two middle values for an even count), min and max of `values`.
Spread spread_of(std::vector<double> values);

// A spread of a single value (a quantity that exists once, such as the typical region's main
// kernel).
Spread spread_of_one(double value);

}  // namespace attnprof
