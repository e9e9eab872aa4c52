#include "reader/linker.h"

#include <algorithm>
#include <string>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "base/parallel_tasks.h"
#include "model/huge_pages.h"
#include "model/sorted_runs.h"
#include "reader/graph_replays.h"
#include "reader/kineto_format.h"
#include "reader/memory_links.h"
#include "reader/shared_correlations.h"

namespace attnprof {

namespace {

// A runtime or driver call with a correlation id, and the innermost cpu_op above it.
struct Launch {
  int64_t correlation;
  HostEventId launch;
  HostEventId op;
};

// Parents of host events [begin, end), which start at a thread's first event; and the launches
// among them, in table order. The stack holds an event's ancestors when it is pushed, so the
// innermost cpu_op among them comes with it: no walk up the parents per GPU activity later (the
// walks, a cache miss per step, were half of linking a 1 GB trace).
void link_parents(Trace& trace, size_t begin, size_t end, std::vector<Launch>& launches) {
  const auto& host = trace.host_events;
  struct Entry {
    HostEventId event;
    HostEventId op;  // the innermost cpu_op of the stack up to this entry
  };
  std::vector<Entry> stack;
  for (size_t i = begin; i < end; ++i) {
    const HostEvent& e = host[i];
    if (i > begin && (host[i - 1].pid != e.pid || host[i - 1].tid != e.tid)) stack.clear();
    // Sorted by start (longest first at a tie): whatever on the stack ends before this event
    // ends cannot hold it, whether it ended before this one started or overlaps it partly.
    while (!stack.empty() && host[stack.back().event].end_ns() < e.end_ns()) stack.pop_back();
    HostEventId op = kNoId;
    if (!stack.empty()) {
      trace.host_parent[i] = stack.back().event;
      op = stack.back().op;
    }
    const auto id = static_cast<HostEventId>(i);
    if ((e.kind == HostKind::kRuntime || e.kind == HostKind::kDriver) && e.correlation != kNoValue)
      launches.push_back({e.correlation, id, op});
    stack.push_back({id, e.kind == HostKind::kCpuOp ? id : op});
  }
}

// A diagnostic whose detail is formatted only when it is among the few kept.
template <typename Detail>
void diagnose(Trace& trace, DiagnosticKind kind, Detail&& detail) {
  trace.diagnostics.add(
      kind, 0,
      trace.diagnostics.count(kind) < Diagnostics::kKeptPerKind ? detail() : std::string());
}

// GPU work cannot start before the call that launched it: when it seems to, the trace's GPU
// clock is behind its CPU clock (Kineto converts CUPTI's timestamps; some versions and
// platforms drift by milliseconds). Counted once for the trace, with how far.
class ClockSkew {
 public:
  void see(const GpuActivity& a, const HostEvent& launch) {
    ++linked_;
    const int64_t early = launch.start_ns - a.start_ns;
    if (early <= 0) return;
    ++early_;
    least_ = early_ == 1 ? early : std::min(least_, early);
    most_ = std::max(most_, early);
  }
  void diagnose(Trace& trace) const {
    if (early_ == 0) return;
    trace.diagnostics.add_many(
        DiagnosticKind::kGpuBeforeLaunch, early_, 0,
        fmt::format(
            "{} of {} GPU activities start before the call that launched them, by {:.1f} to "
            "{:.1f} µs: the trace's GPU clock runs behind its CPU clock; regions place GPU work "
            "by its launch, so what they hold is right, but GPU times set against CPU times "
            "(activity starts within a region, launch delays) are off by as much",
            early_, linked_, least_ / 1e3, most_ / 1e3));
  }

