#include "analysis/summarize.h"

#include <algorithm>
#include <cmath>
#include <future>
#include <limits>
#include <thread>
#include <unordered_map>

#include <fmt/format.h>

#include "analysis/attention/attention_calls.h"
#include "analysis/busy_time.h"
#include "analysis/collectives/collective_visits.h"
#include "analysis/collectives/collectives.h"
#include "analysis/critical_path/region_critical_paths.h"
#include "analysis/device_summary.h"
#include "analysis/duration_sum.h"
#include "analysis/findings/finding_context.h"
#include "analysis/findings/finding_explained_time.h"
#include "analysis/host_tree_facts.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/kernels/occupancy.h"
#include "analysis/launch_queue.h"
#include "analysis/memory_events.h"
#include "analysis/op_arguments.h"
#include "analysis/op_chain_limit.h"
#include "analysis/outside_regions.h"
#include "analysis/regions/region_facts.h"
#include "analysis/regions/region_memory.h"
#include "analysis/regions/region_waits.h"
#include "analysis/regions/regions.h"
#include "analysis/spread.h"
#include "analysis/time_breakdown.h"
#include "analysis/top_tables.h"
#include "analysis/trace_annotations.h"
#include "base/parallel_tasks.h"

namespace attnprof {

namespace {

constexpr uint8_t kNotWork = 0xff;

class RowMaker {
 public:
  // Regions that are ops (RegionSet::from_ops) are left out of op chains, as annotations are.
  RowMaker(const Trace& trace, const RegionSet& set) : trace_(trace) {
    for (const Region& r : set.regions)
      if (r.op != kNoId) region_ops_.push_back(r.op);
    std::sort(region_ops_.begin(), region_ops_.end());
  }

  ActivityRow make(GpuActivityId id, int64_t region_start) {
    const GpuActivity& a = trace_.gpu_activities[id];
    ActivityRow row;
    row.kind = a.kind == GpuKind::kMemcpy   ? ActivityKind::kMemcpy
               : a.kind == GpuKind::kMemset ? ActivityKind::kMemset
                                            : ActivityKind::kKernel;
    row.name = std::string(trace_.strings.view(a.name));
    row.short_name = short_name(a);
    if (a.kind == GpuKind::kMemcpy) row.memcpy_kind = memcpy_kind(row.name);
    HostEventId launch = trace_.activity_launch[id];
    if (launch != kNoId)
      row.launch_api = std::string(trace_.strings.view(trace_.host_events[launch].name));
    HostEventId op = trace_.activity_op[id];
    if (op != kNoId && !in_chain(op)) op = chain_op_above(op);
    for (; op != kNoId && row.op_chain.size() < kMaxOpChainDepth; op = chain_op_above(op))
      row.op_chain.emplace_back(trace_.strings.view(trace_.host_events[op].name));
    if (op != kNoId) row.op_chain.emplace_back(kOpChainCut);
    std::reverse(row.op_chain.begin(), row.op_chain.end());
    row.attribution = trace_.activity_attribution[id];
    row.grid = a.grid;
    row.block = a.block;
    row.registers_per_thread = a.registers_per_thread;
    row.shared_memory_bytes = a.shared_memory;
    if (a.kind == GpuKind::kKernel && a.kineto_occupancy_pct >= 0)
      row.kineto_occupancy_pct = a.kineto_occupancy_pct;
    if (const DeviceProperties* d = trace_.device(a.device)) {
      if (auto e = estimate_occupancy(a, *d)) {
        row.occupancy_pct = e->achieved_pct;
        row.occupancy_limiter = std::string(e->limiter);
      }
    }
    row.bytes = a.bytes;
    row.start_ns = a.start_ns - region_start;
    row.duration_ns = a.dur_ns;
    row.stream = a.stream;
    return row;
  }

