#include "analysis/critical_path/region_critical_paths.h"

#include <fmt/format.h>

#include <optional>
#include <unordered_map>

#include "analysis/critical_path/attention_cpu_ops.h"
#include "analysis/critical_path/collective_holders.h"
#include "analysis/critical_path/dependency_graph.h"
#include "analysis/critical_path/path_categories.h"
#include "analysis/critical_path/path_timing.h"
#include "analysis/critical_path/what_if_rules.h"
#include "analysis/kernels/kernel_class.h"
#include "base/parallel_tasks.h"

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

// The class of each kernel, copy and memset, as the region facts give it (summarize.cpp): the
// graph reads only whether GPU work is communication, compute or memory.
std::vector<uint8_t> classes_of_work(const Trace& trace) {
  KernelShortNames names;
  std::unordered_map<StringId, KernelClass> of_name;
  std::vector<uint8_t> class_of(trace.gpu_activities.size(),
                                static_cast<uint8_t>(KernelClass::kOther));
  for (size_t i = 0; i < class_of.size(); ++i) {
    const GpuActivity& a = trace.gpu_activities[GpuActivityId(i)];
    KernelClass c = a.kind == GpuKind::kMemcpy   ? KernelClass::kCopy
                    : a.kind == GpuKind::kMemset ? KernelClass::kMemset
                                                 : KernelClass::kOther;
    if (a.kind == GpuKind::kKernel) {
      auto it = of_name.find(a.name);
      if (it == of_name.end())
        it = of_name
                 .emplace(a.name, classify_kernel(names.of(trace.strings, a.name),
                                                  trace.strings.view(a.name)))
                 .first;
      c = it->second;
    }
    class_of[i] = static_cast<uint8_t>(c);
  }
  return class_of;
}

}  // namespace

std::vector<RegionPathSegments> critical_path_segments_of_regions(const Trace& trace,
                                                                  const RegionSet& set,
                                                                  const RegionMembers& members) {
  const std::vector<uint8_t> class_of = classes_of_work(trace);
  GraphInputs inputs;
  inputs.class_of = &class_of;
  DependencyGraphBuilder builder(trace, inputs);
  std::vector<uint8_t> seen(members.sets.size(), 0);
  std::vector<RegionPathSegments> out;
  for (size_t r = 0; r < set.regions.size(); ++r) {
    const size_t m = members.set_of[r];
    if (seen[m]) continue;
    seen[m] = 1;
    const DependencyGraph g = builder.build(set.regions[r], members.sets[m]);
    out.push_back({r, critical_path_segments(g, time_graph(g))});
  }
  return out;
}

std::vector<PathSegment> critical_path_segments_of(const Trace& trace, const Region& region,
                                                   const MemberSet& members) {
  const std::vector<uint8_t> class_of = classes_of_work(trace);
  GraphInputs inputs;
  inputs.class_of = &class_of;
  DependencyGraphBuilder builder(trace, inputs);
  const DependencyGraph g = builder.build(region, members);
  return critical_path_segments(g, time_graph(g));
}

