// The rules that make rows of events: which events become which row, with which keys, and which
// become diagnostics. The storage (batches, rollback) is event_tables.cpp.

#include "reader/event_tables.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "base/clamp32.h"
#include "model/collective_text.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

using kineto::Category;
using Field = EventFields::Field;

// What a JSON value is, for a message: "a number", "an array".
std::string_view json_type_name(simdjson::ondemand::value& v) {
  simdjson::ondemand::json_type type;
  if (v.type().get(type)) return "not JSON";
  switch (type) {
    case simdjson::ondemand::json_type::array:
      return "an array";
    case simdjson::ondemand::json_type::object:
      return "an object";
    case simdjson::ondemand::json_type::number:
      return "a number";
    case simdjson::ondemand::json_type::string:
      return "a string";
    case simdjson::ondemand::json_type::boolean:
      return "a boolean";
    case simdjson::ondemand::json_type::null:
      return "null";
    default:  // newer simdjson adds json_type::unknown
      return "a value";
  }
}

}  // namespace

int32_t EventTables::thread_key(int64_t number, std::string_view name, uint32_t bit,
                                uint32_t& text) {
  if (name.empty()) {
    if (number >= std::numeric_limits<int32_t>::min() &&
        number <= std::numeric_limits<int32_t>::max())
      return static_cast<int32_t>(number);
    // Wider ids (the pthread ids of PyTorch 1.8) are kept apart by their text, which is also
    // how that version wrote them on most events ("tid": "4093687616").
    text |= bit;
    return text_thread_key(strings.intern(fmt::format("{}", number)));
  }
  text |= bit;
  return text_thread_key(strings.intern(name));
}

EventTables::HostThread& EventTables::host_thread(int32_t pid, int32_t tid, uint32_t text) {
  // Events of one thread mostly come in runs: the last thread is the likely one.
  if (last_thread_ < host_threads.size()) {
    HostThread& t = host_threads[last_thread_];
    if (t.pid == pid && t.tid == tid && t.text == text) return t;
  }
  auto [it, inserted] = thread_index_.try_emplace(ThreadKey{pid, tid, text}, host_threads.size());
  if (inserted) {
    host_threads.emplace_back();
    host_threads.back().pid = pid;
    host_threads.back().tid = tid;
    host_threads.back().text = text;
  }
  last_thread_ = it->second;
  return host_threads[last_thread_];
}

simdjson::error_code EventTables::event(simdjson::ondemand::value element, uint64_t offset) {
  ++events_read;
  EventFields& f = fields_;
  if (auto error = read_event_fields(element, f)) {
    if (error != simdjson::INCORRECT_TYPE) return error;
    diagnostics.add(DiagnosticKind::kMistypedField, offset, [&] {
      return fmt::format("{} where an event object belongs", json_type_name(element));
    });
    return simdjson::SUCCESS;
  }
  if (!f.has(Field::kPhase) || f.bad(Field::kPhase)) {
    diagnostics.add(
        f.has(Field::kPhase) ? DiagnosticKind::kMistypedField : DiagnosticKind::kMissingField,
        offset, [] { return std::string("event without a valid \"ph\""); });
    return simdjson::SUCCESS;
  }
  ++events_with_phase;
  switch (f.phase) {
    case 'X':
      add_complete(f, offset);
      break;
    case 'i':
    case 'I':
      add_instant(f);
      break;
    case 's':
    case 'f':
      add_flow(f, offset);
      break;
    case 'M':
      add_metadata(f);
      break;
    default:
      diagnostics.add(DiagnosticKind::kUnknownPhase, offset,
                      [&] { return fmt::format("phase '{}'", f.phase); });
  }
  return simdjson::SUCCESS;
}

