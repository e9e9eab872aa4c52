#include "reader/trace_builder.h"

#include <algorithm>
#include <limits>

#include "model/huge_pages.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

using kineto::Category;
using Field = EventFields::Field;

std::string_view field_list(uint32_t bits) {
  // The first missing or mistyped field, for the diagnostic's detail.
  static constexpr std::pair<uint32_t, std::string_view> kNames[] = {
      {Field::kPhase, "ph"}, {Field::kCategory, "cat"}, {Field::kName, "name"},
      {Field::kPid, "pid"},  {Field::kTid, "tid"},      {Field::kTs, "ts"},
      {Field::kDur, "dur"},  {Field::kId, "id"},        {Field::kExternalId, "External id"},
      {Field::kCorrelation, "correlation"},             {Field::kGrid, "grid"},
      {Field::kBlock, "block"},                         {Field::kBytes, "bytes"}};
  for (const auto& [bit, name] : kNames)
    if (bits & bit) return name;
  return "a field";
}

int32_t clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

}  // namespace

TraceBuilder::TraceBuilder(std::string path, uint64_t json_bytes_hint) {
  trace_.path = std::move(path);
  // Reserve by the expected size: untouched capacity costs address space, not memory, while
  // regrowth copies every row and touches twice the pages (PERF_NOTES.md: fresh pages are dear).
  // Real traces average 300-700 bytes of JSON per host event and more per GPU activity.
  uint64_t cap = std::min<uint64_t>(json_bytes_hint, uint64_t{16} << 30);
  reserve_on_huge_pages(trace_.host_events, cap / 200);
  reserve_on_huge_pages(trace_.gpu_activities, cap / 1000);
}

void TraceBuilder::begin_batch() {
  mark_.host = trace_.host_events.size();
  mark_.gpu = trace_.gpu_activities.size();
  mark_.instants = trace_.instants.size();
  mark_.flows = trace_.flows.size();
  mark_.names = trace_.thread_names.size();
  mark_.events = trace_.events_read;
  mark_.diagnostics = trace_.diagnostics;
}

void TraceBuilder::rollback_batch() {
  trace_.host_events.resize(mark_.host);
  trace_.gpu_activities.resize(mark_.gpu);
  trace_.instants.resize(mark_.instants);
  trace_.flows.resize(mark_.flows);
  trace_.thread_names.resize(mark_.names);
  trace_.events_read = mark_.events;
  trace_.diagnostics = mark_.diagnostics;
}

// Threads and processes named by strings get negative keys, so they never collide with real ids.
int32_t TraceBuilder::thread_key(int64_t number, std::string_view text) {
  if (text.empty()) return clamp32(number);
  return -1 - static_cast<int32_t>(trace_.strings.intern(text));
}

simdjson::error_code TraceBuilder::event(simdjson::ondemand::value element, uint64_t offset) {
  ++trace_.events_read;
  EventFields& f = fields_;
  if (auto error = read_event_fields(element, f)) {
    if (error != simdjson::INCORRECT_TYPE) return error;
    trace_.diagnostics.add(DiagnosticKind::kMistypedField, offset,
                           "an element of traceEvents is not an object");
    return simdjson::SUCCESS;
  }
  if (!f.has(Field::kPhase) || f.bad(Field::kPhase)) {
    trace_.diagnostics.add(f.has(Field::kPhase) ? DiagnosticKind::kMistypedField
                                                : DiagnosticKind::kMissingField,
                           offset, "event without a valid \"ph\"");
    return simdjson::SUCCESS;
  }
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
      trace_.diagnostics.add(DiagnosticKind::kUnknownPhase, offset,
                             fmt::format("phase '{}'", f.phase));
  }
  return simdjson::SUCCESS;
}

