#pragma once
// Streams a trace's JSON text and hands its parts to a sink without building a DOM:
//   decompressed bytes (io/byte_stream.h) -> the top-level object, scanned exactly
//   -> "traceEvents", cut into batches at event boundaries -> simdjson on-demand, batch by batch.
// Memory stays at a few chunk buffers whatever the file's size; only the sink grows.
//
// How a batch is cut (docs/ARCHITECTURE.md, phase 2): the reader looks back from the end of its
// ~1 MiB window for the last `}` `,` `{` between two events and parses everything before it as
// one array. simdjson proves the cut: a cut inside a string leaves an unclosed string, a cut
// inside an event leaves an unclosed object, and either fails the parse. Then (rarely) the exact
// scanner finds the true boundary. No event is ever lost or read twice: a failed batch is rolled
// back whole.
//
// Batches can be parsed on several threads, one sink each: the calling thread's, which reads and
// cuts and parses whenever it is ahead, and a worker thread for each other sink. The reader cuts
// ahead on the guess that each quick cut is right; the batches are committed in document order
// once parsed. When a batch fails, every batch cut after it is discarded, and the reader goes back
// to the failed batch's window as it was (the bytes read since are read again), and cuts it
// exactly. So the batches, the events and the errors are those of a one-thread read.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

class ByteStream;

// What one parsing thread (a worker) fills: the events of the batches that worker parses.
class EventBatchSink {
 public:
  virtual ~EventBatchSink() = default;
  // Batches are numbered in document order; a worker gets its batches in increasing order.
  virtual void begin_batch(uint64_t sequence) = 0;
  // One element of traceEvents. A simdjson error returned here fails the batch (the reader then
  // re-cuts, or reports the error); problems of content are the sink's diagnostics.
  virtual simdjson::error_code event(simdjson::ondemand::value element, uint64_t offset) = 0;
  // `parsed` false: the batch failed; forget its events now.
  virtual void end_batch(bool parsed) = 0;
  // Forget every batch numbered `sequence` or later: a cut before them proved wrong. Called on
  // the reading thread while no worker parses.
  virtual void discard_batches_from(uint64_t sequence) = 0;
};

// What the reading (calling) thread sees: the top-level members, and each batch as committed.
class DocumentSink {
 public:
  virtual ~DocumentSink() = default;
  // A top-level member other than traceEvents, as raw JSON text; `offset` is its byte offset.
  virtual Status top_level_member(std::string_view key, std::string_view raw_value,
                                  uint64_t offset) = 0;
  // Batch `sequence`, filled into the sink of worker `worker`, is final, and so is every batch
  // numbered before it: batches are committed in order, each once.
  virtual void commit_batch(uint64_t sequence, size_t worker) = 0;
};

// Called after each chunk with the bytes of the file consumed so far (compressed, for gzip) and
// the events committed so far (they trail the bytes by the batches still being parsed).
using ProgressCallback = std::function<void(uint64_t file_bytes_read, uint64_t events_read)>;

struct DocumentStats {
  uint64_t json_bytes = 0;
  uint64_t events = 0;
  uint64_t chunks = 0;
  uint64_t batches = 0;
  uint64_t recuts = 0;  // batches whose quick cut failed and were cut exactly
  bool saw_trace_events = false;
  bool bare_array = false;          // the events are a top-level array, not "traceEvents"
  uint64_t first_event_offset = 0;  // of traceEvents' first element, when it has one
};

// Reads the whole document from `stream` into `sink`, its events parsed on as many threads as
// sinks in `workers` (which must not be empty): workers[0] is the calling thread's, which also
// reads, cuts and commits. Fails with one line naming `path` and the byte offset for: an empty
// file, text that is not JSON, truncated JSON, a top level that is not an object or array, a
// "traceEvents" that is not an array, an event
// larger than Limits::max_event_bytes, more events than Limits::max_events, or the stream's own
// errors.
Result<DocumentStats> read_trace_document(ByteStream& stream, const std::string& path,
                                          const Limits& limits, DocumentSink& sink,
                                          std::span<EventBatchSink* const> workers,
                                          const ProgressCallback& progress = {});

}  // namespace attnprof
