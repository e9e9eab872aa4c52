#include "analysis/regions.h"

#include <algorithm>
#include <future>
#include <limits>
#include <map>
#include <optional>
#include <thread>

#include <fmt/format.h>

#include "analysis/text_match.h"

namespace attnprof {

namespace {

// Whether `piece` (no `*`; `?` any one byte) matches `text` at `at`.
bool piece_matches_at(std::string_view piece, std::string_view text, size_t at) {
  if (at + piece.size() > text.size()) return false;
  for (size_t i = 0; i < piece.size(); ++i)
    if (piece[i] != '?' && piece[i] != text[at + i]) return false;
  return true;
}

// The leftmost place at or after `from` where `piece` matches. Without `?`, linear
// (find_text); a piece with `?` is tried at each place (the user's own pattern, not the trace's).
size_t find_piece(std::string_view piece, std::string_view text, size_t from) {
  if (piece.find('?') == std::string_view::npos) return find_text(text, piece, from);
  for (size_t at = from; at + piece.size() <= text.size(); ++at)
    if (piece_matches_at(piece, text, at)) return at;
  return std::string_view::npos;
}

}  // namespace

bool glob_match(std::string_view pattern, std::string_view text) {
  // The pieces between stars: the first must start the name, the last end it, and each one
  // between is taken at its leftmost place after the one before (leftmost leaves the most room
  // for the rest, so it is the right choice). Linear in the name for pieces without `?`; the
  // backtracking two-pointer loop this replaces took 115 s for `*a...b` (50,000 characters)
  // on a 1 MB name.
  const size_t first_star = pattern.find('*');
  if (first_star == std::string_view::npos)
    return pattern.size() == text.size() && piece_matches_at(pattern, text, 0);
  const size_t last_star = pattern.rfind('*');
  const std::string_view head = pattern.substr(0, first_star);
  const std::string_view tail = pattern.substr(last_star + 1);
  if (head.size() + tail.size() > text.size()) return false;
  if (!piece_matches_at(head, text, 0)) return false;
  const size_t end = text.size() - tail.size();
  if (!piece_matches_at(tail, text, end)) return false;
  const std::string_view middle_text = text.substr(0, end);
  size_t at = head.size();
  for (size_t p = first_star + 1; p < last_star;) {
    const size_t star = pattern.find('*', p);
    const std::string_view piece = pattern.substr(p, star - p);
    p = star + 1;
    if (piece.empty()) continue;
    const size_t found = find_piece(piece, middle_text, at);
    if (found == std::string_view::npos) return false;
    at = found + piece.size();
  }
  return true;
}

namespace {

constexpr std::string_view kProfilerSteps = "ProfilerStep#*";

std::vector<Region> events_matching(const Trace& trace, std::string_view pattern, HostKind kind) {
  std::vector<Region> out;
  std::vector<char> matches(trace.strings.size(), -1);  // per name: unknown, no, yes
  const auto& host = trace.host_events;
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if (e.kind != kind) continue;
    char& m = matches[e.name];
    if (m < 0) m = glob_match(pattern, trace.strings.view(e.name)) ? 1 : 0;
    if (m == 1)
      out.push_back({std::string(trace.strings.view(e.name)), e.pid, false, e.start_ns, e.end_ns(),
                     kind == HostKind::kCpuOp ? static_cast<HostEventId>(i) : kNoId});
  }
  std::sort(out.begin(), out.end(),
            [](const Region& a, const Region& b) { return a.start_ns < b.start_ns; });
  return out;
}

// A time to place in regions: a GPU activity's launch, or a CPU op's start.
struct Point {
  int64_t t;
  std::optional<int32_t> pid;  // none: any process's regions hold it
  uint32_t index;              // the activity's or the op's
};

// Calls visit(point index, region) for every region of the point's process (or of any process,
// for a point without one) whose span holds the point's time. A sweep over time per process: the
// regions that have started are kept in a heap by end, and those that ended are dropped, so that
// the heap holds exactly the regions at the current time. The cost is the points and regions
// sorted, plus the pairs found: a walk back over all earlier regions, as before, took 54 s for
// one long region around 100k short ones (issue 12).
template <typename Visit>
void for_each_region_holding(const RegionSet& set, std::vector<Point>& points, Visit&& visit) {
  const auto& regions = set.regions;
  std::sort(points.begin(), points.end(), [](const Point& a, const Point& b) {
    if (a.pid != b.pid) return a.pid < b.pid;  // none first
    return a.t < b.t;
  });
  std::vector<uint32_t> any_process, all;
  std::map<int32_t, std::vector<uint32_t>> by_pid;  // regions sorted by start, as in the set
  for (size_t r = 0; r < regions.size(); ++r) {
    const auto index = static_cast<uint32_t>(r);
    all.push_back(index);
    if (regions[r].any_process)
      any_process.push_back(index);
    else
      by_pid[regions[r].pid].push_back(index);
  }
  auto ends_later = [&](uint32_t a, uint32_t b) { return regions[a].end_ns > regions[b].end_ns; };
  std::vector<uint32_t> candidates, open;  // open: a min-heap by end
  for (size_t p = 0; p < points.size();) {
    size_t group_end = p;
    while (group_end < points.size() && points[group_end].pid == points[p].pid) ++group_end;
    if (!points[p].pid) {
      candidates = all;
    } else {
      auto it = by_pid.find(*points[p].pid);
      candidates = it == by_pid.end() ? std::vector<uint32_t>() : it->second;
      candidates.insert(candidates.end(), any_process.begin(), any_process.end());
      std::stable_sort(candidates.begin(), candidates.end(), [&](uint32_t a, uint32_t b) {
        return regions[a].start_ns < regions[b].start_ns;
      });
    }
    open.clear();
    size_t next = 0;
    for (; p < group_end; ++p) {
      const int64_t t = points[p].t;
      while (next < candidates.size() && regions[candidates[next]].start_ns <= t) {
        open.push_back(candidates[next++]);
        std::push_heap(open.begin(), open.end(), ends_later);
      }
      while (!open.empty() && regions[open.front()].end_ns <= t) {
        std::pop_heap(open.begin(), open.end(), ends_later);
        open.pop_back();
      }
      for (uint32_t r : open) visit(points[p].index, r);
    }
  }
}

}  // namespace

