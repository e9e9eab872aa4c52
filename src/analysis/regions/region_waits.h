#pragma once
// A region's idle time by cause, launch delays and queues as single numbers (RegionWaits), and
// their spread over the regions (WaitFacts): what check's metrics, diff, the Python module and
// the report say of them (docs/BREAKDOWN.md, "The same figures in check, diff and Python").

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"

namespace attnprof {

enum class WaitUnit : uint8_t {
  kTime,        // nanoseconds here, microseconds where shown (`_us`)
  kCount,       // a whole number (the longest queue)
  kMeanLength,  // a mean queue length
};

// One wait metric, declared once: check's metric and the region facts catalog's entry, the Python
// module's `regions` column, diff's row and the report's column all read it, in this order.
struct WaitMetric {
  std::string_view name;  // "idle_host_wait_us"
  WaitUnit unit;
  bool in_report;            // a column of the report's table of waits
  bool needs_launches;       // unknown in a region without the launch calls of its GPU work
  std::string_view meaning;  // docs/METRICS.md's
  std::optional<double> (*of_region)(const RegionWaits&);  // none where the region lacks it
  Spread WaitFacts::*over_regions;
};

std::span<const WaitMetric> wait_metrics();

RegionWaits region_waits(const RegionSummary& region);

WaitFacts wait_facts(const std::vector<RegionSummary>& regions);

}  // namespace attnprof
