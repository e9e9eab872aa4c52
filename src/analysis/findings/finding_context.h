#pragma once
// What every finding rule reads: the linked trace, its regions with their members, and the
// summaries. Rules are pure functions of this context (docs/PRACTICES.md, pure analyses).
//
// Regions that hold the same work share one member set (regions.h, MemberSet): N overlapping
// ProfilerSteps hold one list. A rule works out what a set's activities say once per set and
// then counts the regions that hold it, so that its cost is the members of the distinct sets,
// not regions x activities (docs/SECURITY.md, "Limits and costs"); only the region-specific
// parts (a label, a span) are read per region.

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analysis/findings/attention_op.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/host_tree_facts.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/regions/regions.h"
#include "attnprof/analysis.h"
#include "attnprof/findings.h"
#include "model/trace.h"

namespace attnprof {

struct FindingContext {
  FindingContext(const Trace& trace, const RegionSet& regions, const RegionMembers& members,
                 const TraceAnalysis& analysis);

  const Trace& trace;
  const RegionSet& regions;
  const RegionMembers& members;
  const TraceAnalysis& analysis;

  size_t region_count() const { return regions.regions.size(); }
  int typical() const { return analysis.typical_region; }
  const std::vector<GpuActivityId>& activities(size_t region) const {
    return members.activities(region);
  }
  const GpuActivity& activity(GpuActivityId id) const { return trace.gpu_activities[id]; }

  // The distinct member sets: set_of(region) < set_count().
  size_t set_count() const { return members.sets.size(); }
  size_t set_of(size_t region) const { return members.set_of[region]; }
  const std::vector<GpuActivityId>& set_activities(size_t set) const {
    return members.sets[set].activities;
  }
  // The first region that holds the set, and how many do.
  size_t first_region_of(size_t set) const { return first_region_[set]; }
  size_t regions_of_set(size_t set) const { return regions_of_set_[set]; }
  // The regions whose set is marked in `set_marked` (one flag per set).
  int regions_with(const std::vector<bool>& set_marked) const;
  // The typical region's set, or set_count() when there is no typical region.
  size_t typical_set() const;
  std::string_view name(GpuActivityId id) const { return trace.strings.view(activity(id).name); }
  // What a kernel's name says about it (all false for a memcpy or a memset).
  const kernel_traits::KernelNameTraits& kernel(GpuActivityId id) const;
  // A kernel's short name (kernel_names.h), made once per name: shortening parses the name.
  const std::string& short_name(GpuActivityId id) const;
  // The region's attention ops (attention_ops.h), found for every member set at the first
  // question and kept: several rules ask, and finding them walks every activity's op chain.
  const std::vector<AttentionOp>& attention_ops(size_t region) const {
    return set_attention_ops(set_of(region));
  }
  const std::vector<AttentionOp>& set_attention_ops(size_t set) const;
  // Every set's attention ops, found by another context of the same trace (the thread that made
  // the attention calls hands them over), so that this one does not find them again.
  void take_attention_ops(std::vector<std::vector<AttentionOp>> by_set) {
    attention_ops_ = std::move(by_set);
  }
  // This context's attention ops by set, found if no one found them yet: what a context hands
  // over to another.
  std::vector<std::vector<AttentionOp>> attention_ops_by_set() const;
  // A device-to-device copy: a DtoD memcpy or a copy kernel (the copies hidden-copy and kv-repeat
  // blame).
  bool is_device_copy(GpuActivityId id) const;
  // The runtime/driver call that launched it, or "" when the trace lacks it.
  std::string_view launch_api(GpuActivityId id) const;
  // The outermost op (cpu_op) at or above host event `e`, kNoId when there is none. Kept per
  // event (host_tree_facts.h): a walk to the root per activity was most of the cpu-side-cost
  // rule's time.
  HostEventId top_level_op(HostEventId e) const;
  // The ops above it, outermost first.
  std::vector<std::string_view> op_chain(GpuActivityId id) const;
  // Whether any op above it has a name that `pred` accepts: op_chain without building it.
  template <typename Pred>
  bool any_op_above(GpuActivityId id, Pred pred) const {
    for (HostEventId op = trace.activity_op[id]; op != kNoId; op = trace.host_parent[op])
      if (trace.host_events[op].kind == HostKind::kCpuOp &&
          pred(trace.strings.view(trace.host_events[op].name)))
        return true;
    return false;
  }
  // "aten::masked_fill <- aten::clone <- aten::copy_" style text, innermost last.
  std::string chain_text(GpuActivityId id) const;
  // The region's label for evidence lines: "forward #2".
  std::string region_label(size_t region) const;

 private:
  // Filled at the first question. A context is used by one thread at a time: summarize_trace
  // gives the attention calls' thread a context of its own, and hands the findings' thread its
  // context once nothing else reads it.
  // By name id: a trace repeats a few hundred kernel names over its activities.
  mutable std::vector<kernel_traits::KernelNameTraits> kernel_traits_;
  mutable std::vector<bool> kernel_traits_known_;
  mutable KernelShortNames short_names_;
  mutable std::optional<std::vector<std::vector<AttentionOp>>> attention_ops_;  // by set
  std::vector<size_t> first_region_, regions_of_set_;                           // by set
  mutable HostTreeFacts<HostEventId> top_level_op_{trace, kNoId};
};

// Every rule of the finding catalog (finding_catalog.h), in its order.
std::vector<Finding> find_all(const FindingContext& context);

// A copy the hidden-copy rule blames: the GPU activity and the out-of-place op whose clone made it,
// with the first region that holds it (regions holding the same work share their copies).
struct HiddenCopy {
  size_t region = 0;
  GpuActivityId activity = kNoId;
  HostEventId op = kNoId;
};

// Every hidden copy of every distinct member set, in set (so first region) then GPU order
// (hidden_copy.cpp): the rule's evidence, and `annotate`'s links from each copy to its op, one
// per copy where N overlapping regions hold the same work.
std::vector<HiddenCopy> find_hidden_copy_activities(const FindingContext& context);

// Communication not overlapping compute is more than half the busy time (communication_bound.cpp;
// launch_bound.cpp does not claim such a region).
bool is_communication_bound(const TimeBreakdown& b);

}  // namespace attnprof
