// The JSON output of `attnprof analyze --format json`, schema in docs/json-schema.md.

#include <fmt/format.h>

#include "attnprof/render.h"
#include "render/analyze/analyze_output.h"
#include "render/attention/attention_calls_json.h"
#include "render/collectives_output.h"
#include "render/critical_path_output.h"
#include "render/facts_json.h"
#include "render/json_activity.h"
#include "render/json_writer.h"
#include "render/region_memory_json.h"
#include "render/top_tables_json.h"

namespace attnprof {

namespace {

void write_activity(JsonWriter& w, const ActivityRow& a) {
  w.begin_object();
  write_activity_fields(w, a);
  w.key("start_us").number(a.start_ns / 1000.0);
  w.key("duration_us").number(a.duration_ns / 1000.0);
  w.end_object();
}

// "time_breakdown" and "communication_overlap_pct" (docs/json-schema.md), in µs.
void write_breakdown(JsonWriter& w, const TimeBreakdown& b) {
  w.key("time_breakdown").begin_object();
  w.key("span_us").number(b.span_ns / 1000.0);
  w.key("busy_us").number(b.busy_ns / 1000.0);
  w.key("idle_us").number(b.idle_ns / 1000.0);
  w.key("compute_us").number(b.compute_ns / 1000.0);
  w.key("communication_us").number(b.communication_ns / 1000.0);
  w.key("memory_us").number(b.memory_ns / 1000.0);
  w.end_object();
  w.key("communication_overlap_pct");
  if (auto pct = b.communication_overlap_pct())
    w.number(*pct);
  else
    w.null();
}

// "idle_by_stream" (docs/json-schema.md), in µs.
void write_idle_by_stream(JsonWriter& w, const std::vector<StreamIdle>& streams) {
  w.key("idle_by_stream").begin_array();
  for (const StreamIdle& s : streams) {
    w.begin_object();
    w.key("stream").number(s.stream);
    w.key("busy_us").number(s.busy_ns / 1000.0);
    w.key("host_wait_us").number(s.host_wait_ns / 1000.0);
    w.key("kernel_gap_us").number(s.kernel_gap_ns / 1000.0);
    w.key("other_us").number(s.other_ns / 1000.0);
    w.end_object();
  }
  w.end_array();
}

// "launch_delays" and "queues" (docs/json-schema.md), in µs.
void write_launch_queue(JsonWriter& w, const LaunchDelays& d, const std::vector<StreamQueue>& qs) {
  w.key("launch_delays").begin_object();
  w.key("launched").number(d.launched);
  w.key("launch_start_to_start_median_us").number(d.median_ns / 1000.0);
  w.key("launch_start_to_start_p95_us").number(d.p95_ns / 1000.0);
  w.key("launch_start_to_start_max_us").number(d.max_ns / 1000.0);
  w.key("launch_end_to_start_median_us").number(d.end_to_start_median_ns / 1000.0);
  w.key("op_to_launch_median_us");
  if (d.op_to_launch_median_ns >= 0)
    w.number(d.op_to_launch_median_ns / 1000.0);
  else
    w.null();
  w.key("longest").begin_array();
  for (const LaunchDelay& l : d.longest) {
    w.begin_object();
    w.key("kernel").string(l.kernel);
    w.key("stream").number(l.stream);
    w.key("start_us").number(l.start_ns / 1000.0);
    w.key("launch_to_start_us").number(l.launch_to_start_ns / 1000.0);
    w.key("op_to_launch_us");
    if (l.op_to_launch_ns >= 0)
      w.number(l.op_to_launch_ns / 1000.0);
    else
      w.null();
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.key("queues").begin_array();
  for (const StreamQueue& q : qs) {
    w.begin_object();
    w.key("stream").number(q.stream);
    w.key("max_length").number(q.max_length);
    w.key("time_mean_length").number(q.mean_length);
    w.key("point_mean_length").number(q.point_mean_length);
    w.key("full_queue_us").number(q.full_ns / 1000.0);
    w.end_object();
  }
  w.end_array();
}

void write_trace(JsonWriter& w, const TraceAnalysis& t, const RegionActivities& activities,
                 const RegionTablesOf& tables) {
  w.begin_object();
  w.key("path").string(t.path);
  w.key("json_bytes").number(t.json_bytes);
  w.key("events").number(t.events);
  w.key("region_pattern").string(t.region_pattern);
  w.key("devices").begin_array();
  for (const auto& d : t.devices) {
    w.begin_object();
    w.key("id").number(d.id);
    w.key("name").string(d.name);
    w.key("vendor");
    if (d.vendor.empty())
      w.null();
    else
      w.string(d.vendor);
    w.key("sm_count");
    if (d.sm_count < 0)
      w.null();
    else
      w.number(d.sm_count);
    w.key("compute_capability");
    if (d.compute_major < 0 || d.compute_minor < 0)
      w.null();
    else
      w.string(fmt::format("{}.{}", d.compute_major, d.compute_minor));
    w.key("arch");
    if (d.arch.empty())
      w.null();
    else
      w.string(d.arch);
    w.key("description").string(d.description);
    w.end_object();
  }
  w.end_array();
  if (!t.distributed_backend.empty()) {
    w.key("distributed").begin_object();
    w.key("backend").string(t.distributed_backend);
    w.key("rank");
    if (t.rank < 0)
      w.null();
    else
      w.number(t.rank);
    w.key("world_size");
    if (t.world_size < 0)
      w.null();
    else
      w.number(t.world_size);
    w.end_object();
  }
  w.key("median").begin_object();
  write_median_fields(w, t.facts);
  w.end_object();
  // The typical region's longest kernel, as the bench's summary.json has it beside the medians
  // (scripts/gpu/record_flex.py builds its summary.json from these).
  write_main_kernel_fields(w, t.facts);
  w.key("typical_region");
  if (t.typical_region >= 0)
    w.number(t.typical_region);
  else
    w.null();
  const WorkOutsideRegions& o = t.outside_regions;
  w.key("outside_regions").begin_object();
  w.key("trace_activities").number(o.trace_activities);
  w.key("activities").number(o.activities);
  w.key("gpu_busy_us").number(o.busy_ns / 1000.0);
  w.key("carried_in").begin_object();
  w.key("activities").number(o.carried_in);
  w.key("gpu_busy_us").number(o.carried_in_busy_ns / 1000.0);
  w.key("overlaps").begin_array();
  for (const auto& name : o.carried_in_overlaps) w.string(name);
  w.end_array();
  w.end_object();
  w.end_object();
  write_breakdown(w, t.breakdown);
  write_idle_by_stream(w, t.idle_by_stream);
  write_collectives_json(w, t.collectives);
  write_gpu_link_json(w, t.link);
  write_median_attention_json(w, t.attention);
  w.key("regions").begin_array();
  for (size_t i = 0; i < t.regions.size(); ++i) {
    const RegionSummary& r = t.regions[i];
    w.begin_object();
    w.key("name").string(r.name);
    w.key("pid").number(r.pid);
    w.key("start_us").number(r.start_ns / 1000.0);
    write_region_fields(w, r);
    write_breakdown(w, r.breakdown);
    write_idle_by_stream(w, r.idle_by_stream);
    write_launch_queue(w, r.launch_delays, r.queues);
    write_collectives_json(w, r.collectives);
    write_top_tables_json(w, tables(i), r.gpu_busy_ns);
    write_region_attention_json(w, r.attention, r.gpu_busy_ns);
    write_region_memory_json(w, r.memory);
    write_critical_path_json(w, r);
    w.key("activities").begin_array();
    for (const auto& a : activities(i)) write_activity(w, a);
    w.end_array();
    w.end_object();
  }
  w.end_array();
  w.key("findings").begin_array();
  for (const auto& f : t.findings) write_finding(w, f);
  w.end_array();
  w.key("markers").begin_array();
  for (const auto& m : t.markers) {
    w.begin_object();
    w.key("name").string(m.name);
    w.key("ts_us").number(m.ts_ns / 1000.0);
    w.end_object();
  }
  w.end_array();
  w.key("warnings").begin_object();
  w.key("total").number(t.diagnostics.total());
  w.key("by_kind").begin_object();
  for (size_t k = 0; k < static_cast<size_t>(DiagnosticKind::kCount); ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    if (uint64_t n = t.diagnostics.count(kind)) w.key(diagnostic_id(kind)).number(n);
  }
  w.end_object();
  w.key("first").begin_array();
  for (const auto& d : t.diagnostics.first()) {
    w.begin_object();
    w.key("kind").string(diagnostic_id(d.kind));
    w.key("byte_offset").number(d.byte_offset);
    w.key("detail").string(d.detail);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.end_object();
}

}  // namespace

AnalyzeJsonStream::AnalyzeJsonStream(JsonWriter& w) : w_(w) {}

void AnalyzeJsonStream::trace(const TraceAnalysis& analysis, const RegionActivities& activities,
                              const RegionTablesOf& tables) {
  if (!started_) {
    w_.begin_object();
    w_.key("schemaVersion").number(kAnalysisSchemaVersion);
    w_.key("tool").string("attnprof analyze");
    w_.key("traces").begin_array();
    started_ = true;
  }
  write_trace(w_, analysis, activities, tables);
}

void AnalyzeJsonStream::finish(const CrossTraceSummary* across,
                               const std::vector<TraceAnalysis>& traces,
                               const std::vector<UnreadTrace>& unread) {
  if (!started_) return;
  w_.end_array();
  if (across) {
    w_.key("across_traces");
    write_cross_trace_json(w_, *across, traces);
  }
  w_.key("errors").begin_array();
  for (const auto& u : unread) {
    w_.begin_object();
    w_.key("path").string(u.path);
    w_.key("kind").string(error_kind_name(u.kind));
    w_.key("message").string(u.error);
    w_.end_object();
  }
  w_.end_array();
  w_.end_object();
  w_.text("\n");
}

std::string render_analyze_json(const AnalyzeOutput& output) {
  JsonWriter w;
  AnalyzeJsonStream stream(w);
  for (const TraceAnalysis& t : output.traces)
    stream.trace(
        t, [&t](size_t region) { return t.regions[region].activities; },
        [&t](size_t region) { return t.regions[region].tables; });
  stream.finish(output.across, output.traces, output.unread);
  return w.take();
}

std::string render_json(const std::vector<TraceAnalysis>& traces) {
  const std::vector<UnreadTrace> none;
  return render_analyze_json({traces, nullptr, none});
}

}  // namespace attnprof
