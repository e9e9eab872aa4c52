#pragma once
// Sums of durations over events that may overlap: ops on many threads, kernels on many streams,
// every region's activities of one class. Each time is within the reader's bounds (2^61 ns), yet
// a hostile trace can hold enough of them to pass int64 (fuzz regressions *-sum-beyond-int64.json);
// such a sum stops at int64's largest value, 292 years, which every report shows as the absurd
// number it is.

#include <cstdint>
#include <limits>

namespace attnprof {

inline void add_duration(int64_t& sum, int64_t duration_ns) {
  if (__builtin_add_overflow(sum, duration_ns, &sum))
    sum =
        duration_ns > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}

}  // namespace attnprof
