#pragma once
// Turns what the reader hands out into the model: the top-level members here, the events in one
// EventTables per reading worker (reader/event_tables.h), merged by finish().
//
// The merge gives the Trace a one-thread read would give: string ids in order of first use in
// the document, and the tables in the order of TraceBuilder's contract below, whatever batches
// each worker parsed.

#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/trace.h"
#include "reader/event_tables.h"
#include "reader/trace_document.h"

namespace attnprof {

class TraceBuilder final : public DocumentSink {
 public:
  TraceBuilder(std::string path, size_t workers);

  // One sink per reading worker, for read_trace_document.
  std::span<EventBatchSink* const> worker_sinks() const { return worker_sinks_; }

  Status top_level_member(std::string_view key, std::string_view raw_value,
                          uint64_t offset) override;
  void commit_batch(uint64_t sequence, size_t worker) override;

  // The elements of traceEvents read so far that are objects with a valid "ph": none in a
  // non-empty traceEvents says the document is not a trace (read_trace).
  uint64_t events_with_phase() const;

  // The trace: host events sorted by thread, then start (longest first at a tie), GPU activities
  // by start; rows that tie on every key keep their document order. Instants, flows and thread
  // names in document order.
  Trace finish() &&;

 private:
  Status read_device_properties(std::string_view raw, uint64_t offset);
  Status read_distributed_info(std::string_view raw, uint64_t offset);

  Trace trace_;
  DiagnosticLog top_level_diagnostics_;
  std::vector<std::unique_ptr<EventTables>> tables_;
  std::vector<EventBatchSink*> worker_sinks_;
  std::vector<uint32_t> committed_;  // the worker of each committed batch, in document order
  simdjson::ondemand::parser top_level_parser_;
};

}  // namespace attnprof
