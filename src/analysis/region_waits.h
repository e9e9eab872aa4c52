#pragma once
// A region's idle time by cause, launch delays and queues as single numbers (RegionWaits), and
// their spread over the regions (WaitFacts): what check's metrics, diff, the Python module and
// the report say of them (docs/BREAKDOWN.md, "The same figures in check, diff and Python").

#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"

namespace attnprof {

RegionWaits region_waits(const RegionSummary& region);

WaitFacts wait_facts(const std::vector<RegionSummary>& regions);

}  // namespace attnprof
