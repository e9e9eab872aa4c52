#pragma once
// Streams a trace's JSON text and hands its parts to a sink without building a DOM:
//   decompressed bytes (io/byte_stream.h) -> the top-level object, scanned exactly
//   -> "traceEvents", cut into chunks at event boundaries -> simdjson on-demand, one chunk at a time.
// Memory stays at a few chunk buffers whatever the file's size; only the sink grows.
//
// How a chunk is cut (PERF_NOTES.md): the reader looks back from the chunk's end for the last
// `}` `,` `{` between two events and parses everything before it as one array. simdjson proves
// the cut: a cut inside a string leaves an unclosed string, a cut inside an event leaves an
// unclosed object, and either fails the parse. Then (rarely) the exact scanner finds the true
// boundary. No event is ever lost or read twice: the sink's batch is rolled back on failure.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

class ByteStream;

class TraceDocumentSink {
 public:
  virtual ~TraceDocumentSink() = default;
  // A top-level member other than traceEvents, as raw JSON text; `offset` is its byte offset.
  virtual Status top_level_member(std::string_view key, std::string_view raw_value,
                                  uint64_t offset) = 0;
  // A batch of events is about to be delivered; it is either committed or rolled back whole.
  virtual void begin_batch() = 0;
  // One element of traceEvents. A simdjson error returned here fails the batch (the reader then
  // re-cuts, or reports the error); problems of content are the sink's diagnostics.
  virtual simdjson::error_code event(simdjson::ondemand::value element, uint64_t offset) = 0;
  virtual void commit_batch() = 0;
  virtual void rollback_batch() = 0;
};

// Called after each chunk with the bytes of the file consumed so far (compressed, for gzip).
using ProgressCallback = std::function<void(uint64_t file_bytes_read)>;

struct DocumentStats {
  uint64_t json_bytes = 0;
  uint64_t events = 0;
  uint64_t chunks = 0;
  uint64_t recuts = 0;  // chunks whose quick cut failed and were cut exactly
  bool saw_trace_events = false;
};

// Reads the whole document from `stream` into `sink`. Fails with one line naming `path` and the
// byte offset for: an empty file, text that is not JSON, truncated JSON, a top level that is not
// an object or array, an event larger than Limits::max_event_bytes, more events than
// Limits::max_events, or the stream's own errors.
Result<DocumentStats> read_trace_document(ByteStream& stream, const std::string& path,
                                          const Limits& limits, TraceDocumentSink& sink,
                                          const ProgressCallback& progress = {});

}  // namespace attnprof
