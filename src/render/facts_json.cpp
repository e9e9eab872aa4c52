#include "render/facts_json.h"

namespace attnprof {

namespace {

JsonWriter& number_or_null(JsonWriter& w, const std::optional<double>& value) {
  return value ? w.number(*value) : w.null();
}

}  // namespace

void write_median_fields(JsonWriter& w, const RegionFacts& f) {
  w.key("kernels").number(f.kernels.median);
  w.key("memcpy").number(f.memcpy.median);
  w.key("memcpy_by_kind").begin_object();
  for (const auto& [kind, spread] : f.memcpy_by_kind) w.key(kind).number(spread.median);
  w.end_object();
  w.key("memset").number(f.memset.median);
  w.key("gpu_busy_us").number(f.gpu_busy_ns.median / 1000.0);
  w.key("wall_us").number(f.wall_ns.median / 1000.0);
  w.key("cpu_us").number(f.cpu_ns.median / 1000.0);
}

void write_main_kernel_fields(JsonWriter& w, const RegionFacts& f) {
  const MainKernel none;
  const MainKernel& k = f.main_kernel ? *f.main_kernel : none;
  w.key("main_kernel").string(k.short_name);
  w.key("main_kernel_us").number(static_cast<double>(k.duration_ns) / 1000.0);
  w.key("launch_api").string(k.launch_api);
  number_or_null(w.key("occupancy_pct"), k.occupancy_pct);
  w.key("occupancy_limiter").string(k.occupancy_limiter);
  number_or_null(w.key("kineto_occupancy_pct"), k.kineto_occupancy_pct);
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
  w.end_object();
}

void write_expectation_result(JsonWriter& w, const ExpectationResult& r) {
  w.begin_object();
  w.key("expression").string(r.text);
  w.key("source").string(r.source);
  w.key("holds").boolean(r.holds);
  // What the trace shows for each metric of the expression, keyed by metric: a number (the
  // median over regions), a text, or null where the trace cannot give it (issue 16); the words
  // as the text output prints them beside.
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
