#pragma once
// What every finding rule reads: the linked trace, its regions with their members, and the
// summaries. Rules are pure functions of this context (docs/PRACTICES.md, pure analyses).

#include <string>
#include <string_view>
#include <vector>

#include "analysis/regions.h"
#include "attnprof/analysis.h"
#include "attnprof/findings.h"
#include "model/trace.h"

namespace attnprof {

struct FindingContext {
  const Trace& trace;
  const RegionSet& regions;
  const RegionMembers& members;
  const TraceAnalysis& analysis;

  size_t region_count() const { return regions.regions.size(); }
  int typical() const { return analysis.typical_region; }
  const std::vector<GpuActivityId>& activities(size_t region) const {
    return members.activities[region];
  }
  const GpuActivity& activity(GpuActivityId id) const { return trace.gpu_activities[id]; }
  std::string_view name(GpuActivityId id) const { return trace.strings.view(activity(id).name); }
  // A device-to-device copy: a DtoD memcpy or a copy kernel (the copies hidden-copy and kv-repeat
  // blame).
  bool is_device_copy(GpuActivityId id) const;
  // The runtime/driver call that launched it, or "" when the trace lacks it.
  std::string_view launch_api(GpuActivityId id) const;
  // The ops above it, outermost first.
  std::vector<std::string_view> op_chain(GpuActivityId id) const;
  // "aten::masked_fill <- aten::clone <- aten::copy_" style text, innermost last.
  std::string chain_text(GpuActivityId id) const;
  // The region's label for evidence lines: "forward #2".
  std::string region_label(size_t region) const;
};

using FindingRule = void (*)(const FindingContext&, std::vector<Finding>&);

// Every rule, in the order findings are shown.
std::vector<Finding> find_all(const FindingContext& context);

// A copy the hidden-copy rule blames: the GPU activity and the out-of-place op whose clone made it.
struct HiddenCopy {
  size_t region = 0;
  GpuActivityId activity = kNoId;
  HostEventId op = kNoId;
};

// Every hidden copy of every region, in region then GPU order (hidden_copy.cpp): the rule's
// evidence, and `annotate`'s links from each copy to its op.
std::vector<HiddenCopy> find_hidden_copy_activities(const FindingContext& context);

// The rules (one file each under src/analysis/findings/).
void find_hidden_copies(const FindingContext&, std::vector<Finding>&);
void find_kv_repeat(const FindingContext&, std::vector<Finding>&);
void find_precision_upcast(const FindingContext&, std::vector<Finding>&);
void find_mask_rebuilt(const FindingContext&, std::vector<Finding>&);
void find_not_fused(const FindingContext&, std::vector<Finding>&);
void find_low_occupancy(const FindingContext&, std::vector<Finding>&);
void find_cpu_side_cost(const FindingContext&, std::vector<Finding>&);
void find_launch_bound(const FindingContext&, std::vector<Finding>&);
void find_synchronizations(const FindingContext&, std::vector<Finding>&);
void find_persistent_kernels(const FindingContext&, std::vector<Finding>&);
void find_launch_kernel_ex(const FindingContext&, std::vector<Finding>&);
void find_split_kv(const FindingContext&, std::vector<Finding>&);

}  // namespace attnprof
