#pragma once
// The in-memory model of one trace: compact tables of events with interned names and integer
// nanoseconds, plus the links between them (built by reader/linker.h). Indices are typed ids.

#include <algorithm>
#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "attnprof/attribution.h"
#include "attnprof/diagnostics.h"
#include "model/string_pool.h"

namespace attnprof {

// An index into one table of the Trace, typed by the table: a HostEventId cannot index the GPU
// activities, nor be taken for a count. Four bytes, trivially copyable: the links' vectors are as
// small and as fast as with a bare int32_t.
template <typename Table>
class TableId {
 public:
  constexpr TableId() = default;  // no row: kNoId
  constexpr explicit TableId(size_t index) : value_(static_cast<int32_t>(index)) {}
  constexpr size_t index() const { return static_cast<size_t>(value_); }
  constexpr int32_t value() const { return value_; }
  constexpr bool operator==(const TableId&) const = default;
  constexpr auto operator<=>(const TableId&) const = default;

 private:
  int32_t value_ = -1;
};

using HostEventId = TableId<struct HostEventTable>;      // index into Trace::host_events
using GpuActivityId = TableId<struct GpuActivityTable>;  // index into Trace::gpu_activities

// A table of the Trace: a std::vector whose rows are also reached by their typed id, and only by
// the id of this table (host_events[gpu_id] does not compile).
template <typename Id, typename Row>
class IdVector : public std::vector<Row> {
 public:
  using std::vector<Row>::vector;
  using std::vector<Row>::operator[];
  IdVector() = default;
  IdVector(std::vector<Row>&& rows) : std::vector<Row>(std::move(rows)) {}
  IdVector& operator=(std::vector<Row>&& rows) {
    std::vector<Row>::operator=(std::move(rows));
    return *this;
  }
  Row& operator[](Id id) { return std::vector<Row>::operator[](id.index()); }
  const Row& operator[](Id id) const { return std::vector<Row>::operator[](id.index()); }
};

// No row, of any table: converts to the TableId it is compared with or assigned to.
struct NoId {
  template <typename Table>
  constexpr operator TableId<Table>() const {
    return TableId<Table>();
  }
};
inline constexpr NoId kNoId;
constexpr int64_t kNoValue = -1;  // for absent correlation / External id

// Events that happen on a CPU thread.
enum class HostKind : uint8_t {
  kCpuOp,           // cpu_op: an ATen operator or other RecordFunction
  kUserAnnotation,  // user_annotation: record_function / RECORD_USER_SCOPE, ProfilerStep#N
  kRuntime,         // cuda_runtime: cudaLaunchKernel, cudaMemcpyAsync, ...
  kDriver,          // cuda_driver: cuLaunchKernel, cuLaunchKernelEx, ...
  kPythonFunction,  // python_function (with_stack=True)
  kOverhead,        // overhead: the profiler's own work
};

// What a GPU stream's timeline holds: work (kernels, copies, memsets), and marks that are not
// work: user annotations, synchronizations (cuda_sync: where the stream or device waited, linked
// to the runtime call that asked), and ranges (the CUPTI range profiler's).
enum class GpuKind : uint8_t { kKernel, kMemcpy, kMemset, kUserAnnotation, kSync, kRange };

// Work keeps the GPU busy and is what regions count.
inline bool is_gpu_work(GpuKind k) {
  return k == GpuKind::kKernel || k == GpuKind::kMemcpy || k == GpuKind::kMemset;
}

// Unknown launch properties (a kernel without "grid", "block", "registers per thread" or
// "shared memory"; a copy without "bytes") hold this, never 0: 0 is a value.
constexpr int32_t kUnknownCount = -1;

// The thread of the ops a trace of graph replays takes from a capture trace given apart
// (--graph-capture: reader/graph_signatures.h). They are placed before the trace's first event,
// so that no region holds them, and the whole trace's span leaves this thread out.
inline constexpr int32_t kCopiedOpsTid = std::numeric_limits<int32_t>::min();

struct HostEvent {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t external_id = kNoValue;
  int64_t correlation = kNoValue;
  int32_t pid = 0;
  int32_t tid = 0;
  StringId name = StringPool::kEmpty;
  HostKind kind = HostKind::kCpuOp;
  // A cpu_op's recorded inputs (record_shapes=True): the id of its text in
  // Trace::op_input_texts, kEmpty for none. Kept in the three bytes the layout leaves free after
  // `kind`, so that the inputs cost the table no memory (docs/PERFORMANCE.md, "Every op's inputs
  // in the host events' table"); read and written through inputs() and set_inputs().
  uint8_t inputs_high = 0;
  uint16_t inputs_low = 0;

