#pragma once
// Turns the reader's stream of top-level members and events into the model's tables.
// Each event becomes one compact row (or a diagnostic); a batch can be rolled back whole.

#include <string>

#include "model/trace.h"
#include "reader/event_fields.h"
#include "reader/trace_document.h"

namespace attnprof {

class TraceBuilder final : public TraceDocumentSink {
 public:
  // `json_bytes_hint`: the expected size of the JSON, for reserving the tables (0: unknown).
  TraceBuilder(std::string path, uint64_t json_bytes_hint);

  Status top_level_member(std::string_view key, std::string_view raw_value,
                          uint64_t offset) override;
  void begin_batch() override;
  simdjson::error_code event(simdjson::ondemand::value element, uint64_t offset) override;
  void commit_batch() override {}
  void rollback_batch() override;

  // The trace, its events sorted (host events by thread and start, GPU activities by start).
  Trace finish() &&;

 private:
  void add_complete(const EventFields& f, uint64_t offset);
  void add_instant(const EventFields& f);
  void add_flow(const EventFields& f, uint64_t offset);
  void add_metadata(const EventFields& f);
  int32_t thread_key(int64_t number, std::string_view text);
  Status read_device_properties(std::string_view raw, uint64_t offset);
  Status read_distributed_info(std::string_view raw, uint64_t offset);

  Trace trace_;
  EventFields fields_;
  simdjson::ondemand::parser top_level_parser_;
  struct Mark {
    size_t host = 0, gpu = 0, instants = 0, flows = 0, names = 0;
    uint64_t events = 0;
    Diagnostics diagnostics;
  } mark_;
};

}  // namespace attnprof