void add_critical_paths(const Trace& trace, const RegionSet& set, const RegionMembers& members,
                        const std::vector<uint8_t>& class_of,
                        const std::vector<std::vector<GpuActivityId>>& attention_of_set,
                        const std::vector<WhatIfRule>& rules, KernelShortNames& kernel_names,
                        std::vector<RegionSummary>& regions, Diagnostics& diagnostics,
                        size_t workers) {
  std::vector<uint8_t> is_attention(trace.gpu_activities.size(), 0);
  for (const auto& ids : attention_of_set)
    for (GpuActivityId id : ids) is_attention[id.index()] = 1;
  const std::vector<uint8_t> attention_cpu = attention_cpu_ops(trace, is_attention);
  const std::vector<uint8_t> under_attention_cpu = under_selected_ops(trace, attention_cpu);
  GraphInputs inputs;
  inputs.class_of = &class_of;
  std::vector<double> factors;
  if (!rules.empty()) {
    select_what_if(trace, rules, is_attention, attention_cpu, kernel_names, inputs);
    for (const WhatIfRule& r : rules) factors.push_back(r.factor);
  }

  std::vector<size_t> sets;  // the member sets a region holds, each with its first region
  std::vector<int64_t> first_region(members.sets.size(), -1);
  for (size_t r = 0; r < set.regions.size(); ++r)
    if (first_region[members.set_of[r]] < 0) {
      first_region[members.set_of[r]] = static_cast<int64_t>(r);
      sets.push_back(members.set_of[r]);
    }
  // The trace's index is found once and read by every worker; each builds its graphs with a
  // builder of its own (its scratch is per event of the trace) and names kernels with its own
  // cache; each set's path is written by one task only.
  struct Worker {
    std::optional<DependencyGraphBuilder> builder;
    KernelShortNames names;
    int64_t against_clock = 0, waits_without_record = 0, cycles = 0;
  };
  const TraceGraphIndex index(trace);  // outlives the workers' builders, which read it
  std::vector<Worker> of_worker(std::min(worker_count(workers), std::max<size_t>(sets.size(), 1)));
  std::vector<CriticalPath> paths(members.sets.size());
  std::vector<uint8_t> has_visits(members.sets.size(), 0);
  for (size_t r = 0; r < regions.size(); ++r)
    if (!regions[r].collective_visits.empty()) has_visits[members.set_of[r]] = 1;
  std::vector<std::vector<PathSegment>> segments(members.sets.size());
  std::vector<std::optional<WhatIf>> what_ifs(members.sets.size());
  run_tasks(sets.size(), of_worker.size(), [&](size_t worker, size_t task) {
    Worker& own = of_worker[worker];
    if (!own.builder) own.builder.emplace(trace, inputs, index);
    KernelShortNames& names = worker == 0 ? kernel_names : own.names;
    const size_t m = sets[task];
    const DependencyGraph g =
        own.builder->build(set.regions[static_cast<size_t>(first_region[m])], members.sets[m]);
    const PathTiming timing = time_graph(g);
    own.against_clock += timing.against_clock;
    own.waits_without_record += g.waits_without_record;
    own.cycles += timing.cycle ? 1 : 0;
    paths[m] = critical_path_of(trace, g, timing, is_attention, names);
    // Regions with collectives keep their path's stretches: what held each rank before each
    // collective is read from them once the paths are made.
    if (has_visits[m]) segments[m] = critical_path_segments(g, timing);
    paths[m].bound_by = bound_of(paths[m].categories);
    // The thread's time is tiled by its edges, each the innermost open event's (a blocking
    // call's wait weighs nothing): the selected ops' CPU time in the region, once.
    for (const GraphEdge& e : g.edges)
      if (e.kind == EdgeKind::kThread && e.host != kNoId && under_attention_cpu[e.host.index()])
        paths[m].attention_cpu_ns += e.weight_ns;
    if (!rules.empty()) {
      WhatIf w;
      w.length_before_ns = paths[m].length_ns;
      w.length_after_ns = retimed_length(g, timing, factors);
      for (const GraphEdge& e : g.edges)
        if (e.rules != 0) w.selected_ns += e.weight_ns;
      what_ifs[m] = w;
    }
  });
  int64_t against_clock = 0, waits_without_record = 0, cycles = 0;
  for (const Worker& w : of_worker) {
    against_clock += w.against_clock;
    waits_without_record += w.waits_without_record;
    cycles += w.cycles;
  }
  for (size_t r = 0; r < regions.size(); ++r) {
    regions[r].critical_path = paths[members.set_of[r]];
    regions[r].what_if = what_ifs[members.set_of[r]];
    if (has_visits[members.set_of[r]])
      add_collective_holders(trace, segments[members.set_of[r]], set.regions[r].start_ns,
                             set.regions[r].end_ns, regions[r], kernel_names);
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
