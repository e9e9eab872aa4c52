#pragma once
// The rows one reading worker makes of the events it parses (reader/trace_document.h): the
// model's tables, but with this worker's own string pool and in the order of its batches.
// TraceBuilder merges the workers' tables into the Trace once every batch is committed.
//
// Each event becomes one compact row or a diagnostic. The tables remember where each batch began,
// so that a failed or discarded batch is forgotten whole, strings included.

#include <array>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "model/row_blocks.h"
#include "model/small_first_rows.h"
#include "model/trace.h"
#include "reader/event_fields.h"
#include "reader/trace_document.h"

namespace attnprof {

// A worker's diagnostics: counted per kind, the first few of each kept with their byte offset.
// Merged in byte-offset order, the workers' first few are the document's first few.
struct DiagnosticLog {
  struct Entry {
    DiagnosticKind kind;
    uint64_t offset;
    std::string detail;
  };
  std::array<uint64_t, static_cast<size_t>(DiagnosticKind::kCount)> counts{};
  std::vector<Entry> kept;

  // Counts one; `detail()` is formatted only when the diagnostic is kept.
  template <typename Detail>
  void add(DiagnosticKind kind, uint64_t offset, Detail&& detail) {
    if (counts[static_cast<size_t>(kind)]++ < Diagnostics::kKeptPerKind)
      kept.push_back({kind, offset, detail()});
  }
};

class EventTables final : public EventBatchSink {
 public:
  EventTables();

  void begin_batch(uint64_t sequence) override;
  simdjson::error_code event(simdjson::ondemand::value element, uint64_t offset) override;
  void end_batch(bool parsed) override;
  void discard_batches_from(uint64_t sequence) override;

  // Bits of a text-key record: which of pid and tid are text keys.
  static constexpr uint32_t kPidIsText = 1, kTidIsText = 2;

  // A host event without its thread, in half a HostEvent: the reader's rows are its largest
  // fresh memory (docs/PERFORMANCE.md, "Fresh memory"). Values that do not fit are kept whole in
  // `wide_host_events`, and the row says where (kWide).
  struct HostRow {
    int64_t start_ns;
    int32_t dur_ns;
    int32_t external_id;
    int32_t correlation;
    uint32_t name_kind;  // name << 8 | kind, or kWide; then external_id is the wide row's index
    static constexpr uint32_t kWide = ~uint32_t{0};
  };
  static HostRow compact(const HostEvent& e, std::vector<HostEvent>& wide);
  static HostEvent expand(const HostRow& r, const std::vector<HostEvent>& wide);

  // The host events of one thread, in document order. The trace sorts host events by thread
  // first: keeping them apart here lets the merge write each thread's rows in one sweep.
  struct HostThread {
    int32_t pid = 0, tid = 0;      // this worker's keys
    uint32_t text = 0;             // kPidIsText | kTidIsText
    SmallFirstRows<HostRow> rows;  // most threads hold a few rows: they share the heap
    // (sequence, first row) of each batch that added rows here, in order.
    std::vector<std::pair<uint64_t, size_t>> batch_starts;
    // (row, id of `op_input_texts`) of each cpu_op row with recorded inputs, in row order: the
    // merge sets them on the host events (HostEvent::inputs).
    std::vector<std::pair<uint32_t, StringId>> inputs;
  };

  // Where a batch's rows and strings begin in the tables.
  struct Mark {
    uint64_t sequence = 0;
    size_t gpu = 0, instants = 0, flows = 0, names = 0, strings = 0;
    size_t op_input_texts = 0;
    size_t instant_text_keys = 0, flow_text_keys = 0, name_text_keys = 0;
    uint64_t events = 0, events_with_phase = 0;
    std::array<uint64_t, static_cast<size_t>(DiagnosticKind::kCount)> diagnostic_counts{};
    size_t diagnostics_kept = 0;
  };