RegionSet find_regions(const Trace& trace, std::string_view pattern) {
  RegionSet set;
  if (!pattern.empty()) {
    set.pattern = std::string(pattern);
    // nn.Module calls are python_function events (with_stack=True), not annotations.
    const bool modules = pattern.starts_with("nn.Module:");
    set.regions = events_matching(trace, pattern,
                                  modules ? HostKind::kPythonFunction : HostKind::kUserAnnotation);
    if (set.regions.empty() && trace.legacy_operators) {
      set.regions = events_matching(trace, pattern, HostKind::kCpuOp);
      set.from_ops = !set.regions.empty();
    }
    return set;
  }
  set.regions = events_matching(trace, kProfilerSteps, HostKind::kUserAnnotation);
  if (!set.regions.empty()) {
    set.pattern = std::string(kProfilerSteps);
    return set;
  }
  Region whole{"(whole trace)", 0, true, std::numeric_limits<int64_t>::max(),
               std::numeric_limits<int64_t>::min()};
  for (const HostEvent& e : trace.host_events) {
    whole.start_ns = std::min(whole.start_ns, e.start_ns);
    whole.end_ns = std::max(whole.end_ns, e.end_ns());
  }
  for (const GpuActivity& a : trace.gpu_activities) {
    whole.start_ns = std::min(whole.start_ns, a.start_ns);
    whole.end_ns = std::max(whole.end_ns, a.end_ns());
  }
  if (whole.start_ns <= whole.end_ns) {
    whole.end_ns += 1;  // half-open: the last event's end belongs to it (its wall is the span)
    set.regions.push_back(std::move(whole));
  }
  return set;
}

