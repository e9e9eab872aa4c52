#pragma once
// What diff's renderers read of a per-region quantity's catalog entry (its words, unit and
// whether a table shows it): every format loops over TraceDiff::per_region and asks here.

#include "analysis/regions/region_fact_catalog.h"
#include "attnprof/trace_diff.h"

namespace attnprof {

// How the region facts catalog says diff compares the quantity's fact.
const FactComparison& comparison_of(const FactDiff& quantity);

// Whether text, Markdown and HTML show it: always, or where it changed (the waits).
bool shown_in_tables(const FactDiff& quantity);

}  // namespace attnprof
