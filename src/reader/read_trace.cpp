#include "reader/read_trace.h"

#include <algorithm>
#include <thread>

#include "io/byte_stream.h"
#include "io/read_ahead_byte_stream.h"
#include "model/linker.h"
#include "reader/trace_builder.h"

namespace attnprof {

namespace {

// One reading worker per core (the calling thread reads and cuts, and a gzip file inflates on a
// thread of its own: they are light next to parsing). More than 8 have not been measured.
size_t reading_workers() {
  unsigned cores = std::thread::hardware_concurrency();
  return std::clamp<size_t>(cores, 1, 8);
}

}  // namespace

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress) {
  return read_trace(path, limits, progress, 0);
}

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress, size_t workers) {
  auto stream = ByteStream::open(path, limits);
  if (!stream.ok()) return stream.take_error();
  // A gzip file inflates on a thread of its own, ahead of the reader. A plain file is read
  // straight into the reader's buffers: read-ahead would only add a copy (4% of a 1 GB read).
  if ((*stream)->is_gzip()) *stream = std::make_unique<ReadAheadByteStream>(std::move(*stream));
  TraceBuilder builder(path, workers > 0 ? workers : reading_workers());
  auto stats =
      read_trace_document(**stream, path, limits, builder, builder.worker_sinks(), progress);
  if (!stats.ok()) return stats.take_error();
  Trace trace = std::move(builder).finish();
  trace.json_bytes = stats->json_bytes;
  link_trace(trace);
  return trace;
}

}  // namespace attnprof