size_t most_regions_at_once(const RegionSet& set) {
  // Starts and ends as +1 and -1 steps, an end before a start at the same time (half-open).
  std::vector<std::pair<int64_t, int>> steps;
  steps.reserve(2 * set.regions.size());
  for (const Region& r : set.regions) {
    steps.emplace_back(r.start_ns, 1);
    steps.emplace_back(r.end_ns, -1);
  }
  std::sort(steps.begin(), steps.end());
  int64_t open = 0, most = 0;
  for (const auto& [t, step] : steps) most = std::max(most, open += step);
  return static_cast<size_t>(most);
}

Status check_region_overlap(const Trace& trace, std::string_view pattern, uint64_t limit,
                            std::string_view path) {
  const size_t most = most_regions_at_once(find_regions(trace, pattern));
  if (most <= limit) return Status::success();
  // Quoted by fmt, not by "\"" + string: g++ 12 warns falsely on the latter (-Wrestrict).
  const std::string matching = pattern.empty() ? "" : fmt::format(" matching \"{}\"", pattern);
  return make_error(ErrorKind::kLimit,
                    "{}: {} regions{} are open at one time, more than --max-region-overlap {}: "
                    "each activity would belong to every one of them; choose --region names that "
                    "do not overlap, or raise the limit",
                    path, most, matching, limit);
}

std::vector<AnnotationCount> annotation_counts(const Trace& trace) {
  std::vector<int64_t> per_name(trace.strings.size(), 0);
  for (const HostEvent& e : trace.host_events)
    if (e.kind == HostKind::kUserAnnotation) ++per_name[e.name];
  std::map<std::string, int64_t> counts;  // by name, numbered names under their pattern
  for (size_t name = 0; name < per_name.size(); ++name) {
    if (per_name[name] == 0) continue;
    std::string_view text = trace.strings.view(static_cast<StringId>(name));
    const size_t hash = text.rfind('#');
    const bool numbered = hash != std::string_view::npos && hash + 1 < text.size() &&
                          text.find_first_not_of("0123456789", hash + 1) == std::string_view::npos;
    counts[numbered ? std::string(text.substr(0, hash + 1)) + "*" : std::string(text)] +=
        per_name[name];
  }
  std::vector<AnnotationCount> ranked;
  for (auto& [name, count] : counts) ranked.push_back({name, count});
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  return ranked;
}

Error no_region_matches(const Trace& trace, std::string_view path, std::string_view pattern) {
  constexpr size_t kNamesShown = 12;
  const std::vector<AnnotationCount> ranked = annotation_counts(trace);
  if (ranked.empty())
    return make_error(
        ErrorKind::kUnmatched,
        "{}: no region matches \"{}\": the trace has no user annotations (record_function) to "
        "match; leave out --region to summarize the whole trace",
        path, pattern);
  std::string names;
  for (size_t i = 0; i < ranked.size() && i < kNamesShown; ++i)
    names += fmt::format("{}{} ({})", i == 0 ? "" : ", ", ranked[i].name, ranked[i].count);
  if (ranked.size() > kNamesShown)
    names += fmt::format(" and {} more", ranked.size() - kNamesShown);
  return make_error(ErrorKind::kUnmatched,
                    "{}: no region matches \"{}\"; the trace's annotations: {}", path, pattern,
                    names);
}

std::vector<int32_t> host_processes(const Trace& trace) {
  std::vector<int32_t> pids;
  for (const HostEvent& e : trace.host_events) {
    // The profiler's own rows (text pids, overhead) are not processes of the program.
    if (e.kind == HostKind::kOverhead || e.pid < 0) continue;
    if (pids.empty() || pids.back() != e.pid) pids.push_back(e.pid);
  }
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  return pids;
}

