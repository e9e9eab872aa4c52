#include "analysis/regions/regions.h"

#include <algorithm>
#include <array>
#include <limits>
#include <map>
#include <optional>
#include <tuple>

#include <fmt/format.h>

#include "analysis/text_match.h"
#include "base/parallel_tasks.h"
#include "model/sorted_runs.h"

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
  // for the rest, so it is the right choice). Linear in the name for pieces without `?`: a
  // backtracking two-pointer loop takes 115 s for `*a...b` (50,000 characters) on a 1 MB name.
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

// By process (none first), then time; equal times in table order.
bool point_before(const Point& a, const Point& b) {
  return std::tie(a.pid, a.t, a.index) < std::tie(b.pid, b.t, b.index);
}

// Points arrive as a few sorted runs (a thread's top-level ops in table order, a stream's
// launches), so the runs are merged rather than the whole sorted: a sort is 2 % of analyze's
// instructions on a 216 MB step trace (docs/PERFORMANCE.md). No two points share an index, so the
// order is the one a full sort gives.
void sort_points(std::vector<Point>& points) {
  stable_sort_runs(points.begin(), points.end(), point_before);
}

// [first, last) of `sorted` (sort_points): the points of process `pid` (none: those without one)
// whose time is in [start, end). An empty range is [0, 0), so that regions holding nothing of a
// kind compare equal.
std::pair<uint32_t, uint32_t> range_of(const std::vector<Point>& sorted, std::optional<int32_t> pid,
                                       int64_t start, int64_t end) {
  auto before = [](const Point& p, const std::pair<std::optional<int32_t>, int64_t>& key) {
    return std::pair(p.pid, p.t) < key;
  };
  const auto first = std::lower_bound(sorted.begin(), sorted.end(), std::pair(pid, start), before);
  const auto last = std::lower_bound(first, sorted.end(), std::pair(pid, end), before);
  if (first == last) return {0, 0};
  return {static_cast<uint32_t>(first - sorted.begin()),
          static_cast<uint32_t>(last - sorted.begin())};
}

// The points a region holds, as ranges of the sorted points of each kind: its process's and, for
// activities, those of no process. Regions with equal keys hold the same members.
using MemberKey = std::array<uint32_t, 8>;

// The points the regions hold, sorted (sort_points). Activities without a launch or an op but
// with a correlation id go to the whole trace only (`whole_only`), as assign_activities says.
struct RegionPoints {
  std::vector<Point> activities, syncs, ops;
  std::vector<GpuActivityId> whole_only;
};

MemberKey key_of(const RegionPoints& points, const Region& region) {
  const auto [a_first, a_last] =
      range_of(points.activities, region.pid, region.start_ns, region.end_ns);
  const auto [n_first, n_last] =
      range_of(points.activities, std::nullopt, region.start_ns, region.end_ns);
  const auto [o_first, o_last] = range_of(points.ops, region.pid, region.start_ns, region.end_ns);
  const auto [s_first, s_last] = range_of(points.syncs, region.pid, region.start_ns, region.end_ns);
  return {a_first, a_last, n_first, n_last, o_first, o_last, s_first, s_last};
}

// The members of one region, every point of its span whatever the process: the whole trace.
MemberSet members_of_whole(const RegionPoints& points, const Region& region) {
  MemberSet set;
  auto in_span = [&](const Point& p) { return p.t >= region.start_ns && p.t < region.end_ns; };
  for (const Point& p : points.activities)
    if (in_span(p)) set.activities.push_back(static_cast<GpuActivityId>(p.index));
  set.activities.insert(set.activities.end(), points.whole_only.begin(), points.whole_only.end());
  for (const Point& p : points.ops)
    if (in_span(p)) set.top_level_ops.push_back(static_cast<HostEventId>(p.index));
  for (const Point& p : points.syncs)
    if (in_span(p)) set.syncs.push_back(static_cast<GpuActivityId>(p.index));
  return set;
}

