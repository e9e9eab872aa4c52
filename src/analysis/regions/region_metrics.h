#pragma once
// The metrics `check` tests: the region facts of the catalog
// (analysis/regions/region_fact_catalog.h), under the same names and units as analyze's JSON and
// the Python module, and the spellings of the release before (gpu_time_ms, ...), still read for one
// release with a note.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/regions/region_fact_catalog.h"
#include "attnprof/analysis.h"

namespace attnprof {

struct MetricInfo {
  std::string name;
  MetricType type;
  std::string meaning;
};

// The metrics by their current names, in the catalog's order.
const std::vector<MetricInfo>& metric_catalog();
// A metric by a current or an old name.
const MetricInfo* find_metric(std::string_view name);

// For an old spelling, the one line to print on stderr: "gpu_time_ms is now gpu_busy_us (µs)...";
// none for a current name.
std::optional<std::string> renamed_metric_note(std::string_view name);

// A metric of `analysis`'s facts. An unknown `name` gives an unavailable value that says so. An
// old spelling gives its value in its old unit (gpu_time_ms in ms).
MetricValue metric_value(const TraceAnalysis& analysis, std::string_view name);

}  // namespace attnprof
