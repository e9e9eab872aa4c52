#include "analysis/findings/finding_context.h"

#include <algorithm>

#include <fmt/format.h>

#include "analysis/findings/attention_ops.h"
#include "analysis/findings/finding_catalog.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/op_chain_limit.h"

namespace attnprof {

FindingContext::FindingContext(const Trace& trace, const RegionSet& regions,
                               const RegionMembers& members, const TraceAnalysis& analysis)
    : trace(trace), regions(regions), members(members), analysis(analysis) {
  first_region_.assign(members.sets.size(), 0);
  regions_of_set_.assign(members.sets.size(), 0);
  for (size_t r = members.regions(); r-- > 0;) {
    first_region_[members.set_of[r]] = r;
    ++regions_of_set_[members.set_of[r]];
  }
}

int FindingContext::regions_with(const std::vector<bool>& set_marked) const {
  size_t regions = 0;
  for (size_t s = 0; s < set_marked.size(); ++s)
    if (set_marked[s]) regions += regions_of_set_[s];
  return static_cast<int>(regions);
}

size_t FindingContext::typical_set() const {
  return typical() >= 0 ? set_of(static_cast<size_t>(typical())) : set_count();
}

const kernel_traits::KernelNameTraits& FindingContext::kernel(GpuActivityId id) const {
  static const kernel_traits::KernelNameTraits kNotAKernel;
  const GpuActivity& a = trace.gpu_activities[id];
  if (a.kind != GpuKind::kKernel) return kNotAKernel;
  if (kernel_traits_.empty()) {
    kernel_traits_.resize(trace.strings.size());
    kernel_traits_known_.assign(trace.strings.size(), false);
  }
  if (!kernel_traits_known_[a.name]) {
    kernel_traits_[a.name] = kernel_traits::traits_of(trace.strings.view(a.name));
    kernel_traits_known_[a.name] = true;
  }
  return kernel_traits_[a.name];
}

const std::string& FindingContext::short_name(GpuActivityId id) const {
  return short_names_.of(trace.strings, activity(id).name);
}

const std::vector<AttentionOp>& FindingContext::set_attention_ops(size_t set) const {
  if (!attention_ops_) attention_ops_ = find_attention_ops(*this);
  return (*attention_ops_)[set];
}

std::vector<std::vector<AttentionOp>> FindingContext::attention_ops_by_set() const {
  if (!attention_ops_) attention_ops_ = find_attention_ops(*this);
  return *attention_ops_;
}

HostEventId FindingContext::top_level_op(HostEventId e) const {
  if (e == kNoId) return kNoId;
  return top_level_op_.at(e, [&](HostEventId above, HostEventId event) {
    return above == kNoId && trace.host_events[event].kind == HostKind::kCpuOp ? event : above;
  });
}

bool FindingContext::is_device_copy(GpuActivityId id) const {
  const GpuActivity& a = activity(id);
  return (a.kind == GpuKind::kMemcpy && name(id).find("DtoD") != std::string_view::npos) ||
         (a.kind == GpuKind::kKernel && kernel(id).copy_kernel);
}

std::string_view FindingContext::launch_api(GpuActivityId id) const {
  HostEventId launch = trace.activity_launch[id];
  return launch == kNoId ? std::string_view() : trace.strings.view(trace.host_events[launch].name);
}

std::vector<std::string_view> FindingContext::op_chain(GpuActivityId id) const {
  std::vector<std::string_view> chain;
  HostEventId op = trace.activity_op[id];
  for (size_t walked = 0;
       op != kNoId && chain.size() < kMaxOpChainDepth && walked < kMaxOpChainWalk;
       op = trace.host_parent[op], ++walked)
    if (trace.host_events[op].kind == HostKind::kCpuOp)
      chain.push_back(trace.strings.view(trace.host_events[op].name));
  if (op != kNoId) chain.push_back(kOpChainCut);
  std::reverse(chain.begin(), chain.end());
  return chain;
}

std::string FindingContext::chain_text(GpuActivityId id) const {
  std::string text;
  for (std::string_view op : op_chain(id)) text += (text.empty() ? "" : " -> ") + std::string(op);
  std::string_view api = launch_api(id);
  if (!api.empty()) text += (text.empty() ? "" : " -> ") + std::string(api);
  return text;
}

std::string FindingContext::region_label(size_t region) const {
  return fmt::format("{} #{}", regions.regions[region].name, region + 1);
}

std::vector<Finding> find_all(const FindingContext& context) {
  std::vector<Finding> findings;
  if (context.region_count() == 0) return findings;
  for (const FindingDescription& f : finding_catalog())
    if (f.rule) f.rule(context, findings);
  return findings;
}

}  // namespace attnprof