  int64_t end_ns() const { return start_ns + dur_ns; }
  // The largest inputs text id a host event holds: a trace with more distinct texts keeps none
  // for the ops of the later ones.
  static constexpr StringId kMaxInputs = (StringId{1} << 24) - 1;
  StringId inputs() const { return StringId{inputs_high} << 16 | inputs_low; }
  // An id above kMaxInputs keeps none.
  void set_inputs(StringId id) {
    if (id > kMaxInputs) id = StringPool::kEmpty;
    inputs_high = static_cast<uint8_t>(id >> 16);
    inputs_low = static_cast<uint16_t>(id & 0xffff);
  }
};
static_assert(sizeof(HostEvent) == 48, "the inputs id lives in HostEvent's padding");

struct GpuActivity {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t correlation = kNoValue;
  int64_t external_id = kNoValue;
  int64_t bytes = kUnknownCount;  // memcpy / memset
  StringId name = StringPool::kEmpty;
  GpuKind kind = GpuKind::kKernel;
  // A collective kernel's sizes: the id of their text (model/collective_text.h) in
  // Trace::strings, kEmpty for none. Kept in the three bytes the layout leaves free after `kind`,
  // as HostEvent keeps its inputs; read and written through collective() and set_collective().
  uint8_t collective_high = 0;
  uint16_t collective_low = 0;
  int32_t device = 0;
  int32_t stream = 0;
  // kUnknownCount (each of the three, for a dim3) where the trace does not say.
  std::array<int32_t, 3> grid{kUnknownCount, kUnknownCount, kUnknownCount};
  std::array<int32_t, 3> block{kUnknownCount, kUnknownCount, kUnknownCount};
  int32_t registers_per_thread = kUnknownCount;
  int32_t shared_memory = kUnknownCount;
  float kineto_occupancy_pct = -1;  // < 0: absent
  // A synchronization's wait on a cudaEventRecord (cuda_sync "Stream Wait Event" and "Event
  // Sync"): the record call's correlation id and the stream it recorded on; kNoValue and
  // kUnknownCount where the trace does not say (reader/kineto_format.h).
  int32_t waited_stream = kUnknownCount;
  int64_t waited_record = kNoValue;
  int64_t end_ns() const { return start_ns + dur_ns; }
  // The largest text id an activity holds: a trace with more distinct names keeps no sizes for
  // the collectives of the later ones.
  static constexpr StringId kMaxCollective = (StringId{1} << 24) - 1;
  StringId collective() const { return StringId{collective_high} << 16 | collective_low; }
  // An id above kMaxCollective keeps none.
  void set_collective(StringId id) {
    if (id > kMaxCollective) id = StringPool::kEmpty;
    collective_high = static_cast<uint8_t>(id >> 16);
    collective_low = static_cast<uint16_t>(id & 0xffff);
  }
};
static_assert(sizeof(GpuActivity) == 104, "the collective's id lives in GpuActivity's padding");

// Kineto's "Device Type" of a [memory] event (c10::DeviceType): CPU 0, CUDA 1; others are kept
// as given.
inline constexpr int8_t kMemoryDeviceCpu = 0;
inline constexpr int8_t kMemoryDeviceCuda = 1;

// An instant event (ph "i"); [memory] events (profile_memory=True) carry the allocation fields,
// the caching allocator's running totals after the event.
struct InstantEvent {
  int64_t ts_ns = 0;
  int32_t pid = 0;
  int32_t tid = 0;
  StringId name = StringPool::kEmpty;
  int32_t device = -1;          // [memory]: "Device Id" (-1 for the CPU)
  int64_t bytes = 0;            // [memory]: "Bytes" (negative for a free)
  int64_t total_allocated = 0;  // [memory]: "Total Allocated"
  int64_t total_reserved = 0;   // [memory]: "Total Reserved"
  uint64_t address = 0;         // [memory]: "Addr", the block's address
  int8_t device_type = -1;      // [memory]: "Device Type"; -1 where absent
  bool memory = false;          // a [memory] event: it has "Bytes" and "Total Allocated"
};

// One end of a flow (ph "s" or "f"): ac2g ties a launch to its GPU activity, fwdbwd a forward
// op to its backward.
struct FlowEvent {
  int64_t id = 0;
  int64_t ts_ns = 0;
  int32_t pid = 0;
  int32_t tid = 0;
  StringId category = StringPool::kEmpty;
  char phase = 's';
};

struct ThreadName {
  int32_t pid = 0;
  int32_t tid = 0;  // 0 with a process name
  StringId name = StringPool::kEmpty;
  bool is_process = false;
};

// Whose device it is, from the properties only the vendor's runtime writes
// (reader/kineto_format.h).
enum class DeviceVendor : uint8_t { kUnknown, kNvidia, kAmd };

// From the top-level "deviceProperties" list. Counts the trace does not give are kUnknownCount.
struct DeviceProperties {
  int32_t id = 0;
  std::string name;
  DeviceVendor vendor = DeviceVendor::kUnknown;
  int32_t compute_major = kUnknownCount, compute_minor = kUnknownCount;
  int32_t sm_count = kUnknownCount;  // SMs (NVIDIA), compute units (AMD): "numSms"
  std::string arch_name;             // AMD's "gcnArchName" (gfx90a), when given
  int32_t max_threads_per_sm = 2048;
  int32_t regs_per_sm = 65536;
  int64_t shared_memory_per_sm = 0;
  int64_t shared_memory_per_block_optin = 0;
  int32_t warp_size = 32;
  int64_t total_memory = 0;
};

struct DistributedInfo {
  bool present = false;
  std::string backend;
  int32_t rank = kUnknownCount;        // absent: unknown, never guessed
  int32_t world_size = kUnknownCount;  // absent: unknown, never guessed
};

struct Trace {
  std::string path;
  StringPool strings;
  IdVector<HostEventId, HostEvent> host_events;
  IdVector<GpuActivityId, GpuActivity> gpu_activities;
  std::vector<InstantEvent> instants;
  std::vector<FlowEvent> flows;
  std::vector<ThreadName> thread_names;
  // Each cpu_op's "Input Dims", "Input type" and "Concrete Inputs" as their raw JSON text, one
  // text per op (model/op_input_text.h joins and splits it): what HostEvent::inputs() names. Ops
  // repeat a few shapes, so each distinct text is kept once. Kept for ops on numbered threads.
  StringPool op_input_texts;

