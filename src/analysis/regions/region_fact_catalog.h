#pragma once
// The region facts catalog: every fact of a trace's regions (include/attnprof/region_facts.h)
// declared once, with its one name (the JSON key and `check`'s metric), its unit, its meaning,
// what it needs, where analyze's JSON writes it, and how to read it from the facts. `check`'s
// metrics (region_metrics.cpp), analyze's and summary.json's medians and main kernel
// (render/facts_json.cpp) and docs/METRICS.md (render/metrics_doc.cpp) all read it, as
// Perfetto's stats table is read by every output. docs/ARCHITECTURE.md ("The catalogs") shows how
// a fact is added.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/region_facts.h"

namespace attnprof {

// The type of a metric's value in `check`'s expressions.
enum class MetricType : uint8_t { kNumber, kText };

// A fact's unit. Durations are microseconds everywhere (JSON, CSV, Python, check).
enum class FactUnit : uint8_t { kCount, kMicroseconds, kPercent, kBytes, kTeraflop, kText };
std::string_view fact_unit_name(FactUnit unit);  // "count", "µs", "%", "bytes", "TFLOP", "text"

// What a fact needs to be known: regions, the typical region's main kernel, or hardware
// counters (bench --counters).
enum class FactSource : uint8_t { kRegions, kMainKernel, kCounters };

// Where analyze's JSON (and the bench's summary.json) writes a fact of the whole trace: among the
// medians (`median`), beside them (the main kernel's fields), or nowhere (check's alone).
enum class FactJson : uint8_t { kNone, kMedian, kMainKernel };

// A fact's value in one trace. A text value may have several spellings that `~` and `==` try
// (main_kernel: its short name, then its full name); the first one is shown.
struct MetricValue {
  bool available = false;
  std::string
      why_unavailable;  // "no region matches \"forward\"", "the typical region ran no kernel"
  MetricType type = MetricType::kNumber;
  Spread number;  // medians over regions; a single value for the main kernel's properties
  std::vector<std::string> texts;
  // A count per kind instead of a number (memcpy_by_kind: {"DtoD": ...}).
  bool counts_by_kind = false;
  std::map<std::string, Spread> by_kind;
};

struct RegionFact {
  std::string name;  // the JSON key, check's metric, the Python column where there is one
  // Several facts of one family ("kernels.CLASS"): docs/METRICS.md lists the family once.
  std::string family;
  FactUnit unit = FactUnit::kCount;
  FactSource source = FactSource::kRegions;
  FactJson json = FactJson::kNone;
  // Also measured per region under the same name in analyze's JSON `regions[]` (the breakdown's
  // in its `time_breakdown`).
  bool per_region = false;
  // A column of the Python module's `regions` table: every per_region fact, and the waits, which
  // analyze's JSON gives stream by stream (and trace summaries of version 2 carry, so that merge
  // and Dask give the same columns).
  bool python_region = false;
  bool check = true;  // a metric of `check` (all but memcpy_by_kind, which has memcpy_dtod, ...)
  std::string meaning;
  // Exactly one of these reads the value: of the facts (regions and counters), or of the main
  // kernel (the JSON writes an empty MainKernel's values when the typical region ran no kernel).
  std::function<MetricValue(const RegionFacts&)> of_facts;
  std::function<MetricValue(const MainKernel&)> of_main_kernel;
};

// Every fact, in the order check's JSON and docs/METRICS.md list them.
const std::vector<RegionFact>& region_fact_catalog();
const RegionFact* find_region_fact(std::string_view name);

}  // namespace attnprof