void EventTables::add_complete(const EventFields& f, uint64_t offset) {
  Category category = kineto::category_from_name(f.category);
  if (category == Category::kTraceSpan || category == Category::kAttnprof) return;
  if (!f.has(Field::kCategory)) {
    diagnostics.add(DiagnosticKind::kMissingField, offset, [] {
      return std::string(
          "X event without \"cat\" (as the autograd profiler wrote before Kineto, PyTorch < 1.8): "
          "not read");
    });
    return;
  }
  if (category == Category::kNotModeled) return;
  if (category == Category::kUnknown || category == Category::kCpuInstantEvent ||
      category == Category::kFlowAc2g || category == Category::kFlowFwdBwd) {
    diagnostics.add(DiagnosticKind::kUnknownCategory, offset,
                    [&] { return fmt::format("category \"{}\"", f.category); });
    return;
  }
  constexpr uint32_t kNeeded = Field::kTs | Field::kDur | Field::kName;
  if ((f.present & kNeeded) != kNeeded) {
    diagnostics.add(DiagnosticKind::kMissingField, offset, [&] {
      return fmt::format("{} event without \"{}\"", f.category, field_key(kNeeded & ~f.present));
    });
    return;
  }
  // A grid and block are a kernel's: on an op they are something else (Inductor writes its
  // launch's "grid" as a string, "grid(100,)", on the op that launches a Triton kernel).
  const bool launch_shape = category == Category::kKernel || category == Category::kMtiaDeviceEvent;
  const uint32_t kMustType = kNeeded | Field::kPid | Field::kTid | Field::kExternalId |
                             Field::kCorrelation |
                             (launch_shape ? Field::kGrid | Field::kBlock : 0u);
  if (f.mistyped & kMustType) {
    diagnostics.add(DiagnosticKind::kMistypedField, offset, [&] {
      return fmt::format("{} event with a mistyped \"{}\"", f.category,
                         field_key(f.mistyped & kMustType));
    });
    return;
  }
  if (f.dur_ns < 0) {
    diagnostics.add(DiagnosticKind::kNegativeDuration, offset,
                    [&] { return fmt::format("\"{}\" has dur {} ns", f.name, f.dur_ns); });
    return;
  }
  StringId name = strings.intern(f.name);
  // Kineto wrote "External id": 0 for "none" until Oct 2022.
  const int64_t external_id = f.external_id > 0 ? f.external_id : kNoValue;
  auto host = [&](HostKind kind) {
    HostEvent e;
    e.start_ns = f.ts_ns;
    e.dur_ns = f.dur_ns;
    e.external_id = external_id;
    e.correlation = f.correlation;
    uint32_t text = 0;
    e.pid = thread_key(f.pid, f.pid_text, kPidIsText, text);
    e.tid = thread_key(f.tid, f.tid_text, kTidIsText, text);
    e.name = name;
    e.kind = kind;
    HostThread& t = host_thread(e.pid, e.tid, text);
    if (t.batch_starts.empty() || t.batch_starts.back().first != sequence_)
      t.batch_starts.emplace_back(sequence_, t.rows.size());
    t.rows.push_back(compact(e, wide_host_events));
    if (kind == HostKind::kCpuOp && text == 0 &&
        !(f.input_dims.empty() && f.input_types.empty() && f.concrete_inputs.empty())) {
      t.inputs.emplace_back(static_cast<uint32_t>(t.rows.size() - 1),
                            op_inputs_id(name, f.input_dims, f.input_types, f.concrete_inputs));
    }
  };
  auto gpu = [&](GpuKind kind) {
    GpuActivity a;
    a.start_ns = f.ts_ns;
    a.dur_ns = f.dur_ns;
    a.correlation = f.correlation;
    a.external_id = external_id;
    auto given = [&](Field field) { return f.has(field) && !f.bad(field); };
    if (given(Field::kBytes))
      a.bytes = f.bytes;
    else if (given(Field::kTransferSize))
      a.bytes = f.transfer_size;
    a.name = name;
    a.kind = kind;
    a.device = f.has(Field::kDevice) ? clamp32(f.device) : clamp32(f.pid);
    a.stream = f.has(Field::kStream) ? clamp32(f.stream) : clamp32(f.tid);
    if (given(Field::kGrid)) a.grid = f.grid;
    if (given(Field::kBlock)) a.block = f.block;
    if (given(Field::kRegisters)) a.registers_per_thread = f.registers;
    if (given(Field::kSharedMemory)) a.shared_memory = clamp32(f.shared_memory);
    a.kineto_occupancy_pct = f.has(Field::kOccupancy) && !f.bad(Field::kOccupancy)
                                 ? static_cast<float>(f.occupancy_pct)
                                 : -1.0f;
    // -1 is Kineto's "none" for both (a Context Sync, an Event Sync on no recorded event).
    if (given(Field::kWaitedRecord) && f.waited_record >= 0) a.waited_record = f.waited_record;
    if (given(Field::kWaitedStream) && f.waited_stream >= 0)
      a.waited_stream = clamp32(f.waited_stream);
    // A mistyped size is kept as absent (-1), the rest as given.
    if (kind == GpuKind::kKernel && f.has(Field::kCollective)) {
      join_collective_fields({f.collective_name, f.collective_dtype, f.process_group, f.in_nelems,
                              f.out_nelems, f.group_size},
                             joined_collective_);
      a.set_collective(strings.intern(joined_collective_));
    }
    gpu_activities.push_back(a);
  };
  switch (category) {
    case Category::kCpuOp:
      host(HostKind::kCpuOp);
      break;
    case Category::kLegacyOperator:
      saw_legacy_operators = true;
      host(kineto::legacy_scope_is_step(f.name) ? HostKind::kUserAnnotation : HostKind::kCpuOp);
      break;
    case Category::kUserAnnotation:
      host(HostKind::kUserAnnotation);
      break;
    case Category::kCudaRuntime:
      host(HostKind::kRuntime);
      break;
    case Category::kCudaDriver:
      host(HostKind::kDriver);
      break;
    case Category::kPythonFunction:
      host(HostKind::kPythonFunction);
      break;
    case Category::kOverhead:
      host(HostKind::kOverhead);
      break;
    case Category::kKernel:
      gpu(GpuKind::kKernel);
      break;
    case Category::kGpuMemcpy:
      gpu(GpuKind::kMemcpy);
      break;
    case Category::kGpuMemset:
      gpu(GpuKind::kMemset);
      break;
    case Category::kGpuUserAnnotation:
      gpu(GpuKind::kUserAnnotation);
      break;
    case Category::kGpuSync:
      gpu(GpuKind::kSync);
      break;
    case Category::kGpuRange:
      gpu(GpuKind::kRange);
      break;
    case Category::kMtiaDeviceEvent:
      switch (kineto::mtia_device_event_kind(f.name)) {
        case kineto::MtiaDeviceEventKind::kKernel:
          gpu(GpuKind::kKernel);
          break;
        case kineto::MtiaDeviceEventKind::kTransfer:
          gpu(GpuKind::kMemcpy);
          break;
        case kineto::MtiaDeviceEventKind::kSync:
          gpu(GpuKind::kSync);
          break;
      }
      break;
    default:
      break;
  }
}