namespace {

// Each GPU activity and synchronization into the regions whose span holds its launch.
void assign_activities(const Trace& trace, const RegionSet& set, RegionMembers& members) {
  const auto& host = trace.host_events;
  std::vector<Point> points, sync_points;
  for (size_t g = 0; g < trace.gpu_activities.size(); ++g) {
    const GpuActivity& a = trace.gpu_activities[g];
    if (a.kind == GpuKind::kSync && trace.activity_launch[g] != kNoId) {
      const HostEvent& call = host[trace.activity_launch[g]];
      sync_points.push_back({call.start_ns, call.pid, static_cast<uint32_t>(g)});
    }
    if (!is_gpu_work(a.kind)) continue;
    HostEventId anchor =
        trace.activity_launch[g] != kNoId ? trace.activity_launch[g] : trace.activity_op[g];
    // Work whose correlation id names a call the trace lacks was launched outside it (before
    // the window opened, or cut away): it is in no annotation's region, whatever its GPU time
    // overlaps, though the whole trace holds it. Work without any id (MTIA's DMA transfers)
    // never had a call to find, and the GPU's own time must do.
    if (anchor == kNoId && a.correlation != kNoValue) {
      if (set.regions.size() == 1 && set.regions[0].any_process)
        members.activities[0].push_back(static_cast<GpuActivityId>(g));
      continue;
    }
    std::optional<int32_t> pid;
    if (anchor != kNoId) pid = host[anchor].pid;
    points.push_back(
        {anchor != kNoId ? host[anchor].start_ns : a.start_ns, pid, static_cast<uint32_t>(g)});
  }
  for_each_region_holding(set, points, [&](uint32_t g, uint32_t r) {
    members.activities[r].push_back(static_cast<GpuActivityId>(g));
  });
  for_each_region_holding(set, sync_points, [&](uint32_t g, uint32_t r) {
    members.syncs[r].push_back(static_cast<GpuActivityId>(g));
  });
  // The sweep visits by process and time; each list is kept in table order, as documented.
  for (auto& list : members.activities) std::sort(list.begin(), list.end());
}

// Each top-level op (an op under no other op) into the regions whose span holds its start.
void assign_top_level_ops(const Trace& trace, const RegionSet& set, RegionMembers& members) {
  const auto& host = trace.host_events;
  std::vector<Point> points;
  // Regions that are ops are not CPU work of their own: the ops under them are the top level.
  std::vector<bool> region_op(set.from_ops ? host.size() : 0, false);
  for (const Region& r : set.regions)
    if (r.op != kNoId) region_op[r.op.index()] = true;
  auto counts_as_op = [&](HostEventId i) {
    return host[i].kind == HostKind::kCpuOp && (region_op.empty() || !region_op[i.index()]);
  };
  // Whether an op is above each event, from its parent's answer: a parent precedes its children
  // in the table (sorted by thread, then start, the longer first), so one pass in table order
  // sees every parent first. A walk up the parents per op was quadratic under deep annotations.
  std::vector<bool> op_above(host.size(), false);
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEventId parent = trace.host_parent[i];
    if (parent != kNoId && parent.index() < i)
      op_above[i] = op_above[parent.index()] || counts_as_op(parent);
    else
      for (HostEventId p = parent; p != kNoId; p = trace.host_parent[p])
        if (counts_as_op(p)) {
          op_above[i] = true;
          break;
        }
    if (!counts_as_op(static_cast<HostEventId>(i)) || op_above[i]) continue;
    points.push_back({host[i].start_ns, host[i].pid, static_cast<uint32_t>(i)});
  }
  for_each_region_holding(set, points, [&](uint32_t i, uint32_t r) {
    members.top_level_ops[r].push_back(static_cast<HostEventId>(i));
  });
  for (auto& list : members.top_level_ops) std::sort(list.begin(), list.end());
}

// Below this many host events a second thread costs more than it saves.
constexpr size_t kEventsWorthASecondThread = 100'000;

}  // namespace

RegionMembers assign_to_regions(const Trace& trace, const RegionSet& set) {
  RegionMembers members;
  members.activities.resize(set.regions.size());
  members.top_level_ops.resize(set.regions.size());
  members.syncs.resize(set.regions.size());
  if (set.regions.empty()) return members;
  // The two halves write to different lists; each sorts its own points (most of the time here).
  if (trace.host_events.size() >= kEventsWorthASecondThread &&
      std::thread::hardware_concurrency() > 1) {
    auto ops = std::async(std::launch::async, [&] { assign_top_level_ops(trace, set, members); });
    assign_activities(trace, set, members);
    ops.get();
  } else {
    assign_activities(trace, set, members);
    assign_top_level_ops(trace, set, members);
  }
  return members;
}

}  // namespace attnprof
