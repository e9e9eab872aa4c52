#include "reader/read_trace.h"

#include "io/byte_stream.h"
#include "model/linker.h"
#include "reader/trace_builder.h"

namespace attnprof {

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress) {
  auto stream = open_read_ahead(path, limits);
  if (!stream.ok()) return stream.take_error();
  TraceBuilder builder(path);
  auto stats = read_trace_document(**stream, path, limits, builder, progress);
  if (!stats.ok()) return stats.take_error();
  Trace trace = std::move(builder).finish();
  trace.json_bytes = stats->json_bytes;
  link_trace(trace);
  return trace;
}

}  // namespace attnprof
