#pragma once
// The in-memory model of one trace: compact tables of events with interned names and integer
// nanoseconds, plus the links between them (built by reader/linker.h). Indices are typed ids.

#include <array>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

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

// Work that runs on a GPU stream.
enum class GpuKind : uint8_t { kKernel, kMemcpy, kMemset, kUserAnnotation };

struct HostEvent {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t external_id = kNoValue;
  int64_t correlation = kNoValue;
  int32_t pid = 0;
  int32_t tid = 0;
  StringId name = StringPool::kEmpty;
  HostKind kind = HostKind::kCpuOp;
  int64_t end_ns() const { return start_ns + dur_ns; }
};

struct GpuActivity {
  int64_t start_ns = 0;
  int64_t dur_ns = 0;
  int64_t correlation = kNoValue;
  int64_t external_id = kNoValue;
  int64_t bytes = 0;  // memcpy / memset
  StringId name = StringPool::kEmpty;
  GpuKind kind = GpuKind::kKernel;
  int32_t device = 0;
  int32_t stream = 0;
  std::array<int32_t, 3> grid{0, 0, 0};
  std::array<int32_t, 3> block{0, 0, 0};
  int32_t registers_per_thread = 0;
  int32_t shared_memory = 0;
  float kineto_occupancy_pct = -1;  // < 0: absent
  int64_t end_ns() const { return start_ns + dur_ns; }
};

// An instant event (ph "i"); [memory] events carry the allocation fields.
struct InstantEvent {
  int64_t ts_ns = 0;
  int32_t pid = 0;
  int32_t tid = 0;
  StringId name = StringPool::kEmpty;
  int64_t bytes = 0;            // [memory]: "Bytes" (negative for a free)
  int64_t total_allocated = 0;  // [memory]: "Total Allocated"
  int32_t device = -1;          // [memory]: "Device Id"
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

// From the top-level "deviceProperties" list.
struct DeviceProperties {
  int32_t id = 0;
  std::string name;
  int32_t compute_major = 0, compute_minor = 0;
  int32_t sm_count = 0;
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
  int32_t rank = 0;
  int32_t world_size = 1;
};

struct Trace {
  std::string path;
  StringPool strings;
  IdVector<HostEventId, HostEvent> host_events;
  IdVector<GpuActivityId, GpuActivity> gpu_activities;
  std::vector<InstantEvent> instants;
  std::vector<FlowEvent> flows;
  std::vector<ThreadName> thread_names;

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
