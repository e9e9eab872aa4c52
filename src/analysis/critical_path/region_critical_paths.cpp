#include "analysis/critical_path/region_critical_paths.h"

#include <fmt/format.h>

#include "analysis/critical_path/dependency_graph.h"
#include "analysis/critical_path/path_categories.h"
#include "analysis/critical_path/path_timing.h"
#include "analysis/critical_path/what_if_rules.h"

namespace attnprof {

namespace {

std::string bound_of(const CriticalPathCategories& c) {
  const std::pair<int64_t, const char*> groups[] = {
      {c.cpu_ns + c.launch_overhead_ns, "CPU"},
      {c.compute_ns + c.memory_ns, "GPU compute"},
      {c.communication_ns, "communication"},
      {c.sync_ns + c.kernel_gap_ns, "waits"},
  };
  const auto* best = &groups[0];
  for (const auto& g : groups)
    if (g.first > best->first) best = &g;
  return best->first > 0 ? best->second : "";
}

}  // namespace

void add_critical_paths(const Trace& trace, const RegionSet& set, const RegionMembers& members,
                        const std::vector<uint8_t>& class_of,
                        const std::vector<std::vector<GpuActivityId>>& attention_of_set,
                        const std::vector<WhatIfRule>& rules, KernelShortNames& kernel_names,
                        std::vector<RegionSummary>& regions, Diagnostics& diagnostics) {
  std::vector<uint8_t> is_attention(trace.gpu_activities.size(), 0);
  for (const auto& ids : attention_of_set)
    for (GpuActivityId id : ids) is_attention[id.index()] = 1;
  GraphInputs inputs;
  inputs.class_of = &class_of;
  std::vector<double> factors;
  if (!rules.empty()) {
    select_what_if(trace, rules, is_attention, kernel_names, inputs);
    for (const WhatIfRule& r : rules) factors.push_back(r.factor);
  }
  DependencyGraphBuilder builder(trace, inputs);

  std::vector<int64_t> first_region(members.sets.size(), -1);
  for (size_t r = 0; r < set.regions.size(); ++r)
    if (first_region[members.set_of[r]] < 0)
      first_region[members.set_of[r]] = static_cast<int64_t>(r);
  int64_t against_clock = 0, waits_without_record = 0, cycles = 0;
  std::vector<CriticalPath> paths(members.sets.size());
  std::vector<std::optional<WhatIf>> what_ifs(members.sets.size());
  for (size_t m = 0; m < members.sets.size(); ++m) {
    if (first_region[m] < 0) continue;
    const DependencyGraph g =
        builder.build(set.regions[static_cast<size_t>(first_region[m])], members.sets[m]);
    const PathTiming timing = time_graph(g);
    against_clock += timing.against_clock;
    waits_without_record += g.waits_without_record;
    cycles += timing.cycle ? 1 : 0;
    paths[m] = critical_path_of(trace, g, timing, is_attention, kernel_names);
    paths[m].bound_by = bound_of(paths[m].categories);
    if (!rules.empty()) {
      WhatIf w;
      w.length_before_ns = paths[m].length_ns;
      w.length_after_ns = retimed_length(g, timing, factors);
      for (const GraphEdge& e : g.edges)
        if (e.rules != 0) w.selected_ns += e.weight_ns;
      what_ifs[m] = w;
    }
  }
  for (size_t r = 0; r < regions.size(); ++r) {
    regions[r].critical_path = paths[members.set_of[r]];
    regions[r].what_if = what_ifs[members.set_of[r]];
  }
  if (against_clock > 0)
    diagnostics.add_many(
        DiagnosticKind::kDependencyAgainstClock, static_cast<uint64_t>(against_clock), 0,
        fmt::format("{} events of the critical path's graphs happen before a dependency of "
                    "theirs is done, by more than 1 µs{}: each is taken at the later time",
                    against_clock, cycles > 0 ? fmt::format(" ({} cycles cut)", cycles) : ""));
  if (waits_without_record > 0)
    diagnostics.add_many(DiagnosticKind::kWaitWithoutRecord,
                         static_cast<uint64_t>(waits_without_record), 0,
                         fmt::format("{} GPU waits name a cudaEventRecord the trace does not hold",
                                     waits_without_record));
}

}  // namespace attnprof