void TraceBuilder::add_complete(const EventFields& f, uint64_t offset) {
  Category category = kineto::category_from_name(f.category);
  if (category == Category::kTraceSpan) return;
  if (category == Category::kUnknown || category == Category::kCpuInstantEvent ||
      category == Category::kFlowAc2g || category == Category::kFlowFwdBwd) {
    trace_.diagnostics.add(DiagnosticKind::kUnknownCategory, offset,
                           fmt::format("category \"{}\"", f.category));
    return;
  }
  constexpr uint32_t kNeeded = Field::kTs | Field::kDur | Field::kName;
  if ((f.present & kNeeded) != kNeeded) {
    trace_.diagnostics.add(DiagnosticKind::kMissingField, offset,
                           fmt::format("{} event without \"{}\"", f.category,
                                       field_list(kNeeded & ~f.present)));
    return;
  }
  constexpr uint32_t kMustType = kNeeded | Field::kPid | Field::kTid | Field::kExternalId |
                                 Field::kCorrelation | Field::kGrid | Field::kBlock;
  if (f.mistyped & kMustType) {
    trace_.diagnostics.add(DiagnosticKind::kMistypedField, offset,
                           fmt::format("{} event with a mistyped \"{}\"", f.category,
                                       field_list(f.mistyped & kMustType)));
    return;
  }
  if (f.dur_ns < 0) {
    trace_.diagnostics.add(DiagnosticKind::kNegativeDuration, offset,
                           fmt::format("\"{}\" has dur {} ns", f.name, f.dur_ns));
    return;
  }
  StringId name = trace_.strings.intern(f.name);
  auto host = [&](HostKind kind) {
    HostEvent e;
    e.start_ns = f.ts_ns;
    e.dur_ns = f.dur_ns;
    e.external_id = f.external_id;
    e.correlation = f.correlation;
    e.pid = thread_key(f.pid, f.pid_text);
    e.tid = thread_key(f.tid, f.tid_text);
    e.name = name;
    e.kind = kind;
    trace_.host_events.push_back(e);
  };
  auto gpu = [&](GpuKind kind) {
    GpuActivity a;
    a.start_ns = f.ts_ns;
    a.dur_ns = f.dur_ns;
    a.correlation = f.correlation;
    a.external_id = f.external_id;
    a.bytes = f.bytes;
    a.name = name;
    a.kind = kind;
    a.device = f.has(Field::kDevice) ? clamp32(f.device) : clamp32(f.pid);
    a.stream = f.has(Field::kStream) ? clamp32(f.stream) : clamp32(f.tid);
    a.grid = f.grid;
    a.block = f.block;
    a.registers_per_thread = f.registers;
    a.shared_memory = clamp32(f.shared_memory);
    a.kineto_occupancy_pct = f.has(Field::kOccupancy) && !f.bad(Field::kOccupancy)
                                 ? static_cast<float>(f.occupancy_pct)
                                 : -1.0f;
    trace_.gpu_activities.push_back(a);
  };
  switch (category) {
    case Category::kCpuOp: host(HostKind::kCpuOp); break;
    case Category::kUserAnnotation: host(HostKind::kUserAnnotation); break;
    case Category::kCudaRuntime: host(HostKind::kRuntime); break;
    case Category::kCudaDriver: host(HostKind::kDriver); break;
    case Category::kPythonFunction: host(HostKind::kPythonFunction); break;
    case Category::kOverhead: host(HostKind::kOverhead); break;
    case Category::kKernel: gpu(GpuKind::kKernel); break;
    case Category::kGpuMemcpy: gpu(GpuKind::kMemcpy); break;
    case Category::kGpuMemset: gpu(GpuKind::kMemset); break;
    case Category::kGpuUserAnnotation: gpu(GpuKind::kUserAnnotation); break;
    default: break;
  }
}

void TraceBuilder::add_instant(const EventFields& f) {
  if (!f.has(Field::kTs) || f.bad(Field::kTs)) return;  // markers without time say nothing
  InstantEvent e;
  e.ts_ns = f.ts_ns;
  e.pid = thread_key(f.pid, f.pid_text);
  e.tid = thread_key(f.tid, f.tid_text);
  e.name = trace_.strings.intern(f.name);
  e.bytes = f.memory_bytes;
  e.total_allocated = f.memory_total_allocated;
  e.device = clamp32(f.memory_device_id);
  trace_.instants.push_back(e);
}

void TraceBuilder::add_flow(const EventFields& f, uint64_t offset) {
  // ac2g flows repeat the correlation ids that link launches to GPU work: not stored.
  if (kineto::category_from_name(f.category) == Category::kFlowAc2g) return;
  if (!f.has(Field::kId) || f.bad(Field::kId) || !f.has(Field::kTs) || f.bad(Field::kTs)) {
    trace_.diagnostics.add(DiagnosticKind::kMissingField, offset,
                           "flow event without a numeric \"id\" and \"ts\"");
    return;
  }
  FlowEvent e;
  e.id = f.id;
  e.ts_ns = f.ts_ns;
  e.pid = thread_key(f.pid, f.pid_text);
  e.tid = thread_key(f.tid, f.tid_text);
  e.category = trace_.strings.intern(f.category);
  e.phase = f.phase;
  trace_.flows.push_back(e);
}

void TraceBuilder::add_metadata(const EventFields& f) {
  bool process = f.name == kineto::kProcessName;
  if (!process && f.name != kineto::kThreadName) return;  // sort indices, labels: not modeled
  if (!f.has(Field::kMetadataName)) return;
  ThreadName n;
  n.pid = thread_key(f.pid, f.pid_text);
  n.tid = process ? 0 : thread_key(f.tid, f.tid_text);
  n.name = trace_.strings.intern(f.metadata_name);
  n.is_process = process;
  trace_.thread_names.push_back(n);
}