 private:
  // An op that belongs in an op chain: a cpu_op that is not a region.
  bool in_chain(HostEventId e) const {
    return trace_.host_events[e].kind == HostKind::kCpuOp &&
           !std::binary_search(region_ops_.begin(), region_ops_.end(), e);
  }
  // The nearest ancestor of `e` that belongs in an op chain, kept per event (host_tree_facts.h):
  // under a deep nest of annotations, a walk per activity was quadratic (docs/SECURITY.md).
  HostEventId chain_op_above(HostEventId e) {
    const HostEventId parent = trace_.host_parent[e];
    if (parent == kNoId) return kNoId;
    // The fact kept is the nearest op of a chain at or above an event.
    return chain_op_at_or_above_.at(parent, [&](HostEventId above, HostEventId event) {
      return in_chain(event) ? event : above;
    });
  }
  const std::string& short_name(const GpuActivity& a) {
    if (a.kind == GpuKind::kKernel) return kernel_names_.of(trace_.strings, a.name);
    auto it = short_names_.find(a.name);
    if (it != short_names_.end()) return it->second;
    std::string_view full = trace_.strings.view(a.name);
    return short_names_.emplace(a.name, std::string(full.substr(0, full.find(" (")))).first->second;
  }

 public:
  // The kernels' short names, for the launch delays too: each name is folded once.
  KernelShortNames& kernel_names() { return kernel_names_; }
  KernelClass activity_class(GpuActivityId id) {
    const GpuActivity& a = trace_.gpu_activities[id];
    if (a.kind == GpuKind::kMemcpy) return KernelClass::kCopy;
    if (a.kind == GpuKind::kMemset) return KernelClass::kMemset;
    auto it = classes_.find(a.name);
    if (it != classes_.end()) return it->second;
    KernelClass c = classify_kernel(short_name(a), trace_.strings.view(a.name));
    classes_.emplace(a.name, c);
    return c;
  }

