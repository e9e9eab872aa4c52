// Several traces read at once (docs/ARCHITECTURE.md): one per rank of a distributed run, or a
// folder of runs.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <new>
#include <optional>
#include <thread>

#include "attnprof/analysis.h"

namespace attnprof {

namespace {

// Splits the cores between the traces read at once: each trace's reader already spreads its
// parsing over one thread per core, and jobs x cores threads would only make them wait on each
// other (a reader slowed by a shared core holds up its workers: trace_document.cpp).
size_t workers_per_trace(size_t cores, size_t jobs) {
  return std::clamp<size_t>(cores / jobs, 1, 8);
}

// A trace that needs more memory than the process may take is that trace's error, and the
// others' results still come back (analyze of many traces, the Python module); what it held is
// given back as the exception unwinds.
Result<TraceAnalysis> analyze_within_memory(const std::string& path,
                                            const AnalyzeOptions& options) {
  try {
    return analyze_file(path, options);
  } catch (const std::bad_alloc&) {
    return make_error(ErrorKind::kLimit,
                      "{}: out of memory while reading it: lower --max-events or "
                      "--max-event-bytes, read fewer traces at once (-j 1), or raise the memory "
                      "limit",
                      path);
  }
}

}  // namespace

std::vector<Result<TraceAnalysis>> analyze_files(const std::vector<std::string>& paths,
                                                 const AnalyzeOptions& options,
                                                 const ManyTracesOptions& many) {
  if (paths.empty()) return {};
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  // By default a trace per two cores: one trace's reader keeps two cores busy (it inflates and
  // cuts on one, parses on both), and on the 2-core VM two traces at once were no faster than
  // one, with 35 % more memory.
  const size_t jobs =
      std::min(many.jobs > 0 ? many.jobs : std::max<size_t>(1, cores / 2), paths.size());
  AnalyzeOptions per_trace = options;
  if (per_trace.reading_workers == 0 && jobs > 1)
    per_trace.reading_workers = workers_per_trace(cores, jobs);

  std::vector<std::optional<Result<TraceAnalysis>>> outcomes(paths.size());
  std::atomic<size_t> next{0};
  // analyzed_in_order's turn: the index of the trace whose analysis goes next. Traces are taken
  // in order and each worker finishes its trace before taking another, so the trace whose turn
  // it is is always being read or done: waiting for it cannot deadlock.
  std::mutex turn_mutex;
  std::condition_variable turn_changed;
  size_t turn = 0;
  auto wait_for_turn = [&](size_t i) {
    std::unique_lock lock(turn_mutex);
    turn_changed.wait(lock, [&] { return turn == i; });
  };
  auto work = [&] {
    for (size_t i = next++; i < paths.size(); i = next++) {
      AnalyzeOptions mine = per_trace;
      if (many.progress)
        mine.progress = [&many, i](uint64_t bytes, uint64_t events) {
          many.progress(i, bytes, events);
        };
      else
        mine.progress = nullptr;
      mine.analyzed = nullptr;
      if (many.take_activities)
        mine.take_activities = [&many, i](const TraceAnalysis& analysis, size_t region,
                                          std::vector<ActivityRow>&& activities) {
          many.take_activities(i, analysis, region, std::move(activities));
        };
      if (many.analyzed_in_order)
        mine.analyzed = [&, i](const TraceAnalysis& analysis, const RegionActivities& activities,
                               const RegionTablesOf& tables) {
          wait_for_turn(i);
          many.analyzed_in_order(i, analysis, activities, tables);
        };
      // The Trace (the large part) lives only inside analyze_file; what stays is its summary.
      outcomes[i].emplace(analyze_within_memory(paths[i], mine));
      if (many.analyzed_in_order) {
        wait_for_turn(i);
        {
          std::lock_guard lock(turn_mutex);
          ++turn;
        }
        turn_changed.notify_all();
      }
      if (many.finished) many.finished(i, *outcomes[i]);
    }
  };
  {
    std::vector<std::jthread> helpers;
    for (size_t j = 1; j < jobs; ++j) helpers.emplace_back(work);
    work();
  }
  std::vector<Result<TraceAnalysis>> out;
  out.reserve(paths.size());
  for (auto& o : outcomes) out.push_back(std::move(*o));
  return out;
}

}  // namespace attnprof
