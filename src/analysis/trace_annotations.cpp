#include "analysis/trace_annotations.h"

#include <algorithm>

#include "analysis/critical_path/region_critical_paths.h"
#include "analysis/findings/finding_context.h"
#include "analysis/regions/regions.h"
#include "analysis/summarize.h"

namespace attnprof {

namespace {

// The reader keys a named pid or tid as -1 - the id of its name (reader/event_tables.h).
TraceThreadId spelled(const Trace& trace, int32_t key) {
  if (key >= 0) return {key, {}};
  return {0, std::string(trace.strings.view(static_cast<StringId>(-1 - int64_t{key})))};
}

// What a stretch of the path with no event of its own was.
std::string_view unnamed_stretch(const PathSegment& s) {
  switch (s.category) {
    case PathCategory::kSync:
      return "waiting on the GPU";
    case PathCategory::kLaunchOverhead:
      return "launch";
    case PathCategory::kCpu:
      return "CPU outside ops";
    default:
      return "GPU work";
  }
}

std::vector<PathMark> marks_of(const Trace& trace, const std::vector<PathSegment>& path) {
  std::vector<PathMark> marks;
  const PathSegment* previous = nullptr;
  for (const PathSegment& s : path) {
    if (s.category == PathCategory::kKernelGap || s.end_ns <= s.start_ns) continue;
    if (previous && previous->end_ns == s.start_ns && previous->category == s.category &&
        previous->activity == s.activity && previous->host == s.host) {
      marks.back().end_ns = s.end_ns;
      previous = &s;
      continue;
    }
    previous = &s;
    PathMark m;
    m.start_ns = s.start_ns;
    m.end_ns = s.end_ns;
    m.category = path_category_id(s.category);
    int64_t event_start = 0, event_end = 0;
    if (s.activity != kNoId) {
      const GpuActivity& a = trace.gpu_activities[s.activity];
      m.name = std::string(trace.strings.view(a.name));
      m.event_pid = TraceThreadId{a.device, {}};
      m.event_tid = TraceThreadId{a.stream, {}};
      event_start = a.start_ns;
      event_end = a.end_ns();
      m.on_event = true;
    } else if (s.host != kNoId) {
      const HostEvent& e = trace.host_events[s.host];
      m.name = std::string(trace.strings.view(e.name));
      m.event_pid = spelled(trace, e.pid);
      m.event_tid = spelled(trace, e.tid);
      event_start = e.start_ns;
      event_end = e.end_ns();
      m.on_event = true;
    } else {
      m.name = std::string(unnamed_stretch(s));
    }
    if (m.on_event) {
      // Inside both: a thread's stretch lies between two of its events' starts or ends, so its
      // middle is in the innermost event open then, which is the one a flow should bind to.
      const int64_t from = std::max(event_start, s.start_ns);
      const int64_t to = std::min(event_end, s.end_ns);
      // Where the clocks disagree with a dependency, the path's times are later than the
      // recorded ones and the stretch may miss its event: then the event's own middle.
      m.event_at_ns =
          to > from ? from + (to - from) / 2 : event_start + (event_end - event_start) / 2;
    }
    marks.push_back(std::move(m));
  }
  return marks;
}

// Each region's path on its process; a region that overlaps an earlier one on the same process
// goes on a track of its own, so that the slices of one track never overlap.
std::vector<RegionPathMarks> path_marks(const Trace& trace, const RegionSet& set,
                                        const RegionMembers& members) {
  struct TrackEnd {
    int32_t pid;
    int track;
    int64_t end_ns;
  };
  std::vector<TrackEnd> tracks;
  std::vector<RegionPathMarks> out;
  for (RegionPathSegments& p : critical_path_segments_of_regions(trace, set, members)) {
    const Region& r = set.regions[p.region];
    RegionPathMarks marks;
    marks.region = static_cast<int>(p.region);
    marks.name = r.name;
    marks.pid = spelled(trace, r.pid);
    if (r.any_process && !trace.host_events.empty())
      marks.pid = spelled(trace, trace.host_events.front().pid);
    marks.marks = marks_of(trace, p.segments);
    // A path that clocks out of order made longer than its region ends after it.
    const int64_t end_ns =
        marks.marks.empty() ? r.end_ns : std::max(r.end_ns, marks.marks.back().end_ns);
    int next_track = 0;
    auto free_track = tracks.end();
    for (auto it = tracks.begin(); it != tracks.end(); ++it) {
      if (it->pid != r.pid) continue;
      next_track = std::max(next_track, it->track + 1);
      if (it->end_ns <= r.start_ns && free_track == tracks.end()) free_track = it;
    }
    if (free_track == tracks.end())
      free_track = tracks.insert(tracks.end(), TrackEnd{r.pid, next_track, end_ns});
    free_track->end_ns = end_ns;
    marks.track = free_track->track;
    out.push_back(std::move(marks));
  }
  return out;
}

}  // namespace

TraceAnnotations annotate_trace(const Trace& trace, const AnalyzeOptions& options,
                                bool critical_path) {
  AnalyzeOptions explained = options;
  explained.explain = true;
  TraceAnnotations out;
  out.analysis = summarize_trace(trace, explained);
  const TraceAnalysis& analysis = out.analysis;

  // The regions again (summarize_trace keeps them to itself): cheap next to reading the trace.
  const RegionSet set = find_regions(trace, options.region_pattern);
  const RegionMembers members = assign_to_regions(trace, set);
  if (analysis.typical_region >= 0) {
    const Region& r = set.regions[size_t(analysis.typical_region)];
    out.typical = TypicalRegionMark{r.name,   analysis.typical_region, r.start_ns,
                                    r.end_ns, spelled(trace, r.pid),   r.any_process};
    out.findings_at_ns = r.start_ns;
    out.findings_pid = out.typical->pid;
  }
  // With the whole trace as the region, the findings go where its first op is.
  if (out.typical && out.typical->whole_trace && !trace.host_events.empty()) {
    out.findings_pid = spelled(trace, trace.host_events.front().pid);
    out.typical->pid = out.findings_pid;
  }

  const FindingContext context{trace, set, members, analysis};
  for (const HiddenCopy& c : find_hidden_copy_activities(context)) {
    const HostEvent& op = trace.host_events[c.op];
    const GpuActivity& copy = trace.gpu_activities[c.activity];
    out.copies.push_back(CopyLink{std::string(trace.strings.view(op.name)),
                                  std::string(trace.strings.view(copy.name)), op.start_ns,
                                  spelled(trace, op.pid), spelled(trace, op.tid), copy.start_ns,
                                  TraceThreadId{copy.device, {}}, TraceThreadId{copy.stream, {}},
                                  static_cast<int>(c.region)});
  }
  if (critical_path) out.critical_paths = path_marks(trace, set, members);
  return out;
}

}  // namespace attnprof
