#include "render/annotate_events.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "render/json_writer.h"

namespace attnprof {

namespace {

// Flow ids of attnprof's own links, far above the correlation ids Kineto numbers its flows with.
constexpr int64_t kFirstFlowId = int64_t{1} << 40;
// The track of the typical region's slice: a thread id no profiler gives a thread.
constexpr int64_t kAnnotationTid = 0x7a77;
// The critical path's tracks on each process: the first, then one more per region that overlaps
// an earlier one.
constexpr int64_t kCriticalPathTid = 0x7a78;

void write_id(JsonWriter& w, const char* key, const TraceThreadId& id) {
  w.key(key);
  if (id.text.empty())
    w.number(id.number);
  else
    w.string(id.text);
}

// Kineto's ts: microseconds with the nanoseconds as three decimals.
void write_ts(JsonWriter& w, const char* key, int64_t ns) {
  w.key(key);
  w.raw_number(fmt::format("{}{}.{:03}", ns < 0 ? "-" : "", (ns < 0 ? -ns : ns) / 1000,
                           (ns < 0 ? -ns : ns) % 1000));
}

void begin_event(JsonWriter& w, char phase, std::string_view name) {
  w.begin_object();
  w.key("ph").string(std::string_view(&phase, 1));
  w.key("cat").string(kAnnotationCategory);
  w.key("name").string(name);
}

class EventList {
 public:
  void add(JsonWriter&& w) {
    if (!text_.empty()) text_ += ",\n";
    text_ += w.take();
    ++count_;
  }
  std::string take() { return std::move(text_); }
  size_t count() const { return count_; }

