#include "reader/read_trace.h"

#include <sys/stat.h>

#include "io/byte_stream.h"
#include "model/linker.h"
#include "reader/trace_builder.h"

namespace attnprof {

Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress) {
  auto stream = open_read_ahead(path, limits);
  if (!stream.ok()) return stream.take_error();
  // The JSON's size, for reserving the model: a plain file's size, or a gzip file's times the
  // typical ratio of Kineto traces (about 15).
  struct stat st {};
  uint64_t file_bytes = ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
  TraceBuilder builder(path, (*stream)->is_gzip() ? file_bytes * 15 : file_bytes);
  auto stats = read_trace_document(**stream, path, limits, builder, progress);
  if (!stats.ok()) return stats.take_error();
  Trace trace = std::move(builder).finish();
  trace.json_bytes = stats->json_bytes;
  link_trace(trace);
  return trace;
}

}  // namespace attnprof
