#pragma once
// The metrics `check` tests: the names of the region facts (include/attnprof/region_facts.h) in
// expressions, with their units (ms, KiB) and what each means.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/spread.h"
#include "attnprof/analysis.h"

namespace attnprof {

// The metric names `check` knows, with the type of their value.
enum class MetricType : uint8_t { kNumber, kText };
struct MetricInfo {
  std::string name;
  MetricType type;
  std::string meaning;
};
const std::vector<MetricInfo>& metric_catalog();
const MetricInfo* find_metric(std::string_view name);

// A metric's value in one trace. A text value may have several spellings that `~` and `==` try
// (main_kernel: its short name, then its full name); the first one is shown.
struct MetricValue {
  bool available = false;
  std::string
      why_unavailable;  // "no region matches \"forward\"", "the typical region ran no kernel"
  MetricType type = MetricType::kNumber;
  Spread number;  // medians over regions; a single value for the main kernel's properties
  std::vector<std::string> texts;
};

// A metric of `analysis`'s facts. An unknown `name` gives an unavailable value that says so.
MetricValue metric_value(const TraceAnalysis& analysis, std::string_view name);

}  // namespace attnprof
