#include "render/facts_json.h"

#include "analysis/regions/region_fact_catalog.h"

namespace attnprof {

namespace {

// A fact's value as JSON: a number (its median over the regions), a text (its first spelling), an
// object of counts by kind, or null where the trace cannot give it.
void write_fact_value(JsonWriter& w, const MetricValue& v) {
  if (!v.available) {
    w.null();
  } else if (v.type == MetricType::kText) {
    w.string(v.texts.empty() ? std::string() : v.texts.front());
  } else if (v.counts_by_kind) {
    w.begin_object();
    for (const auto& [kind, spread] : v.by_kind) w.key(kind).number(spread.median);
    w.end_object();
  } else {
    w.number(v.number.median);
  }
}

}  // namespace

void write_median_fields(JsonWriter& w, const RegionFacts& f) {
  for (const RegionFact& fact : region_fact_catalog())
    if (fact.json == FactJson::kMedian) write_fact_value(w.key(fact.name), fact.of_facts(f));
}

void write_region_fields(JsonWriter& w, const RegionSummary& r) {
  for (const RegionFact& fact : region_fact_catalog())
    if (fact.region_json == RegionJson::kField)
      write_fact_value(w.key(fact.name), fact.of_region(r));
}

void write_main_kernel_fields(JsonWriter& w, const RegionFacts& f) {
  const MainKernel none;
  const MainKernel& k = f.main_kernel ? *f.main_kernel : none;
  for (const RegionFact& fact : region_fact_catalog())
    if (fact.json == FactJson::kMainKernel)
      write_fact_value(w.key(fact.name), fact.of_main_kernel(k));
}

void write_finding(JsonWriter& w, const Finding& f) {
  w.begin_object();
  w.key("id").string(finding_id(f.kind));
  w.key("summary").string(f.summary);
  w.key("evidence").begin_array();
  for (const auto& e : f.evidence) w.string(e);
  w.end_array();
  w.key("suggestion").string(f.suggestion);
  w.key("regions_affected").number(f.regions_affected);
  if (f.explains_ns >= 0)
    w.key("explains_us").number(f.explains_ns / 1000.0);
  else
    w.key("explains_us").null();
  w.end_object();
}

void write_expectation_result(JsonWriter& w, const ExpectationResult& r) {
  w.begin_object();
  w.key("expression").string(r.text);
  w.key("source").string(r.source);
  w.key("holds").boolean(r.holds);
  // What the trace shows for each metric of the expression, keyed by metric: a number (the
  // median over regions), a text, or null where the trace cannot give it (docs/METRICS.md); the
  // words as the text output prints them beside.
  w.key("actual").begin_object();
  for (const auto& v : r.values) {
    w.key(v.metric);
    if (!v.available)
      w.null();
    else if (v.number)
      w.number(*v.number);
    else
      w.string(v.text);
  }
  w.end_object();
  w.key("actual_text").string(r.actual);
  w.end_object();
}

}  // namespace attnprof