Status TraceBuilder::top_level_member(std::string_view key, std::string_view raw, uint64_t offset) {
  if (key == kineto::kDeviceProperties) return read_device_properties(raw, offset);
  if (key == kineto::kDistributedInfo) return read_distributed_info(raw, offset);
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  if (top_level_parser_.iterate(text).get(doc)) return {};
  if (key == kineto::kBaseTimeNanoseconds) {
    int64_t v;
    if (!doc.get_int64().get(v)) trace_.base_time_ns = v;
  } else if (key == kineto::kSchemaVersion) {
    int64_t v;
    if (!doc.get_int64().get(v)) trace_.schema_version = v;
  } else if (key == kineto::kTraceName) {
    std::string_view v;
    if (!doc.get_string().get(v)) trace_.trace_name = std::string(v);
  }
  return {};
}

Status TraceBuilder::read_device_properties(std::string_view raw, uint64_t offset) {
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  simdjson::ondemand::array devices;
  if (top_level_parser_.iterate(text).get(doc) || doc.get_array().get(devices)) {
    trace_.diagnostics.add(DiagnosticKind::kMistypedField, offset,
                           "\"deviceProperties\" is not an array");
    return {};
  }
  for (auto element : devices) {
    simdjson::ondemand::object object;
    if (element.get_object().get(object)) continue;
    DeviceProperties d;
    for (auto field : object) {
      std::string_view key;
      simdjson::ondemand::value v;
      if (field.unescaped_key().get(key) || field.value().get(v)) break;
      int64_t n = 0;
      if (key == "name") {
        std::string_view s;
        if (!v.get_string().get(s)) d.name = std::string(s);
        continue;
      }
      if (v.get_int64().get(n)) continue;
      if (key == "id") d.id = clamp32(n);
      else if (key == "computeMajor") d.compute_major = clamp32(n);
      else if (key == "computeMinor") d.compute_minor = clamp32(n);
      else if (key == "numSms") d.sm_count = clamp32(n);
      else if (key == "maxThreadsPerMultiprocessor") d.max_threads_per_sm = clamp32(n);
      else if (key == "regsPerMultiprocessor") d.regs_per_sm = clamp32(n);
      else if (key == "sharedMemPerMultiprocessor") d.shared_memory_per_sm = n;
      else if (key == "sharedMemPerBlockOptin") d.shared_memory_per_block_optin = n;
      else if (key == "warpSize") d.warp_size = clamp32(n);
      else if (key == "totalGlobalMem") d.total_memory = n;
    }
    trace_.devices.push_back(std::move(d));
  }
  return {};
}

Status TraceBuilder::read_distributed_info(std::string_view raw, uint64_t offset) {
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (top_level_parser_.iterate(text).get(doc) || doc.get_object().get(object)) {
    trace_.diagnostics.add(DiagnosticKind::kMistypedField, offset,
                           "\"distributedInfo\" is not an object");
    return {};
  }
  trace_.distributed.present = true;
  for (auto field : object) {
    std::string_view key;
    simdjson::ondemand::value v;
    if (field.unescaped_key().get(key) || field.value().get(v)) break;
    int64_t n;
    std::string_view s;
    if (key == "backend" && !v.get_string().get(s)) trace_.distributed.backend = std::string(s);
    else if (key == "rank" && !v.get_int64().get(n)) trace_.distributed.rank = clamp32(n);
    else if (key == "world_size" && !v.get_int64().get(n)) trace_.distributed.world_size = clamp32(n);
  }
  return {};
}

Trace TraceBuilder::finish() && {
  auto& host = trace_.host_events;
  // Parents start first and, at a tie, last longer: then a stack per thread finds the nesting.
  // Full keys make the order deterministic without a stable sort's temporary buffer.
  std::sort(host.begin(), host.end(), [](const HostEvent& a, const HostEvent& b) {
    if (a.pid != b.pid) return a.pid < b.pid;
    if (a.tid != b.tid) return a.tid < b.tid;
    if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
    if (a.dur_ns != b.dur_ns) return a.dur_ns > b.dur_ns;
    if (a.kind != b.kind) return a.kind < b.kind;
    return a.correlation < b.correlation;
  });
  std::sort(trace_.gpu_activities.begin(), trace_.gpu_activities.end(),
            [](const GpuActivity& a, const GpuActivity& b) {
              if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
              if (a.stream != b.stream) return a.stream < b.stream;
              return a.correlation < b.correlation;
            });
  return std::move(trace_);
}

}  // namespace attnprof
