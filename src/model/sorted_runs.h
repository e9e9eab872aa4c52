#pragma once
// A stable sort for tables that arrive nearly sorted. A trace lists each thread's events mostly by
// start time, in a few long runs (Kineto writes the events of each kind of activity in turn), so
// the sort finds those runs and merges neighbours, moving only the rows where two runs overlap.
// Input in many short runs falls back to std::stable_sort. Rows that compare equal keep their
// order.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace attnprof {

template <typename It, typename Less>
void stable_sort_runs(It first, It last, Less less) {
  const size_t n = static_cast<size_t>(last - first);
  if (n < 2) return;
  std::vector<size_t> bounds{0};  // where each run begins, then n
  for (size_t i = 1; i < n; ++i)
    if (less(first[i], first[i - 1])) bounds.push_back(i);
  if (bounds.size() == 1) return;
  if (bounds.size() > n / 16) {
    std::stable_sort(first, last, less);
    return;
  }
  bounds.push_back(n);
  // Merge neighbouring runs pairwise until one is left. Of two runs, the left's rows up to the
  // right's first, and the right's rows from the left's last on, are already in place.
  while (bounds.size() > 2) {
    std::vector<size_t> merged{0};
    size_t k = 0;
    for (; k + 2 < bounds.size(); k += 2) {
      It a = first + bounds[k], m = first + bounds[k + 1], b = first + bounds[k + 2];
      if (less(*m, *(m - 1))) {
        It lo = std::upper_bound(a, m, *m, less);
        It hi = std::lower_bound(m, b, *(m - 1), less);
        std::inplace_merge(lo, m, hi, less);
      }
      merged.push_back(bounds[k + 2]);
    }
    if (k + 2 == bounds.size()) merged.push_back(bounds.back());  // an odd run out
    bounds.swap(merged);
  }
}

}  // namespace attnprof
