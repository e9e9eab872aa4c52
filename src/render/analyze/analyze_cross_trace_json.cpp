// The "across_traces" object of `attnprof analyze --format json` (docs/json-schema.md).

#include "render/analyze/analyze_output.h"

namespace attnprof {

namespace {

// `divisor` turns ns into us (1000) or leaves a count (1).
void write_quantity(JsonWriter& w, const QuantityAcrossTraces& q, double divisor,
                    bool with_slowest) {
  w.begin_object();
  w.key("min").number(q.min / divisor);
  w.key("median").number(q.median / divisor);
  w.key("max").number(q.max / divisor);
  w.key("spread").number(q.spread);
  if (with_slowest) {
    w.key("slowest");
    if (q.slowest >= 0)
      w.number(q.slowest);
    else
      w.null();
  }
  w.key("by_trace").begin_array();
  for (double v : q.by_trace) w.number(v / divisor);
  w.end_array();
  w.end_object();
}

void write_region(JsonWriter& w, const RegionAcrossTraces& r) {
  w.begin_object();
  w.key("name").string(r.name);
  w.key("traces").begin_array();
  for (int t : r.traces) w.number(t);
  w.end_array();
  w.key("wall_us");
  write_quantity(w, r.wall_ns, 1000, true);
  w.key("gpu_busy_us");
  write_quantity(w, r.gpu_busy_ns, 1000, true);
  w.key("kernels");
  write_quantity(w, r.kernels, 1, false);
  w.key("kernel_counts_differ").boolean(r.kernel_counts_differ());
  // The time breakdown across traces (docs/BREAKDOWN.md).
  for (auto [key, q] :
       {std::pair{"idle_us", &r.idle_ns}, std::pair{"compute_us", &r.compute_ns},
        std::pair{"communication_us", &r.communication_ns}, std::pair{"memory_us", &r.memory_ns}}) {
    w.key(key);
    write_quantity(w, *q, 1000, true);
  }
  w.key("collective_lag_us");
  if (r.collectives_compared > 0)
    write_quantity(w, r.collective_lag_ns, 1000, true);
  else
    w.null();
  w.key("collectives_compared").number(r.collectives_compared);
  w.key("collective_lags").begin_array();
  for (const CollectiveLagAcrossTraces& c : r.collective_lags) {
    w.begin_object();
    w.key("name").string(c.name);
    w.key("dtype").string(c.dtype);
    w.key("group_size");
    c.group_size < 0 ? w.null() : w.number(c.group_size);
    w.key("traces").begin_array();
    for (int t : c.traces) w.number(t);
    w.end_array();
    w.key("compared").number(c.compared);
    w.key("lag_us");
    write_quantity(w, c.lag_ns, 1000, true);
    w.end_object();
  }
  w.end_array();
  w.key("job_path");
  if (r.job_path) {
    const JobPathAcrossRanks& j = *r.job_path;
    w.begin_object();
    w.key("collectives").number(j.collectives);
    w.key("length_us").number(j.length_ns / 1000.0);
    w.key("communication_us").number(j.communication_ns / 1000.0);
    w.key("held_us").begin_array();
    for (double ns : j.held_ns) w.number(ns / 1000.0);
    w.end_array();
    w.key("waited_us").begin_array();
    for (double ns : j.waited_ns) w.number(ns / 1000.0);
    w.end_array();
    w.key("held_by");
    j.held_by < 0 ? w.null() : w.number(j.held_by);
    w.key("held_with").string(j.held_with);
    w.end_object();
  } else {
    w.null();
  }
  w.key("unmatched_collectives").begin_array();
  for (const std::string& words : r.unmatched_collectives) w.string(words);
  w.end_array();
  w.end_object();
}

}  // namespace

void write_cross_trace_json(JsonWriter& w, const CrossTraceSummary& across,
                            const std::vector<TraceAnalysis>& traces) {
  w.begin_object();
  w.key("labelled_by").string(across.labelled_by_rank ? "rank" : "file");
  w.key("traces").begin_array();
  for (size_t i = 0; i < across.labels.size(); ++i) {
    const TraceLabel& label = across.labels[i];
    w.begin_object();
    w.key("label").string(label.text);
    w.key("path").string(traces[i].path);
    w.key("rank");
    if (label.has_rank)
      w.number(label.rank);
    else
      w.null();
    w.key("slowest_by_wall").number(across.slowest_by_wall[i]);
    w.key("latest_collectives").number(across.latest_collectives[i]);
    w.key("max_collective_lag_us").number(across.max_collective_lag_ns[i] / 1000.0);
    w.key("held_job").number(across.held_job[i]);
    w.end_object();
  }
  w.end_array();
  w.key("compared_regions").number(across.compared_regions);
  w.key("regions").begin_array();
  for (const auto& r : across.regions) write_region(w, r);
  w.end_array();
  w.key("median_region");
  write_region(w, across.median_region);
  w.end_object();
}

}  // namespace attnprof
