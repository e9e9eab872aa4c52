#pragma once
// A variant's kernels summed into one row of counters (the table's, summary.json's and check's),
// and the kernel that took the longest (its roofline point beside the variant's).

#include <optional>
#include <vector>

#include "attnprof/hardware_counters.h"

namespace attnprof {

// Durations, bytes and operations add up; each percentage is the mean of the kernels that report
// it, weighted by their durations. A sum is unknown when no kernel reports its counter; bytes are
// unknown when some kernel with a duration lacks them (a partial sum would pass for the whole).
CounterTotals total_counters(const std::vector<KernelCounters>& kernels);

// The index of the longest kernel (the first of equals); nullopt for none or no durations.
std::optional<size_t> longest_kernel(const std::vector<KernelCounters>& kernels);

}  // namespace attnprof
