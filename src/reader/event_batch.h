#pragma once
// A batch of traceEvents: whole elements cut from the reader's buffer, parsed as one array by
// simdjson on-demand (reader/trace_document.h says how batches are cut and why a failed one is
// rolled back whole), and the limits every event of it is held to.

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "attnprof/limits.h"
#include "reader/document_limits.h"
#include "reader/trace_document.h"

namespace attnprof {

// What every event of a batch is held to (reader/document_limits.h).
struct EventLimits {
  const Limits* limits = nullptr;
  uint32_t enclosing_depth = 2;  // the top-level object and traceEvents; 1 for a bare array
  uint64_t scan_threshold = 0;   // events shorter than this are within every limit
};

// Whole elements of traceEvents, parsed in place in the reader's buffer: the batch takes the
// buffer, and the reader goes on in another one that starts with the bytes after the batch.
struct EventBatch {
  uint64_t sequence = 0;
  uint64_t offset = 0;       // of the batch's first byte in the JSON
  bool speculative = false;  // cut by the quick cut, which a failed parse proves wrong
  std::vector<char> text;    // the reader's buffer: the batch is text[from, to)
  size_t from = 0, to = 0;
  size_t end = 0;    // text[from, end) was the reader's window when the batch was cut
  bool eof = false;  // and whether the stream had ended then
  // The bytes around the batch, overwritten by the `[` and `]` that make it an array.
  char before = 0, after = 0;
  // Set by the parse.
  size_t worker = 0;
  uint64_t events = 0;
  simdjson::error_code error = simdjson::SUCCESS;
  uint64_t error_offset = 0;
  std::optional<LimitBreach> breach;  // the first event past a limit; fails the batch as an error
  bool done = false;                  // guarded by the pool's mutex when workers run
  bool failed() const { return error || breach; }
};

// The byte offset of element number `index` (from 0) of a parsed batch.
uint64_t element_offset(const EventBatch& batch, uint64_t index);

// Parses `batch` as one array, handing each element to `sink`. Each element is held to `limits`
// once the next one's position tells its size: the sink has seen it by then, but a breach fails
// the batch, which rolls it back.
void parse_batch(simdjson::ondemand::parser& parser, EventBatchSink& sink, EventBatch& batch,
                 const EventLimits& limits);

}  // namespace attnprof