  std::vector<DeviceProperties> devices;
  DistributedInfo distributed;
  int64_t base_time_ns = 0;  // "baseTimeNanoseconds": wall-clock epoch of ts 0, when present
  int64_t schema_version = 0;
  std::string trace_name;
  uint64_t json_bytes = 0;   // decompressed size
  uint64_t events_read = 0;  // every element of traceEvents, kept or not
  // PyTorch 1.8-1.9 wrote every CPU event as "Operator": record_function scopes are cpu_op rows
  // here, but for ProfilerStep#N (reader/kineto_format.h).
  bool legacy_operators = false;
  Diagnostics diagnostics;

  // Links, filled by link_trace() once the events are read.
  // Per host event: its enclosing event on the thread.
  IdVector<HostEventId, HostEventId> host_parent;
  // Per GPU activity: the runtime/driver call that launched it.
  IdVector<GpuActivityId, HostEventId> activity_launch;
  // Per GPU activity: the innermost cpu_op that issued it.
  IdVector<GpuActivityId, HostEventId> activity_op;
  // Per GPU activity: how activity_op was found (a graph replay's from its capture, or unknown).
  IdVector<GpuActivityId, Attribution> activity_attribution;
  // Per instant: the innermost cpu_op, or user annotation other than a ProfilerStep#N, that
  // encloses it on its thread (what holds an allocation), and the innermost nn.Module
  // (python_function "nn.Module: ...", with_stack=True) around it; kNoId for none. Filled for
  // [memory] events only.
  std::vector<HostEventId> instant_op;
  std::vector<HostEventId> instant_module;
  // The lowest correlation id of the trace's runtime/driver calls (kNoValue without any). GPU work
  // whose id has no call and is below it was launched before the profiler's window opened.
  int64_t first_launch_correlation = kNoValue;

  const DeviceProperties* device(int32_t id) const {
    for (const auto& d : devices)
      if (d.id == id) return &d;
    return nullptr;
  }
};

}  // namespace attnprof

template <typename Table>
struct std::hash<attnprof::TableId<Table>> {
  size_t operator()(attnprof::TableId<Table> id) const { return std::hash<int32_t>()(id.value()); }
};
