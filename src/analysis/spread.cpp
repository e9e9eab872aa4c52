#include "analysis/spread.h"

#include <algorithm>

namespace attnprof {

Spread spread_of(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  size_t n = values.size();
  s.count = static_cast<int>(n);
  s.min = values.front();
  s.max = values.back();
  s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return s;
}

Spread spread_of_one(double value) {
  return Spread{value, value, value, 1};
}

}  // namespace attnprof
