#pragma once
// The region facts catalog: every fact of a trace's regions (include/attnprof/region_facts.h)
// declared once, with its one name (the JSON key, `check`'s metric and the Python column), its
// unit, its meaning, what it needs, where analyze's JSON writes it, and how to read it from the
// facts and from one region. `check`'s metrics (region_metrics.cpp), analyze's and summary.json's
// medians and main kernel (render/facts_json.cpp), analyze's JSON `regions[]`
// (render/analyze/analyze_json.cpp), analyze's terminal and Markdown region tables
// (render/analyze/region_table.h), `diff`'s per-region quantities (analysis/diff/trace_diff.cpp,
// render/diff/, the Python module's `diff`), the Python module's `regions` table and
// docs/METRICS.md (render/metrics_doc.cpp) all read it, as Perfetto's stats table is read by every
// output.
// docs/ARCHITECTURE.md ("Adding a metric") shows how a fact is added.

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"

namespace attnprof {

// The type of a metric's value in `check`'s expressions.
enum class MetricType : uint8_t { kNumber, kText };

// A fact's unit. Durations are microseconds everywhere (JSON, CSV, Python, check); `diff` gives a
// size in MiB.
enum class FactUnit : uint8_t {
  kCount,
  kMicroseconds,
  kPercent,
  kBytes,
  kMebibytes,
  kTeraflop,
  kText
};
// "count", "µs", "%", "bytes", "MiB", "TFLOP", "text"
std::string_view fact_unit_name(FactUnit unit);

// What a fact needs to be known: regions, the typical region's main kernel, or hardware
// counters (bench --counters); or nothing (how many regions matched, known with none).
enum class FactSource : uint8_t { kRegions, kMainKernel, kCounters, kTrace };

// Where analyze's JSON (and the bench's summary.json) writes a fact of the whole trace: among the
// medians (`median`), beside them (the main kernel's fields), or nowhere (check's alone).
enum class FactJson : uint8_t { kNone, kMedian, kMainKernel };

// Where analyze's JSON writes a region's own value: a field of each `regions[]` object (in the
// catalog's order), in its `time_breakdown` (render/analyze/analyze_json.cpp's write_breakdown), or
// nowhere (the waits, which it gives stream by stream).
enum class RegionJson : uint8_t { kNone, kField, kBreakdown };

// Where analyze's terminal and Markdown reports show a fact: a column of the region table (the
// terminal's row per region and the median row; Markdown's medians), a column of Markdown's time
// breakdown table (the terminal says the breakdown in words), or neither. Columns follow the
// catalog's order.
enum class RegionTable : uint8_t { kNone, kRegions, kBreakdown };

// Which of `diff`'s rows show a fact it compares: text, Markdown and HTML show it always, or only
// where it changed (the waits, of which a few change); JSON and Python give it always.
enum class DiffShown : uint8_t { kAlways, kWhenChanged };

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

// How `diff` compares a fact over the regions of two traces (attnprof/trace_diff.h): by the rule of
// its unit (a duration's, a count's, a size's), where both traces have it.
struct FactComparison {
  std::string name;   // diff's JSON key and Python quantity: the fact's name, or peak_allocated_mib
  std::string label;  // its row's words, which each format gives its unit: the fact's label
  FactUnit unit = FactUnit::kCount;  // kMicroseconds, kCount or kMebibytes
  DiffShown shown = DiffShown::kAlways;
  // Its spread over a trace's regions as the rule reads it: a duration in ns, a size in MiB, a
  // count; or counts by kind. Unavailable, or a spread of no region: the trace lacks it.
  std::function<MetricValue(const RegionFacts&)> value;
};

struct RegionFact {
  std::string name;  // the JSON key, check's metric, the Python column where there is one
  // Several facts of one family ("kernels.CLASS"): docs/METRICS.md lists the family once.
  std::string family;
  FactUnit unit = FactUnit::kCount;
  FactSource source = FactSource::kRegions;
  FactJson json = FactJson::kNone;
  RegionJson region_json = RegionJson::kNone;
  // Whole numbers in each region (kernels, the longest queue): an integer column in Python, 0
  // where a region lacks the value.
  bool whole = false;
  // A column of the Python module's `regions` table, in the catalog's order: every fact written
  // per region but memcpy_by_kind (an object), and the waits, which analyze's JSON gives stream by
  // stream (and trace summaries of version 2 carry, so that merge
  // and Dask give the same columns).
  bool python_region = false;
  // A metric of `check` (all but memcpy_by_kind, which has memcpy_dtod, ..., and gpu_syncs).
  bool check = true;
  std::string meaning;
  // The words analyze's tables and diff's rows show for it ("GPU busy"), to which each format adds
  // the unit its way ("GPU busy µs", "GPU busy (µs)"); empty where they show its name, which says
  // its unit (idle_host_wait_us).
  std::string label;
  RegionTable table = RegionTable::kNone;
  // The fact whose counts by kind make up this count, which the region tables show beside it
  // ("3 (2 DtoD, 1 HtoD)"): memcpy's memcpy_by_kind; empty for none.
  std::string parts;
  // Set where `diff` compares the fact.
  std::optional<FactComparison> diff;
  // Exactly one of these reads the value of the trace: of the facts (regions and counters), of
  // the main kernel (the JSON writes an empty MainKernel's values when the typical region ran no
  // kernel), or, where neither is set, over the regions from of_region (fact_over_regions).
  std::function<MetricValue(const RegionFacts&)> of_facts;
  std::function<MetricValue(const MainKernel&)> of_main_kernel;
  // Its value in one region, in its unit (a single value's Spread); unavailable, with why, where
  // the region lacks it. Set for every fact written per region or in the Python `regions` table.
  std::function<MetricValue(const RegionSummary&)> of_region;
};

// Every fact, in the order check's JSON and docs/METRICS.md list them.
const std::vector<RegionFact>& region_fact_catalog();
const RegionFact* find_region_fact(std::string_view name);

// How many of the unit a fact's value is measured in make one of `unit`: 1000 ns per µs (diff
// compares durations in ns); 1 otherwise.
double measured_per_unit(FactUnit unit);

// A fact that only of_region reads, over `regions`: the spread of the regions that have it;
// unavailable, with the first region's reason, where none has.
MetricValue fact_over_regions(const RegionFact& fact, const std::vector<RegionSummary>& regions);

}  // namespace attnprof
