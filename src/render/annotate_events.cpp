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

// Each region's path: a slice per mark on the process's critical-path track, and a flow from
// each marked event to the next, as Kineto links a launch to its kernel (ac2g: "s" inside the
// first slice, "f" with "bp": "e" inside the second), so that Perfetto draws arrows along it.
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
        JsonWriter start(JsonWriter::kCompact);
        begin_event(start, 's', "critical path");
        start.key("id").number(flow);
        write_ts(start, "ts", previous->event_at_ns);
        write_id(start, "pid", previous->event_pid);
        write_id(start, "tid", previous->event_tid);
        start.end_object();
        events.add(std::move(start));

        JsonWriter finish(JsonWriter::kCompact);
        begin_event(finish, 'f', "critical path");
        finish.key("bp").string("e");  // binds to the slice around ts, the next event
        finish.key("id").number(flow);
        write_ts(finish, "ts", m.event_at_ns);
        write_id(finish, "pid", m.event_pid);
        write_id(finish, "tid", m.event_tid);
        finish.end_object();
        events.add(std::move(finish));
        ++flow;
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
    JsonWriter start(JsonWriter::kCompact);
    begin_event(start, 's', "hidden copy");
    start.key("id").number(flow);
    write_ts(start, "ts", c.op_start_ns);
    write_id(start, "pid", c.op_pid);
    write_id(start, "tid", c.op_tid);
    start.end_object();
    events.add(std::move(start));

    JsonWriter finish(JsonWriter::kCompact);
    begin_event(finish, 'f', "hidden copy");
    finish.key("bp").string("e");  // binds to the copy's slice, which starts at ts
    finish.key("id").number(flow);
    write_ts(finish, "ts", c.copy_start_ns);
    write_id(finish, "pid", c.copy_pid);
    write_id(finish, "tid", c.copy_tid);
    finish.end_object();
    events.add(std::move(finish));

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
