#include "reader/read_trace.h"

#include <algorithm>
#include <thread>

#include "io/byte_stream.h"
#include "reader/linker.h"
#include "reader/trace_builder.h"

namespace attnprof {

namespace {

// One sink per core: the calling thread's (it reads, cuts and parses) and a worker thread for each
// other core. More than 8 have not been measured.
size_t reading_workers() {
  unsigned cores = std::thread::hardware_concurrency();
  return std::clamp<size_t>(cores, 1, 8);
}

// A document whose event array holds elements but not one event (an object with a valid "ph"):
// `[1, 2, 3]`, a list of records. Read on, it would give an empty trace and a warning per element,
// and exit 0: it is the wrong file, so it fails the read (an empty array stays an empty trace).
Error not_events_error(const std::string& path, const DocumentStats& stats, const Trace& trace) {
  std::string first = "not an event";
  for (const Diagnostic& d : trace.diagnostics.first())
    if (d.byte_offset == stats.first_event_offset && !d.detail.empty()) first = d.detail;
  const std::string array = stats.bare_array ? "the top-level array" : "\"traceEvents\"";
  const std::string none =
      stats.events == 1 ? fmt::format("the only element of {} is not", array)
                        : fmt::format("none of the {} elements of {} is", stats.events, array);
  return make_error(ErrorKind::kNotATrace,
                    "{}: not a trace: {} an event (a JSON object with \"ph\"): at byte {}, {} "
                    "(is this the right file?)",
                    path, none, stats.first_event_offset, first);
}

}  // namespace

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress) {
  return read_trace(path, limits, progress, 0);
}

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress, size_t workers) {
  // Read (and inflated) on the calling thread, straight into the reader's buffers: it parses
  // batches too whenever it is ahead (trace_document.h), so a thread of its own for the bytes
  // would only add a copy and a thread competing for the cores (docs/PERFORMANCE.md).
  auto stream = ByteStream::open(path, limits);
  if (!stream.ok()) return stream.take_error();
  if (workers == 0) workers = reading_workers();
  TraceBuilder builder(path, workers);
  auto stats =
      read_trace_document(**stream, path, limits, builder, builder.worker_sinks(), progress);
  if (!stats.ok()) return stats.take_error();
  const bool no_event = stats->events > 0 && builder.events_with_phase() == 0;
  Trace trace = std::move(builder).finish();
  if (no_event) return not_events_error(path, *stats, trace);
  trace.json_bytes = stats->json_bytes;
  link_trace(trace, workers);
  return trace;
}

}  // namespace attnprof