MemberSet members_of_key(const RegionPoints& points, const MemberKey& key) {
  MemberSet set;
  for (size_t range : {0, 2})
    for (uint32_t i = key[range]; i < key[range + 1]; ++i)
      set.activities.push_back(static_cast<GpuActivityId>(points.activities[i].index));
  for (uint32_t i = key[4]; i < key[5]; ++i)
    set.top_level_ops.push_back(static_cast<HostEventId>(points.ops[i].index));
  for (uint32_t i = key[6]; i < key[7]; ++i)
    set.syncs.push_back(static_cast<GpuActivityId>(points.syncs[i].index));
  return set;
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
    if (e.tid == kCopiedOpsTid) continue;  // ops copied from a capture trace, placed before it
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

// The points of GPU work and synchronizations: each at its launch.
void collect_activity_points(const Trace& trace, const RegionSet& set, RegionPoints& points) {
  const auto& host = trace.host_events;
  const bool whole = set.regions.size() == 1 && set.regions[0].any_process;
  for (size_t g = 0; g < trace.gpu_activities.size(); ++g) {
    const GpuActivity& a = trace.gpu_activities[g];
    if (a.kind == GpuKind::kSync && trace.activity_launch[g] != kNoId) {
      const HostEvent& call = host[trace.activity_launch[g]];
      points.syncs.push_back({call.start_ns, call.pid, static_cast<uint32_t>(g)});
    }
    if (!is_gpu_work(a.kind)) continue;
    HostEventId anchor =
        trace.activity_launch[g] != kNoId ? trace.activity_launch[g] : trace.activity_op[g];
    // Work whose correlation id names a call the trace lacks was launched outside it (before
    // the window opened, or cut away): it is in no annotation's region, whatever its GPU time
    // overlaps, though the whole trace holds it. Work without any id (MTIA's DMA transfers)
    // never had a call to find, and the GPU's own time must do.
    if (anchor == kNoId && a.correlation != kNoValue) {
      if (whole) points.whole_only.push_back(static_cast<GpuActivityId>(g));
      continue;
    }
    std::optional<int32_t> pid;
    if (anchor != kNoId) pid = host[anchor].pid;
    points.activities.push_back(
        {anchor != kNoId ? host[anchor].start_ns : a.start_ns, pid, static_cast<uint32_t>(g)});
  }
  sort_points(points.activities);
  sort_points(points.syncs);
}

// The points of top-level ops (an op under no other op): each at its start.
void collect_op_points(const Trace& trace, const RegionSet& set, std::vector<Point>& points) {
  const auto& host = trace.host_events;
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
  sort_points(points);
}

// Below this many host events a second thread costs more than it saves.
constexpr size_t kEventsWorthASecondThread = 100'000;

RegionPoints region_points(const Trace& trace, const RegionSet& set) {
  RegionPoints points;
  // The two halves write to different lists; each sorts its own points (most of the time here).
  const bool beside = trace.host_events.size() >= kEventsWorthASecondThread && has_core_beside(0);
  auto ops = start_beside(beside, [&] { collect_op_points(trace, set, points.ops); });
  collect_activity_points(trace, set, points);
  ops.get();
  return points;
}

// Per region, the index of the first region with its key (regions holding the same members).
std::vector<uint32_t> first_with_same_key(const RegionPoints& points, const RegionSet& set) {
  std::vector<uint32_t> first(set.regions.size());
  std::map<MemberKey, uint32_t> seen;
  for (size_t r = 0; r < set.regions.size(); ++r) {
    const Region& region = set.regions[r];
    first[r] = static_cast<uint32_t>(r);
    if (region.any_process) continue;  // the whole trace is the set's only region
    first[r] = seen.try_emplace(key_of(points, region), static_cast<uint32_t>(r)).first->second;
  }
  return first;
}

// The most regions open at one time, of those whose `counted` is true: starts and ends as +1 and
// -1 steps, an end before a start at the same time (half-open).
size_t most_at_once(const RegionSet& set, const std::vector<bool>& counted) {
  std::vector<std::pair<int64_t, int>> steps;
  steps.reserve(2 * set.regions.size());
  for (size_t r = 0; r < set.regions.size(); ++r) {
    if (!counted[r]) continue;
    steps.emplace_back(set.regions[r].start_ns, 1);
    steps.emplace_back(set.regions[r].end_ns, -1);
  }
  std::sort(steps.begin(), steps.end());
  int64_t open = 0, most = 0;
  for (const auto& [t, step] : steps) most = std::max(most, open += step);
  return static_cast<size_t>(most);
}

}  // namespace

size_t most_distinct_regions_at_once(const Trace& trace, const RegionSet& set) {
  const std::vector<uint32_t> first = first_with_same_key(region_points(trace, set), set);
  std::vector<bool> counted(set.regions.size());
  for (size_t r = 0; r < first.size(); ++r) counted[r] = first[r] == r;
  return most_at_once(set, counted);
}

Status check_region_overlap(const Trace& trace, std::string_view pattern, uint64_t limit,
                            std::string_view path) {
  const RegionSet set = find_regions(trace, pattern);
  // Counting every region costs no pass over the trace, and is enough when it is under the limit.
  size_t most = most_at_once(set, std::vector<bool>(set.regions.size(), true));
  if (most <= limit) return Status::success();
  // Quoted by fmt, not by "\"" + string: g++ 12 warns falsely on the latter (-Wrestrict).
  const std::string matching = pattern.empty() ? "" : fmt::format(" matching \"{}\"", pattern);
  most = most_distinct_regions_at_once(trace, set);
  if (most <= limit) return Status::success();
  return make_error(ErrorKind::kLimit,
                    "{}: {} regions{} that hold different work are open at one time, more than "
                    "--max-region-overlap {}: each activity would belong to every one of them; "
                    "choose --region names that do not overlap, or raise the limit",
                    path, most, matching, limit);
}

RegionMembers assign_to_regions(const Trace& trace, const RegionSet& set) {
  RegionMembers members;
  if (set.regions.empty()) return members;
  const RegionPoints points = region_points(trace, set);
  const std::vector<uint32_t> first = first_with_same_key(points, set);
  members.set_of.resize(set.regions.size());
  for (size_t r = 0; r < set.regions.size(); ++r) {
    if (first[r] != r) {
      members.set_of[r] = members.set_of[first[r]];
      continue;
    }
    members.set_of[r] = static_cast<uint32_t>(members.sets.size());
    members.sets.push_back(set.regions[r].any_process
                               ? members_of_whole(points, set.regions[r])
                               : members_of_key(points, key_of(points, set.regions[r])));
    // Each list in table order, as documented; the syncs stay in the order of their calls.
    MemberSet& added = members.sets.back();
    std::sort(added.activities.begin(), added.activities.end());
    std::sort(added.top_level_ops.begin(), added.top_level_ops.end());
  }
  return members;
}

}  // namespace attnprof