 private:
  uint64_t linked_ = 0, early_ = 0;
  int64_t least_ = 0, most_ = 0;
};

// GPU activity -> launch by correlation id, as a join of the two lists sorted by it: the launches
// come nearly sorted (by time within a thread), and a hash table's random probes cost a cache
// miss each. `launches` are in table order.
void link_launches(Trace& trace, std::vector<Launch>& launches) {
  const auto& host = trace.host_events;
  const auto& gpu = trace.gpu_activities;
  // An id that several launches share (merged ranks, restarted sessions) is resolved per
  // activity by SharedCorrelations, once the ids no one shares tell which process drives which
  // device.
  stable_sort_runs(launches.begin(), launches.end(),
                   [](const Launch& a, const Launch& b) { return a.correlation < b.correlation; });
  std::vector<std::pair<int64_t, HostEventId>> duplicates;
  // The op above each launch of a shared id, known from the stack (a walk up the parents per
  // activity was quadratic under deep annotations, docs/SECURITY.md).
  std::unordered_map<HostEventId, HostEventId> op_of_shared;
  for (size_t i = 1; i < launches.size(); ++i)
    if (launches[i].correlation == launches[i - 1].correlation) {
      duplicates.emplace_back(launches[i - 1].correlation, launches[i - 1].launch);
      duplicates.emplace_back(launches[i].correlation, launches[i].launch);
      op_of_shared[launches[i - 1].launch] = launches[i - 1].op;
      op_of_shared[launches[i].launch] = launches[i].op;
    }
  SharedCorrelations shared(trace, std::move(duplicates));

  assign_on_huge_pages(trace.activity_launch, gpu.size(), kNoId);
  assign_on_huge_pages(trace.activity_op, gpu.size(), kNoId);
  struct Wanted {
    int64_t correlation;
    GpuActivityId activity;
  };
  std::vector<Wanted> wanted;
  wanted.reserve(gpu.size());
  for (size_t g = 0; g < gpu.size(); ++g)
    if ((is_gpu_work(gpu[g].kind) || gpu[g].kind == GpuKind::kSync) &&
        gpu[g].correlation != kNoValue)
      wanted.push_back({gpu[g].correlation, static_cast<GpuActivityId>(g)});
  stable_sort_runs(wanted.begin(), wanted.end(),
                   [](const Wanted& a, const Wanted& b) { return a.correlation < b.correlation; });
  std::vector<bool> launched(host.size(), false);
  std::vector<GpuActivityId> of_shared_ids;
  size_t l = 0;
  for (const Wanted& w : wanted) {
    while (l < launches.size() && launches[l].correlation < w.correlation) ++l;
    if (l == launches.size() || launches[l].correlation != w.correlation) continue;
    if (l + 1 < launches.size() && launches[l + 1].correlation == w.correlation) {
      of_shared_ids.push_back(w.activity);
      continue;
    }
    trace.activity_launch[w.activity] = launches[l].launch;
    trace.activity_op[w.activity] = launches[l].op;
    launched[launches[l].launch.index()] = true;
  }
  if (!of_shared_ids.empty()) {
    for (size_t g = 0; g < gpu.size(); ++g)
      if (trace.activity_launch[g] != kNoId)
        shared.learn_device(gpu[g].device, host[trace.activity_launch[g]].pid);
    for (GpuActivityId g : of_shared_ids) {
      const HostEventId launch = shared.choose(gpu[g]);
      trace.activity_launch[g] = launch;
      trace.activity_op[g] = op_of_shared.at(launch);
      launched[launch.index()] = true;
    }
  }
  shared.diagnose(trace);

  trace.first_launch_correlation = launches.empty() ? kNoValue : launches.front().correlation;
  std::vector<GpuActivityId> by_external_id;  // activities whose op is found by "External id"
  ClockSkew skew;
  for (size_t g = 0; g < gpu.size(); ++g) {
    const GpuActivity& a = gpu[g];
    if (!is_gpu_work(a.kind) && a.kind != GpuKind::kSync) continue;
    // Work launched before the window opened is summed up by the analysis
    // (analysis/outside_regions.h), and work without any correlation id (MTIA's DMA transfers)
    // never had a call to find.
    const bool carried_in =
        a.correlation != kNoValue && a.correlation < trace.first_launch_correlation;
    if (trace.activity_launch[g] == kNoId && a.correlation != kNoValue && !carried_in)
      diagnose(trace, DiagnosticKind::kActivityWithoutLaunch, [&] {
        return fmt::format("\"{}\" (correlation {}) has no runtime call in the trace",
                           trace.strings.view(a.name), a.correlation);
      });
    else if (trace.activity_launch[g] != kNoId)
      skew.see(a, host[trace.activity_launch[g]]);
    if (trace.activity_op[g] != kNoId || a.external_id == kNoValue) continue;
    if (a.external_id == a.correlation) {
      // Kineto 2022-04 to 2024-02 (kineto#843) wrote the correlation id as "External id":
      // an op with that number would be a stranger.
      diagnose(trace, DiagnosticKind::kExternalIdIsCorrelation, [&] {
        return fmt::format(
            "\"{}\" (correlation {}) has no op above its launch, and its \"External id\" is "
            "its correlation id, as Kineto wrote it from 2022 to early 2024 (PyTorch 1.12-2.2): "
            "its op is left unknown rather than taken from that id",
            trace.strings.view(a.name), a.correlation);
      });
      continue;
    }
    by_external_id.push_back(static_cast<GpuActivityId>(g));
  }
  skew.diagnose(trace);
  if (!by_external_id.empty()) {
    // The first cpu_op (in table order) with each wanted External id.
    std::vector<std::pair<int64_t, HostEventId>> ops;
    for (GpuActivityId g : by_external_id) ops.emplace_back(gpu[g].external_id, kNoId);
    std::sort(ops.begin(), ops.end());
    ops.erase(std::unique(ops.begin(), ops.end()), ops.end());
    for (size_t i = 0; i < host.size(); ++i) {
      const HostEvent& e = host[i];
      if (e.kind != HostKind::kCpuOp || e.external_id == kNoValue) continue;
      auto it = std::lower_bound(ops.begin(), ops.end(), std::pair(e.external_id, HostEventId()));
      if (it != ops.end() && it->first == e.external_id && it->second == kNoId)
        it->second = static_cast<HostEventId>(i);
    }
    for (GpuActivityId g : by_external_id)
      trace.activity_op[g] =
          std::lower_bound(ops.begin(), ops.end(), std::pair(gpu[g].external_id, HostEventId()))
              ->second;
  }
  // A launch made while its thread captures a CUDA graph records a node of the graph and runs
  // nothing until a replay (docs/CUDA_GRAPHS.md): counted apart, not as lost work. Host events
  // are in table order, by thread and then start, so a capture is open from its begin to its end.
  const StringId begin_capture = trace.strings.intern(kineto::kBeginCapture);
  const StringId end_capture = trace.strings.intern(kineto::kEndCapture);
  std::vector<signed char> launch_api(trace.strings.size(), -1);  // per name: unknown, no, yes
  bool capturing = false;
  for (size_t i = 0; i < host.size(); ++i) {
    const HostEvent& e = host[i];
    if (i > 0 && (host[i - 1].pid != e.pid || host[i - 1].tid != e.tid)) capturing = false;
    if (e.name == begin_capture) capturing = true;
    if (e.name == end_capture) capturing = false;
    if ((e.kind != HostKind::kRuntime && e.kind != HostKind::kDriver) || launched[i]) continue;
    signed char& api = launch_api[e.name];
    if (api < 0) api = kineto::is_kernel_launch_api(trace.strings.view(e.name)) ? 1 : 0;
    if (api && capturing)
      diagnose(trace, DiagnosticKind::kLaunchCaptured, [&] {
        return fmt::format("{} (correlation {}) recorded a node while a CUDA graph was captured",
                           trace.strings.view(e.name), e.correlation);
      });
    else if (api)
      diagnose(trace, DiagnosticKind::kLaunchWithoutActivity, [&] {
        return fmt::format("{} (correlation {}) launched nothing the trace shows",
                           trace.strings.view(e.name), e.correlation);
      });
  }
}

// Unpaired flows, as (detail, kept) diagnostics in the order they are to be added.
std::vector<std::string> check_flows(const Trace& trace, StringId ac2g) {
  // Each flow id should have one start and one finish per category. ac2g flows are left out:
  // they repeat the correlation ids, which link_launches checks, and Kineto writes unpaired ones
  // by design (a start on every cudaDeviceSynchronize, which has no GPU side).
  struct Ends {
    int starts = 0, finishes = 0;
  };
  std::unordered_map<uint64_t, Ends> ends;
  for (const auto& f : trace.flows) {
    if (f.category == ac2g) continue;
    uint64_t key = (static_cast<uint64_t>(f.category) << 48) ^ static_cast<uint64_t>(f.id);
    auto& e = ends[key];
    (f.phase == 's' ? e.starts : e.finishes)++;
  }
  std::vector<std::string> unpaired;
  for (const auto& [key, e] : ends)
    if (e.starts == 0 || e.finishes == 0)
      unpaired.push_back(unpaired.size() < Diagnostics::kKeptPerKind
                             ? fmt::format("flow id {} has {} start(s) and {} finish(es)",
                                           key & 0xffffffffffffULL, e.starts, e.finishes)
                             : std::string());
  return unpaired;
}

// Rows [begin, end) of the host events' table cut into about `parts` pieces of whole threads.
std::vector<std::pair<size_t, size_t>> whole_threads(const Trace& trace, size_t parts) {
  const auto& host = trace.host_events;
  std::vector<std::pair<size_t, size_t>> pieces;
  for (size_t begin = 0, part = 1; begin < host.size(); ++part) {
    size_t end = std::clamp(host.size() * part / parts, begin + 1, host.size());
    while (end < host.size() && host[end - 1].pid == host[end].pid &&
           host[end - 1].tid == host[end].tid)
      ++end;
    pieces.emplace_back(begin, end);
    begin = end;
  }
  return pieces;
}

}  // namespace

void link_trace(Trace& trace, size_t workers) {
  workers = worker_count(workers);
  // Parents thread by thread: a task per piece of whole threads, its launches in table order.
  assign_on_huge_pages(trace.host_parent, trace.host_events.size(), kNoId);
  const std::vector<std::pair<size_t, size_t>> pieces = whole_threads(trace, workers);
  std::vector<std::vector<Launch>> launches_of(pieces.size());
  run_tasks(pieces.size(), workers, [&](size_t, size_t i) {
    link_parents(trace, pieces[i].first, pieces[i].second, launches_of[i]);
  });
  std::vector<Launch> launches;
  for (std::vector<Launch>& piece : launches_of) {
    launches.insert(launches.end(), piece.begin(), piece.end());
    std::vector<Launch>().swap(piece);
  }
  // Launches and flows as two tasks; the flows' diagnostics come after the launches'.
  const StringId ac2g = trace.strings.intern("ac2g");
  std::vector<std::string> unpaired;
  run_tasks(2, workers, [&](size_t, size_t task) {
    if (task == 0)
      link_launches(trace, launches);
    else
      unpaired = check_flows(trace, ac2g);
  });
  for (auto& detail : unpaired)
    trace.diagnostics.add(DiagnosticKind::kFlowWithoutPartner, 0, std::move(detail));
  attribute_graph_replays(trace);
  link_memory_events(trace);
}

}  // namespace attnprof