  // Read by TraceBuilder once reading is over. Ids of `strings` are this worker's; so are the
  // text keys of pid and tid (see text_thread_key).
  StringPool strings;
  std::vector<HostThread> host_threads;
  std::vector<HostEvent> wide_host_events;  // see HostRow (rows rolled back leave theirs here)
  RowBlocks<GpuActivity> gpu_activities;
  RowBlocks<InstantEvent> instants;
  RowBlocks<FlowEvent> flows;
  std::vector<ThreadName> thread_names;
  // The texts of the cpu_ops' recorded inputs (HostThread::inputs), this worker's ids.
  StringPool op_input_texts;
  // Rows whose pid or tid is a text key (rare: the profiler's own spans), as row << 2 | text
  // bits, in increasing order. Only these keys change when the worker's string ids become the
  // trace's.
  std::vector<uint64_t> instant_text_keys, flow_text_keys, name_text_keys;
  DiagnosticLog diagnostics;
  uint64_t events_read = 0;
  uint64_t events_with_phase = 0;     // elements that are objects with a valid "ph"
  bool saw_legacy_operators = false;  // "Operator" events: PyTorch 1.8-1.9 (kineto_format.h)
  std::vector<Mark> batches;          // in document order; batch i ends where batch i + 1 begins

 private:
  void add_complete(const EventFields& f, uint64_t offset);
  void add_instant(const EventFields& f);
  void add_flow(const EventFields& f, uint64_t offset);
  void add_metadata(const EventFields& f);
  // The key of a pid or tid: the number, or for a name its text key (and `bit` is set in `text`).
  int32_t thread_key(int64_t number, std::string_view name, uint32_t bit, uint32_t& text);
  HostThread& host_thread(int32_t pid, int32_t tid, uint32_t text);
  void truncate_to(const Mark& mark);

  EventFields fields_;
  std::string joined_inputs_;      // scratch for join_op_input_fields
  std::string joined_collective_;  // scratch for join_collective_fields
  // The inputs texts met last, two to a slot that a hash of their op's name and texts picks: a
  // step repeats the same ops with the same shapes, and comparing with the slot's texts is cheaper
  // than joining and interning a text (the texts run to 150 bytes and differ in their middle, so
  // the pool hashes every byte). The last four texts of each op name missed for half the ops of
  // a step (an elementwise op meets many shapes); these slots miss for 0.2 % of the 216 MB grown
  // trace's 185 k ops (docs/PERFORMANCE.md). Only a guess: a hit is a text of the same bytes.
  // Emptied when a batch is forgotten.
  static constexpr int kInputsCacheBits = 12;
  std::vector<StringId> inputs_cache_ =
      std::vector<StringId>(size_t{1} << kInputsCacheBits, StringPool::kEmpty);
  StringId op_inputs_id(StringId name, std::string_view dims, std::string_view types,
                        std::string_view concrete);
  uint64_t sequence_ = 0;  // of the batch being read
  struct ThreadKey {
    int32_t pid, tid;
    uint32_t text;
    bool operator==(const ThreadKey&) const = default;
  };
  struct ThreadKeyHash {
    size_t operator()(const ThreadKey& k) const {
      return std::hash<uint64_t>()(
          (uint64_t{static_cast<uint32_t>(k.pid)} << 32 | static_cast<uint32_t>(k.tid)) * 4 +
          k.text);
    }
  };
  std::unordered_map<ThreadKey, size_t, ThreadKeyHash> thread_index_;
  size_t last_thread_ = SIZE_MAX;
};

// Threads and processes named by strings (the profiler's own spans: "Spans", "Traces") get
// negative keys, so they never collide with real ids: -1 - the id of the name.
inline StringId text_thread_key_string(int32_t key) {
  return static_cast<StringId>(-1 - key);
}
inline int32_t text_thread_key(StringId name) {
  return -1 - static_cast<int32_t>(name);
}

}  // namespace attnprof
