#include "render/diff/diff_quantity.h"

namespace attnprof {

const FactComparison& comparison_of(const FactDiff& quantity) {
  // diff_traces makes a quantity only of a fact that the catalog compares.
  return *find_region_fact(quantity.fact)->diff;
}

bool shown_in_tables(const FactDiff& quantity) {
  return comparison_of(quantity).shown == DiffShown::kAlways || quantity.quantity.changed;
}

}  // namespace attnprof
