#pragma once
// Regions: the spans a user asked about (a user annotation such as `forward` or ProfilerStep#N),
// and which GPU activities and CPU ops belong to each.
//
// A GPU activity belongs to a region when its launching call started inside the region's span,
// on any thread of the region's process: backward runs on the autograd thread, yet its kernels
// belong to the enclosing step. An activity without a launch in the trace is placed by its op
// (External id); without either it is in no annotation's region (launched before the window
// opened, or cut away: outside_regions.h says how much), but for work that has no correlation id
// at all (MTIA's DMA transfers), which only its own start time can place. The whole trace holds
// all the work and is closed at its end: its wall time is the span of its events.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/result.h"
#include "model/trace.h"

namespace attnprof {

struct Region {
  std::string name;
  int32_t pid = 0;
  bool any_process = false;  // the whole trace
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  HostEventId op = kNoId;  // the cpu_op row it is, where regions come from ops (below)
};

struct RegionSet {
  std::string pattern;          // what was matched; empty for the whole trace
  std::vector<Region> regions;  // sorted by start
  // PyTorch 1.8-1.9 wrote record_function scopes as ops ("Operator"): in such a trace a pattern
  // that names no annotation is matched against ops, and these regions are ops.
  bool from_ops = false;
};

// `*` and `?` wildcards; the whole name must match.
bool glob_match(std::string_view pattern, std::string_view text);

// Annotations matching `pattern`; an empty pattern means ProfilerStep#* when the trace has such
// annotations, else the whole trace as one region. A pattern that matches nothing gives none.
RegionSet find_regions(const Trace& trace, std::string_view pattern);

// The most regions of `set` open at one time that hold different members: N regions that hold
// different work at one time hold up to N x (activities) members, which regions holding the
// same work share (RegionMembers).
size_t most_distinct_regions_at_once(const Trace& trace, const RegionSet& set);

// Fails with a limit error naming `path`, the count and --max-region-overlap when more than
// `limit` regions matching `pattern` that hold different work are open at one time. Regions that
// hold the same work share their members, summaries, attention calls and findings' work
// (analysis/findings/finding_context.h), so they count once, with findings or without.
Status check_region_overlap(const Trace& trace, std::string_view pattern, uint64_t limit,
                            std::string_view path);

// The trace's user annotations by name, the most frequent first (names of equal counts in name
// order); numbered names under their pattern.
std::vector<AnnotationCount> annotation_counts(const Trace& trace);

// Why `pattern` (not empty) matched no region in `trace`, read from `path`: one line that lists
// the annotation names the trace has, the most frequent first, with their counts; numbered names
// (ProfilerStep#3) are counted under their pattern (ProfilerStep#*), which --region accepts
// (docs/SECURITY.md: every command fails with this and exit code 2).
Error no_region_matches(const Trace& trace, std::string_view path, std::string_view pattern);

// The processes (pids) whose CPU events the trace holds, in increasing order.
std::vector<int32_t> host_processes(const Trace& trace);

// What one region holds. Regions whose spans hold the same launches, ops and synchronizations
// share one MemberSet: N fully overlapping ProfilerSteps hold one list, not N copies of it
// (docs/SECURITY.md, "Limits and costs").
struct MemberSet {
  std::vector<GpuActivityId> activities;   // in table (GPU start) order
  std::vector<HostEventId> top_level_ops;  // cpu_ops with no cpu_op above, in table order
  // synchronizations on the GPU timeline (cuda_sync), placed by their runtime call, by its time
  std::vector<GpuActivityId> syncs;
};

struct RegionMembers {
  std::vector<uint32_t> set_of;  // per region: its index in `sets`
  std::vector<MemberSet> sets;   // distinct

  size_t regions() const { return set_of.size(); }
  const MemberSet& of(size_t region) const { return sets[set_of[region]]; }
  const std::vector<GpuActivityId>& activities(size_t region) const {
    return of(region).activities;
  }
  const std::vector<HostEventId>& top_level_ops(size_t region) const {
    return of(region).top_level_ops;
  }
  const std::vector<GpuActivityId>& syncs(size_t region) const { return of(region).syncs; }
};

// Each region's members, from points sorted by process and time: a region's members are the
// points of its process (and those of none) in its span, two ranges of that order, found by
// binary search. Regions with the same ranges share a MemberSet, so the cost is the points sorted
// plus the members of the distinct sets: linear in the trace for any number of regions that hold
// the same work, and bounded by what it makes where their members differ (the limit of
// check_region_overlap).
RegionMembers assign_to_regions(const Trace& trace, const RegionSet& regions);

}  // namespace attnprof