 private:
  std::string text_;
  size_t count_ = 0;
};

void add_thread_name(const TraceThreadId& pid, int64_t tid, std::string_view name,
                     EventList& events) {
  JsonWriter track(JsonWriter::kCompact);
  track.begin_object();
  track.key("ph").string("M");
  track.key("name").string("thread_name");
  write_id(track, "pid", pid);
  track.key("tid").number(tid);
  track.key("args").begin_object().key("name").string(name).end_object();
  track.end_object();
  events.add(std::move(track));
}

// Where one end of a flow goes: a time on a track, inside the slice it binds to.
struct FlowEnd {
  int64_t ts_ns;
  const TraceThreadId& pid;
  const TraceThreadId& tid;
};

// A flow as Kineto writes its ac2g launch links: "s" inside the first slice, "f" with "bp": "e"
// inside the second (it binds to the slice around ts), one id for both.
void add_flow(std::string_view name, int64_t id, const FlowEnd& from, const FlowEnd& to,
              EventList& events) {
  for (const auto& [phase, end] : {std::pair{'s', &from}, std::pair{'f', &to}}) {
    JsonWriter w(JsonWriter::kCompact);
    begin_event(w, phase, name);
    if (phase == 'f') w.key("bp").string("e");
    w.key("id").number(id);
    write_ts(w, "ts", end->ts_ns);
    write_id(w, "pid", end->pid);
    write_id(w, "tid", end->tid);
    w.end_object();
    events.add(std::move(w));
  }
}

// Each region's path: a slice per mark on the process's critical-path track, and a flow from
// each marked event to the next, so that Perfetto draws arrows along it.
void add_critical_paths(const TraceAnnotations& a, int64_t& flow, EventList& events) {
  std::vector<std::pair<std::string, int64_t>> named;  // tracks given a name already
  for (const RegionPathMarks& p : a.critical_paths) {
    const int64_t tid = kCriticalPathTid + p.track;
    const std::string pid_key = p.pid.text.empty() ? std::to_string(p.pid.number) : p.pid.text;
    if (std::find(named.begin(), named.end(), std::pair{pid_key, tid}) == named.end()) {
      named.emplace_back(pid_key, tid);
      add_thread_name(p.pid, tid,
                      p.track == 0 ? std::string("attnprof critical path")
                                   : fmt::format("attnprof critical path {}", p.track + 1),
                      events);
    }
    const PathMark* previous = nullptr;
    for (const PathMark& m : p.marks) {
      JsonWriter slice(JsonWriter::kCompact);
      begin_event(slice, 'X', m.name);
      write_ts(slice, "ts", m.start_ns);
      write_ts(slice, "dur", m.end_ns - m.start_ns);
      write_id(slice, "pid", p.pid);
      slice.key("tid").number(tid);
      slice.key("args").begin_object();
      slice.key("critical_path").boolean(true);
      slice.key("category").string(m.category);
      slice.key("region").number(p.region);
      slice.key("region_name").string(p.name);
      slice.end_object();
      slice.end_object();
      events.add(std::move(slice));
      if (!m.on_event) continue;
      // An arrow back in time (clocks that disagree with a dependency) is no flow Perfetto
      // draws: its finish would come before its start.
      if (previous && previous->event_at_ns <= m.event_at_ns) {
        add_flow("critical path", flow++,
                 {previous->event_at_ns, previous->event_pid, previous->event_tid},
                 {m.event_at_ns, m.event_pid, m.event_tid}, events);
      }
      previous = &m;
    }
  }
}

void add_events(const TraceAnnotations& a, EventList& events) {
  const TraceAnalysis& analysis = a.analysis;
  for (const Finding& f : analysis.findings) {
    JsonWriter w(JsonWriter::kCompact);
    begin_event(w, 'i', fmt::format("{}{}", kMarkerPrefix, finding_id(f.kind)));
    w.key("s").string("p");  // on the process: it is about the region, not one thread
    write_ts(w, "ts", a.findings_at_ns);
    write_id(w, "pid", a.findings_pid);
    write_id(w, "tid", a.findings_pid);
    w.key("args").begin_object();
    w.key("rule").string(finding_id(f.kind));
    w.key("summary").string(f.summary);
    w.key("suggestion").string(f.suggestion);
    w.key("regions_affected").number(f.regions_affected);
    w.key("regions").number(analysis.regions.size());
    w.key("evidence").begin_array();
    for (const auto& e : f.evidence) w.string(e);
    w.end_array();
    w.end_object();
    w.end_object();
    events.add(std::move(w));
  }
  if (a.typical) {
    const TypicalRegionMark& t = *a.typical;
    const std::string label = fmt::format("{} #{}", t.name, t.index + 1);
    JsonWriter instant(JsonWriter::kCompact);
    begin_event(instant, 'i', fmt::format("{}typical region", kMarkerPrefix));
    instant.key("s").string("p");
    write_ts(instant, "ts", t.start_ns);
    write_id(instant, "pid", t.pid);
    write_id(instant, "tid", t.pid);
    instant.key("args").begin_object();
    instant.key("region").string(label);
    instant.key("why").string("the region closest to the medians over all regions");
    instant.end_object();
    instant.end_object();
    events.add(std::move(instant));

    JsonWriter slice(JsonWriter::kCompact);
    begin_event(slice, 'X', fmt::format("typical region: {}", label));
    write_ts(slice, "ts", t.start_ns);
    write_ts(slice, "dur", t.end_ns - t.start_ns);
    write_id(slice, "pid", t.pid);
    slice.key("tid").number(kAnnotationTid);
    slice.end_object();
    events.add(std::move(slice));

    add_thread_name(t.pid, kAnnotationTid, "attnprof", events);
  }
  int64_t flow = kFirstFlowId;
  for (const CopyLink& c : a.copies) {
    add_flow("hidden copy", flow, {c.op_start_ns, c.op_pid, c.op_tid},
             {c.copy_start_ns, c.copy_pid, c.copy_tid}, events);

    JsonWriter marker(JsonWriter::kCompact);
    begin_event(marker, 'i', fmt::format("{}hidden copy", kMarkerPrefix));
    marker.key("s").string("t");
    write_ts(marker, "ts", c.copy_start_ns);
    write_id(marker, "pid", c.copy_pid);
    write_id(marker, "tid", c.copy_tid);
    marker.key("args").begin_object();
    marker.key("copy").string(c.copy);
    marker.key("made_by").string(c.op);
    marker.key("region").number(c.region);
    marker.end_object();
    marker.end_object();
    events.add(std::move(marker));
    ++flow;
  }
  add_critical_paths(a, flow, events);
}

}  // namespace

std::string render_annotation_events(const TraceAnnotations& annotations) {
  EventList events;
  add_events(annotations, events);
  return events.take();
}

size_t annotation_event_count(const TraceAnnotations& annotations) {
  EventList events;
  add_events(annotations, events);
  return events.count();
}

}  // namespace attnprof
