#pragma once
// Where RegionFacts (include/attnprof/region_facts.h) are computed, each fact in one place: the
// medians here, from the regions' summaries; the class totals and the choice of the main kernel
// in summarize.cpp, which has the model. Nothing else computes a fact: outputs read them.

#include <array>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"

namespace attnprof {

// The counts and times over `regions`: kernels, memcpy (and by kind), memset, GPU busy, wall and
// CPU time. The class totals and the main kernel are left empty.
RegionFacts facts_of_summaries(const std::vector<RegionSummary>& regions);

// The typical region's longest kernel, as listed.
MainKernel main_kernel_of(const ActivityRow& kernel);

// Index into `regions` of the typical one: the closest to the medians in activity counts, then in
// GPU busy time; -1 when there are none.
int typical_region(const std::vector<RegionSummary>& regions, const RegionFacts& facts);

}  // namespace attnprof