void EventTables::add_instant(const EventFields& f) {
  if (!f.has(Field::kTs) || f.bad(Field::kTs)) return;  // markers without time say nothing
  InstantEvent e;
  e.ts_ns = f.ts_ns;
  uint32_t text = 0;
  e.pid = thread_key(f.pid, f.pid_text, kPidIsText, text);
  e.tid = thread_key(f.tid, f.tid_text, kTidIsText, text);
  e.name = strings.intern(f.name);
  e.bytes = f.memory_bytes;
  e.total_allocated = f.memory_total_allocated;
  e.total_reserved = f.memory_total_reserved;
  e.device = clamp32(f.memory_device_id);
  e.address = static_cast<uint64_t>(f.memory_address);
  e.device_type = static_cast<int8_t>(std::clamp<int64_t>(f.memory_device_type, -1, 127));
  constexpr uint32_t kMemoryFields = Field::kMemoryBytes | Field::kMemoryTotalAllocated;
  e.memory = (f.present & kMemoryFields) == kMemoryFields && !(f.mistyped & kMemoryFields) &&
             f.name == kineto::kMemoryEventName;
  if (text) instant_text_keys.push_back(instants.size() << 2 | text);
  instants.push_back(e);
}

void EventTables::add_flow(const EventFields& f, uint64_t offset) {
  // ac2g flows repeat the correlation ids that link launches to GPU work: not stored.
  if (kineto::category_from_name(f.category) == Category::kFlowAc2g) return;
  if (!f.has(Field::kId) || f.bad(Field::kId) || !f.has(Field::kTs) || f.bad(Field::kTs)) {
    diagnostics.add(DiagnosticKind::kMissingField, offset,
                    [] { return std::string("flow event without a numeric \"id\" and \"ts\""); });
    return;
  }
  FlowEvent e;
  e.id = f.id;
  e.ts_ns = f.ts_ns;
  uint32_t text = 0;
  e.pid = thread_key(f.pid, f.pid_text, kPidIsText, text);
  e.tid = thread_key(f.tid, f.tid_text, kTidIsText, text);
  e.category = strings.intern(f.category);
  e.phase = f.phase;
  if (text) flow_text_keys.push_back(flows.size() << 2 | text);
  flows.push_back(e);
}

void EventTables::add_metadata(const EventFields& f) {
  bool process = f.name == kineto::kProcessName;
  if (!process && f.name != kineto::kThreadName) return;  // sort indices, labels: not modeled
  if (!f.has(Field::kMetadataName)) return;
  ThreadName n;
  uint32_t text = 0;
  n.pid = thread_key(f.pid, f.pid_text, kPidIsText, text);
  n.tid = process ? 0 : thread_key(f.tid, f.tid_text, kTidIsText, text);
  n.name = strings.intern(f.metadata_name);
  n.is_process = process;
  if (text) name_text_keys.push_back(thread_names.size() << 2 | text);
  thread_names.push_back(n);
}

}  // namespace attnprof
