#pragma once
// The fields of one traceEvents element that the model uses, copied out of simdjson's on-demand
// cursor in one pass over the event's keys (they come in any order). Text views point into the
// parser's buffers and live until the next event.

#include <array>
#include <cstdint>
#include <string_view>

#include <simdjson.h>

namespace attnprof {

struct EventFields {
  // Bits of `present` and `mistyped`.
  enum Field : uint32_t {
    kPhase = 1u << 0,
    kCategory = 1u << 1,
    kName = 1u << 2,
    kPid = 1u << 3,
    kTid = 1u << 4,
    kTs = 1u << 5,
    kDur = 1u << 6,
    kId = 1u << 7,
    kExternalId = 1u << 8,
    kCorrelation = 1u << 9,
    kDevice = 1u << 10,
    kStream = 1u << 11,
    kGrid = 1u << 12,
    kBlock = 1u << 13,
    kRegisters = 1u << 14,
    kSharedMemory = 1u << 15,
    kOccupancy = 1u << 16,
    kBytes = 1u << 17,
    kMetadataName = 1u << 18,
    kMemoryBytes = 1u << 19,
    kMemoryTotalAllocated = 1u << 20,
    kMemoryDeviceId = 1u << 21,
    kTransferSize = 1u << 22,
    kMemoryTotalReserved = 1u << 23,
    kMemoryDeviceType = 1u << 24,
    kMemoryAddress = 1u << 25,
    kWaitedRecord = 1u << 26,
    kWaitedStream = 1u << 27,
    kCollective = 1u << 28,  // any of a collective's sizes (kineto_format.h)
  };
  uint32_t present = 0;
  uint32_t mistyped = 0;

  char phase = 0;
  std::string_view category;
  std::string_view name;
  int64_t pid = 0, tid = 0;
  std::string_view pid_text, tid_text;  // when given as strings
  int64_t ts_ns = 0, dur_ns = 0;
  int64_t id = 0;
  // args
  int64_t external_id = -1, correlation = -1, device = 0, stream = 0, bytes = 0;
  int64_t transfer_size = 0;  // "size" of MTIA's DMA transfers
  // A cuda_sync's wait_on_cuda_event_record_corr_id and wait_on_stream.
  int64_t waited_record = -1, waited_stream = -1;
  std::array<int32_t, 3> grid{0, 0, 0}, block{0, 0, 0};
  int32_t registers = 0;
  int64_t shared_memory = 0;
  double occupancy_pct = -1;
  std::string_view metadata_name;
  // A collective's "Collective name", "dtype", "Process Group Name" (empty where absent), its
  // "In msg nelems" and "Out msg nelems" (-1) and "Group size" (-1).
  std::string_view collective_name, collective_dtype, process_group;
  int64_t in_nelems = -1, out_nelems = -1, group_size = -1;
  int64_t memory_bytes = 0, memory_total_allocated = 0, memory_device_id = -1;
  int64_t memory_total_reserved = 0, memory_device_type = -1, memory_address = 0;
  // The raw JSON arrays of "Input Dims", "Input type" and "Concrete Inputs" (empty when absent or
  // not an array), kept as text: the analyses parse them (analysis/op_arguments.h).
  std::string_view input_dims, input_types, concrete_inputs;

  bool has(Field f) const { return present & f; }
  bool bad(Field f) const { return mistyped & f; }
};

// Reads `event` (an object) into `out`. Returns a simdjson error only for malformed JSON; a field
// of the wrong type is marked in `out.mistyped` and the rest is still read. INCORRECT_TYPE is
// returned when the element is not an object at all.
simdjson::error_code read_event_fields(simdjson::ondemand::value event, EventFields& out);

// The JSON key of the first field among `fields` (bits of EventFields::Field), for a diagnostic:
// "ph", "External id"; "a field" for none.
std::string_view field_key(uint32_t fields);

}  // namespace attnprof