 private:
  const Trace& trace_;
  std::vector<HostEventId> region_ops_;  // sorted
  KernelShortNames kernel_names_;
  std::unordered_map<StringId, std::string> short_names_;  // of copies and memsets
  std::unordered_map<StringId, KernelClass> classes_;      // kernels only
  HostTreeFacts<HostEventId> chain_op_at_or_above_{trace_, kNoId};
};

// The class of every GPU activity of the trace (kNotWork for synchronizations and ranges), by
// index: the class facts and the time breakdowns read it.
std::vector<uint8_t> classes_of_activities(const Trace& trace, RowMaker& rows) {
  std::vector<uint8_t> class_of(trace.gpu_activities.size(), kNotWork);
  for (size_t i = 0; i < class_of.size(); ++i)
    if (is_gpu_work(trace.gpu_activities[GpuActivityId(i)].kind))
      class_of[i] = static_cast<uint8_t>(rows.activity_class(GpuActivityId(i)));
  return class_of;
}

// Each class's count and time per region, one class at a time: a trace of a million regions
// holds two values per region at once, not two per region and class. Worked out once per member
// set, which regions holding the same work share.
std::array<KernelClassFacts, kKernelClassCount> class_facts(const Trace& trace,
                                                            const RegionMembers& members,
                                                            const std::vector<uint8_t>& class_of) {
  std::array<bool, kKernelClassCount> present{};
  for (const MemberSet& set : members.sets)
    for (GpuActivityId id : set.activities) present[class_of[id.index()]] = true;
  const size_t regions = members.regions();
  std::array<KernelClassFacts, kKernelClassCount> out;
  for (size_t c = 0; c < kKernelClassCount; ++c) {
    std::vector<double> set_counts(members.sets.size(), 0.0), set_times(members.sets.size(), 0.0);
    if (present[c]) {
      for (size_t m = 0; m < members.sets.size(); ++m) {
        for (GpuActivityId id : members.sets[m].activities) {
          if (class_of[id.index()] != c) continue;
          set_counts[m] += 1;
          set_times[m] += static_cast<double>(trace.gpu_activities[id].dur_ns);
        }
      }
    }
    std::vector<double> counts(regions), times(regions);
    for (size_t r = 0; r < regions; ++r) {
      counts[r] = set_counts[members.set_of[r]];
      times[r] = set_times[members.set_of[r]];
    }
    out[c] = KernelClassFacts{spread_of(std::move(counts)), spread_of(std::move(times))};
  }
  return out;
}

TimedWork timed_work(const GpuActivity& a, uint8_t kernel_class) {
  const auto c = static_cast<KernelClass>(kernel_class);
  const WorkKind kind = a.kind != GpuKind::kKernel         ? WorkKind::kMemory
                        : c == KernelClass::kCommunication ? WorkKind::kCommunication
                                                           : WorkKind::kCompute;
  return TimedWork{a.start_ns, a.end_ns(), kind};
}

TimeBreakdown breakdown_of(const Trace& trace, const std::vector<GpuActivityId>& ids,
                           const std::vector<uint8_t>& class_of) {
  std::vector<TimedWork> work;
  work.reserve(ids.size());
  for (GpuActivityId id : ids)
    work.push_back(timed_work(trace.gpu_activities[id], class_of[id.index()]));
  return time_breakdown(std::move(work));
}

std::vector<StreamIdle> idle_of(const Trace& trace, const std::vector<GpuActivityId>& ids) {
  std::vector<StreamWork> work;
  work.reserve(ids.size());
  for (GpuActivityId id : ids) {
    const GpuActivity& a = trace.gpu_activities[id];
    const HostEventId launch = trace.activity_launch[id];
    work.push_back(StreamWork{a.stream, a.start_ns, a.end_ns(),
                              launch == kNoId ? -1 : trace.host_events[launch].start_ns});
  }
  return idle_by_stream(std::move(work));
}

TimeBreakdown breakdown_of_trace(const Trace& trace, const std::vector<uint8_t>& class_of) {
  std::vector<TimedWork> work;
  work.reserve(trace.gpu_activities.size());
  for (size_t i = 0; i < class_of.size(); ++i)
    if (class_of[i] != kNotWork)
      work.push_back(timed_work(trace.gpu_activities[GpuActivityId(i)], class_of[i]));
  return time_breakdown(std::move(work));
}

// Regions that mix processes, or that are ops, are said so in the warnings: a median over the
// steps of two ranks, or a CPU time that leaves out the region's own op, must not pass unseen.
void explain_region_sources(const Trace& trace, const RegionSet& set, TraceAnalysis& out) {
  const std::vector<int32_t> processes = host_processes(trace);
  std::vector<int32_t> pids;
  for (const Region& r : set.regions)
    if (!r.any_process) pids.push_back(r.pid);
  std::sort(pids.begin(), pids.end());
  pids.erase(std::unique(pids.begin(), pids.end()), pids.end());
  if (pids.size() > 1) {
    out.region_pids = pids;
    out.diagnostics.add(
        DiagnosticKind::kSeveralProcesses, 0,
        fmt::format("the {} regions come from {} processes (pids {}): each region names its pid, "
                    "and holds only the GPU work its own process launched; the medians and the "
                    "typical region are over all of them",
                    set.regions.size(), pids.size(), fmt::join(pids, ", ")));
  } else if (set.regions.size() == 1 && set.regions[0].any_process && processes.size() > 1) {
    out.diagnostics.add(
        DiagnosticKind::kSeveralProcesses, 0,
        fmt::format("the trace holds {} processes (pids {}) and no ProfilerStep#*: the whole-trace "
                    "region adds up the work of all of them; --region NAME picks annotations, "
                    "each within its own process",
                    processes.size(), fmt::join(processes, ", ")));
  }
  if (set.from_ops)
    out.diagnostics.add(
        DiagnosticKind::kScopesAsOps, 0,
        fmt::format("no annotation matches \"{}\", but {} op(s) do: PyTorch 1.8-1.9 wrote "
                    "record_function scopes as ops (category \"Operator\"), so these ops are the "
                    "regions, and their CPU time is that of the ops under them",
                    set.pattern, set.regions.size()));
  else if (trace.legacy_operators)
    out.diagnostics.add(
        DiagnosticKind::kScopesAsOps, 0,
        std::string("PyTorch 1.8-1.9 wrote record_function scopes as ops (category \"Operator\"): "
                    "attnprof reads ProfilerStep#N as steps, but any other scope inside a region "
                    "(such as \"forward\") counts as an op, in its CPU time and in op chains; "
                    "--region NAME makes such scopes the regions"));
}

}  // namespace

TraceAnalysis summarize_trace(const Trace& trace, const AnalyzeOptions& options) {
  const RegionSet set = find_regions(trace, options.region_pattern);
  const RegionMembers members = assign_to_regions(trace, set);
  return summarize_regions(trace, set, members, options);
}

TraceAnalysis summarize_regions(const Trace& trace, const RegionSet& set,
                                const RegionMembers& members, const AnalyzeOptions& options) {
  TraceAnalysis out;
  out.path = trace.path;
  out.json_bytes = trace.json_bytes;
  out.events = trace.events_read;
  out.diagnostics = trace.diagnostics;
  if (trace.distributed.present) {
    out.distributed_backend =
        trace.distributed.backend.empty() ? "unknown" : trace.distributed.backend;
    out.rank = trace.distributed.rank;
    out.world_size = trace.distributed.world_size;
  }
  for (const auto& d : trace.devices) out.devices.push_back(summarize_device(d));

  out.region_pattern = set.pattern;
  if (set.pattern.empty()) out.annotations = annotation_counts(trace);
  explain_region_sources(trace, set, out);
  out.outside_regions = work_outside_regions(trace, set, members);
  diagnose_work_outside_regions(out.outside_regions, out.diagnostics);

  const MemoryEvents memory(trace, out.diagnostics);
  FindingContext context{trace, set, members, out};
  const bool second_core = has_core_beside(options.reading_workers);
  // The attention calls ask the findings' attention ops (finding_context.h). They read the trace
  // and the region members only (not `out`, which a context names for the findings), so with a
  // second core they are made beside everything below up to the top tables
  // (docs/PERFORMANCE.md, "The attention calls from the start"), with a context of their own;
  // the attention ops they found are handed over with them, to the findings' context.
  struct AttentionOfSets {
    std::vector<AttentionCalls> calls;
    std::vector<std::vector<AttentionOp>> ops;
  };
  auto attention = start_beside(second_core, [&] {
    const FindingContext own{trace, set, members, out};
    // Every step repeats the same shapes: each recorded text is parsed once.
    std::unordered_map<StringId, std::optional<std::vector<OpArgument>>> parsed;
    const OpArgumentsOf arguments = [&](HostEventId op) -> std::optional<std::vector<OpArgument>> {
      const std::optional<StringId> text = op_inputs_text(trace, op);
      if (!text) return std::nullopt;
      auto it = parsed.find(*text);
      if (it == parsed.end())
        it = parsed.emplace(*text, op_arguments_of_text(trace.op_input_texts.view(*text))).first;
      return it->second;
    };
    // Once per member set, as the summaries above: regions that hold the same work hold the
    // same calls.
    const ForwardOps forwards(trace);
    AttentionOfSets of_sets;
    of_sets.calls.resize(members.sets.size());
    for (size_t m = 0; m < members.sets.size(); ++m)
      of_sets.calls[m] =
          attention_calls_of(own, own.first_region_of(m), arguments, forwards, memory);
    of_sets.ops = own.attention_ops_by_set();
    return of_sets;
  });
  // What a region's activities say is worked out once per member set (regions that hold the same
  // work share one) and copied; the span, the name and the CPU time are the region's own.
  RowMaker rows(trace, set);
  const std::vector<uint8_t> class_of = classes_of_activities(trace, rows);
  std::vector<RegionSummary> of_set(members.sets.size());
  std::vector<int64_t> last_op_end(members.sets.size(), std::numeric_limits<int64_t>::min());
  for (size_t m = 0; m < members.sets.size(); ++m) {
    const MemberSet& held = members.sets[m];
    RegionSummary& s = of_set[m];
    for (HostEventId op : held.top_level_ops) {
      const HostEvent& e = trace.host_events[op];
      add_duration(s.cpu_ns, e.dur_ns);
      last_op_end[m] = std::max(last_op_end[m], e.end_ns());
    }
    for (GpuActivityId id : held.activities) {
      const GpuActivity& a = trace.gpu_activities[id];
      if (is_gpu_work(a.kind))
        ++s.by_attribution[static_cast<size_t>(trace.activity_attribution[id])];
      if (a.kind == GpuKind::kKernel) {
        ++s.kernels;
      } else if (a.kind == GpuKind::kMemcpy) {
        ++s.memcpy;
        ++s.memcpy_by_kind[memcpy_kind(trace.strings.view(a.name))];
      } else if (a.kind == GpuKind::kMemset) {
        ++s.memset;
      }
    }
    s.gpu_busy_ns = busy_time(trace, held.activities);
    s.gpu_syncs = static_cast<int64_t>(held.syncs.size());
    // Classes and breakdowns before the findings start, so that the findings can read them.
    s.breakdown = breakdown_of(trace, held.activities, class_of);
    s.idle_by_stream = idle_of(trace, held.activities);
    s.launch_delays =
        launch_delays(trace, held.activities, /*region_start=*/0, rows.kernel_names());
    s.queues = stream_queues(trace, held.activities);
    for (GpuActivityId id : held.activities)
      if (class_of[id.index()] == static_cast<uint8_t>(KernelClass::kCommunication))
        s.communication_starts_ns.push_back(trace.gpu_activities[id].start_ns);
    s.collectives = collective_totals(trace, held.activities, class_of, rows.kernel_names());
    s.collective_visits =
        kernel_collective_visits(trace, held.activities, class_of, rows.kernel_names());
  }
  const CpuCollectives cpu_collectives(trace);
  for (size_t r = 0; r < set.regions.size(); ++r) {
    const Region& region = set.regions[r];
    RegionSummary s = of_set[members.set_of[r]];
    s.name = region.name;
    s.pid = region.any_process ? 0 : region.pid;
    s.start_ns = region.start_ns;
    // The whole trace's end is one past its last event's, to hold it: its wall is the span.
    s.wall_ns = region.end_ns - region.start_ns - (region.any_process ? 1 : 0);
    // A region without communication kernels may still have run collectives on its CPU (gloo).
    if (s.collective_visits.empty())
      s.collective_visits =
          cpu_collectives.within(region.pid, region.any_process, region.start_ns, region.end_ns);
    for (LaunchDelay& d : s.launch_delays.longest) d.start_ns -= region.start_ns;
    // An op that outlasts the region counts up to the region's end only.
    if (last_op_end[members.set_of[r]] > region.end_ns) {
      s.cpu_ns = 0;
      for (HostEventId op : members.top_level_ops(r)) {
        const HostEvent& e = trace.host_events[op];
        add_duration(s.cpu_ns, std::min(e.end_ns(), region.end_ns) - e.start_ns);
      }
    }
    out.regions.push_back(std::move(s));
  }
  out.breakdown = breakdown_of_trace(trace, class_of);
  {
    std::vector<std::vector<RegionMemory>> of_regions =
        region_memory(trace, set, memory, out.diagnostics);
    for (size_t r = 0; r < out.regions.size(); ++r)
      out.regions[r].memory = std::move(of_regions[r]);
    std::vector<GpuActivityId> work;
    for (size_t i = 0; i < class_of.size(); ++i)
      if (class_of[i] != kNotWork) work.push_back(GpuActivityId(i));
    out.idle_by_stream = idle_of(trace, work);
    out.collectives = collective_totals(trace, work, class_of, rows.kernel_names());
    out.link = gpu_link(trace);
  }

  out.facts = facts_of_summaries(out.regions);
  out.facts.breakdown = breakdown_facts(out.regions);
  out.facts.waits = wait_facts(out.regions);
  out.typical_region = typical_region(out.regions, out.facts);
  // The findings read the trace and the summaries above, and nothing below writes to `out` until
  // they are done: with a second core they run beside the rows (every region's, for Python, csv
  // and diff: a third of the work after the read), else before them.
  TopTablesMaker top_tables(trace, set, members, options.ops_by_shape);
  for (size_t r = 0; r < out.regions.size(); ++r)
    if (options.tables_of_every_region || static_cast<int>(r) == out.typical_region)
      out.regions[r].tables = top_tables.tables(r);
  {
    AttentionOfSets of_sets = attention.get();
    context.take_attention_ops(std::move(of_sets.ops));
    const std::vector<AttentionCalls>& of_set = of_sets.calls;
    std::vector<const AttentionCalls*> of_regions;
    std::vector<int64_t> busy;
    for (size_t r = 0; r < out.regions.size(); ++r) {
      const AttentionCalls& calls = of_set[members.set_of[r]];
      if (options.attention_of_every_region || static_cast<int>(r) == out.typical_region)
        out.regions[r].attention = calls;
      of_regions.push_back(&calls);
      busy.push_back(out.regions[r].gpu_busy_ns);
    }
    out.attention = median_attention_calls(of_regions, busy, out.typical_region);
  }
  {
    // Before the findings start, which may read the paths.
    std::vector<std::vector<GpuActivityId>> attention_of_set(members.sets.size());
    for (size_t m = 0; m < members.sets.size(); ++m)
      for (const AttentionOp& op : context.set_attention_ops(m))
        attention_of_set[m].insert(attention_of_set[m].end(), op.activities.begin(),
                                   op.activities.end());
    // Nothing else runs here: the attention calls are done, the findings not started.
    add_critical_paths(trace, set, members, class_of, attention_of_set, options.what_if,
                       rows.kernel_names(), out.regions, out.diagnostics, options.reading_workers);
  }
  std::future<std::vector<Finding>> findings;
  if (options.explain) {
    // The context is the findings' from here: nothing on this thread reads it again.
    findings = start_beside(second_core, [&] { return find_all(context); });
    if (!second_core) out.findings = findings.get();
  }

  std::vector<TraceMarker> markers;
  for (const InstantEvent& e : trace.instants) {
    std::string_view name = trace.strings.view(e.name);
    if (name.starts_with(kMarkerPrefix))
      markers.push_back({std::string(name.substr(kMarkerPrefix.size())), e.ts_ns});
  }
  std::stable_sort(markers.begin(), markers.end(),
                   [](const TraceMarker& a, const TraceMarker& b) { return a.ts_ns < b.ts_ns; });

  auto activities_of = [&](size_t r) {
    std::vector<ActivityRow> list;
    list.reserve(members.activities(r).size());
    for (GpuActivityId id : members.activities(r))
      list.push_back(rows.make(id, set.regions[r].start_ns));
    return list;
  };
  std::vector<std::vector<ActivityRow>> activities(out.regions.size());
  for (size_t r = 0; r < out.regions.size(); ++r) {
    const bool typical = static_cast<int>(r) == out.typical_region;
    if (!options.activities_of_every_region && !typical) continue;
    if (options.activities_of_every_region && options.take_activities) {
      std::vector<ActivityRow> rows = activities_of(r);
      if (typical) activities[r] = rows;  // its main kernel is a fact below
      options.take_activities(out, r, std::move(rows));
    } else {
      activities[r] = activities_of(r);
    }
  }
  auto by_class = class_facts(trace, members, class_of);

  if (findings.valid()) out.findings = findings.get();
  out.markers = std::move(markers);
  for (size_t r = 0; r < out.regions.size(); ++r)
    out.regions[r].activities = std::move(activities[r]);
  out.facts.by_class = by_class;
  weigh_findings(
      out.findings,
      out.typical_region >= 0 ? out.regions[out.typical_region].critical_path : CriticalPath{},
      out.facts);
  if (out.typical_region >= 0) {
    const ActivityRow* longest = nullptr;
    for (const ActivityRow& row : out.regions[out.typical_region].activities)
      if (row.kind == ActivityKind::kKernel && (!longest || row.duration_ns > longest->duration_ns))
        longest = &row;
    if (longest) out.facts.main_kernel = main_kernel_of(*longest);
  }
  if (options.analyzed)
    options.analyzed(out, activities_of, [&](size_t r) { return top_tables.tables(r); });
  return out;
}

}  // namespace attnprof
