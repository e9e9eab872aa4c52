#include "reader/memory_links.h"

#include <algorithm>
#include <cstdint>
#include <tuple>
#include <vector>

#include "model/sorted_runs.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// The host events of one thread: [begin, end) of the table.
struct ThreadRun {
  int32_t pid = 0, tid = 0;
  size_t begin = 0, end = 0;
};

// What a host event is to a memory event: a holder (an op or an annotation that is not a step),
// an nn.Module, or neither. Decided once per name.
enum class Role : uint8_t { kUnknown, kNone, kHolder, kModule };

}  // namespace

void link_memory_events(Trace& trace) {
  const auto& host = trace.host_events;
  const auto& instants = trace.instants;
  trace.instant_op.assign(instants.size(), kNoId);
  trace.instant_module.assign(instants.size(), kNoId);
  std::vector<uint32_t> memory;  // the [memory] events, by thread and time
  for (size_t i = 0; i < instants.size(); ++i)
    if (instants[i].memory) memory.push_back(static_cast<uint32_t>(i));
  if (memory.empty()) return;
  auto key = [&](uint32_t i) {
    return std::tuple(instants[i].pid, instants[i].tid, instants[i].ts_ns);
  };
  stable_sort_runs(memory.begin(), memory.end(),
                   [&](uint32_t a, uint32_t b) { return key(a) < key(b); });

  std::vector<ThreadRun> runs;
  for (size_t i = 0; i < host.size(); ++i)
    if (i == 0 || host[i - 1].pid != host[i].pid || host[i - 1].tid != host[i].tid)
      runs.push_back({host[i].pid, host[i].tid, i, i});
  for (size_t r = 0; r < runs.size(); ++r)
    runs[r].end = r + 1 < runs.size() ? runs[r + 1].begin : host.size();
  std::stable_sort(runs.begin(), runs.end(), [](const ThreadRun& a, const ThreadRun& b) {
    return std::tie(a.pid, a.tid) < std::tie(b.pid, b.tid);
  });

  std::vector<Role> role_of(trace.strings.size(), Role::kUnknown);
  auto role = [&](const HostEvent& e) {
    if (e.kind == HostKind::kCpuOp) return Role::kHolder;
    if (e.kind != HostKind::kUserAnnotation && e.kind != HostKind::kPythonFunction)
      return Role::kNone;
    Role& r = role_of[e.name];
    if (r == Role::kUnknown) {
      const std::string_view name = trace.strings.view(e.name);
      if (e.kind == HostKind::kPythonFunction)
        r = name.starts_with(kineto::kModuleEventPrefix) ? Role::kModule : Role::kNone;
      else
        r = kineto::legacy_scope_is_step(name) ? Role::kNone : Role::kHolder;
    }
    return r;
  };

  struct Entry {
    HostEventId event, op, module;  // op and module: the innermost up to this entry
  };
  std::vector<Entry> stack;
  for (size_t m = 0; m < memory.size();) {
    const int32_t pid = instants[memory[m]].pid, tid = instants[memory[m]].tid;
    size_t group_end = m;
    while (group_end < memory.size() && instants[memory[group_end]].pid == pid &&
           instants[memory[group_end]].tid == tid)
      ++group_end;
    auto run = std::lower_bound(runs.begin(), runs.end(), std::tuple(pid, tid),
                                [](const ThreadRun& r, const std::tuple<int32_t, int32_t>& k) {
                                  return std::tie(r.pid, r.tid) < k;
                                });
    if (run == runs.end() || run->pid != pid || run->tid != tid) {
      m = group_end;
      continue;
    }
    stack.clear();
    size_t h = run->begin;
    for (; m < group_end; ++m) {
      const int64_t ts = instants[memory[m]].ts_ns;
      for (; h < run->end && host[h].start_ns <= ts; ++h) {
        const HostEvent& e = host[h];
        // As the op nesting (reader/linker.cpp): what ends before this event ends cannot hold it.
        while (!stack.empty() && host[stack.back().event].end_ns() < e.end_ns()) stack.pop_back();
        Entry entry{static_cast<HostEventId>(h), kNoId, kNoId};
        if (!stack.empty()) {
          entry.op = stack.back().op;
          entry.module = stack.back().module;
        }
        const Role r = role(e);
        if (r == Role::kHolder) entry.op = entry.event;
        if (r == Role::kModule) entry.module = entry.event;
        stack.push_back(entry);
      }
      while (!stack.empty() && host[stack.back().event].end_ns() < ts) stack.pop_back();
      if (stack.empty()) continue;
      trace.instant_op[memory[m]] = stack.back().op;
      trace.instant_module[memory[m]] = stack.back().module;
    }
  }
}

}  // namespace attnprof
