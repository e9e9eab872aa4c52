#pragma once
// One catalog of the Kineto trace format (libkineto output_json.cpp is the real spec), with the
// producer's quirks beside the keys they concern. The reader consults only this file for names.
//
// Quirks worth knowing:
// - "ts" and "dur" are microseconds printed with three decimals (nanoseconds); the reader keeps
//   them as integer nanoseconds without going through a double (time_parse.h).
// - "baseTimeNanoseconds" is the wall-clock epoch of the trace's time base.
// - GPU user annotations (gpu_user_annotation) are nudged 1 ns earlier and 2 ns longer than the
//   work they cover, so that Perfetto nests them; never compare them to kernels exactly.
// - The kernels and copies of one CUDA graph launch share the correlation id of cudaGraphLaunch.
// - "External id" is absent where no op is linked (graph replays, some runtime calls).
// - GPU activities use the device index as "pid" and the stream as "tid"; the profiler's own spans
//   use strings for pid/tid ("Spans", "Traces", "").
// - An event's keys come in any order: "ph" may follow "args"; "traceEvents" need not be the first
//   top-level key (since 2025 baseTimeNanoseconds and displayTimeUnit precede it).
// - "displayTimeUnit" ("ms", or "ns" since 2025) only tells viewers how to show times: "ts" and
//   "dur" are microseconds whatever it says.
// - Before March 2024 "ts" and "dur" were whole microseconds, and "ts" was the absolute clock (no
//   baseTimeNanoseconds); PyTorch 1.8 wrote a bare array of events without deviceProperties.
// - Before 2021-11, CPU thread ids were strings ("tid": "4093687616", a pthread id cut to 32
//   bits) and GPU streams "stream 7"; the same thread's flow events used the number.
// - From April 2022 to February 2024 (PyTorch 1.12-2.2) runtime calls and GPU activities carried
//   their own correlation id as "External id" (kineto#843): it names no op there.

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string_view>

#include "model/trace.h"

namespace attnprof::kineto {

enum class Category : uint8_t {
  kCpuOp,
  // "Operator" (PyTorch 1.8-1.9): every CPU event of the profiler, ops and record_function scopes
  // alike; only its ProfilerStep#N scopes can be told apart, by name (legacy_scope_is_step).
  kLegacyOperator,
  kUserAnnotation,
  kGpuUserAnnotation,
  kCudaRuntime,
  kCudaDriver,
  kKernel,
  kGpuMemcpy,
  kGpuMemset,
  // MTIA's device events ("mtia_ccp_events"): kernels, DMA transfers and event waits/records on
  // one category, told apart by name (mtia_ccp_kind).
  kMtiaDeviceEvent,
  // A synchronization on the GPU timeline ("cuda_sync", "xpu_sync"): the stream or device waited
  // there, launched by the runtime call with its correlation id. Not work.
  kGpuSync,
  // A range on the GPU timeline that is not work: the CUPTI range profiler's
  // "cuda_profiler_range" (kernel names and their counters).
  kGpuRange,
  // Categories Kineto writes that attnprof does not model: counters, events, other devices'
  // instrumentation (the table in kineto_format.cpp). Read silently.
  kNotModeled,
  kPythonFunction,
  kOverhead,
  kCpuInstantEvent,  // [memory] and other instant events
  kFlowAc2g,         // launch -> GPU activity
  kFlowFwdBwd,       // forward op -> backward op
  kTraceSpan,        // the profiler's own "PyTorch Profiler (0)" span: known, not modeled
  kAttnprof,         // what `attnprof annotate` added (render/annotate_events.h): not modeled
  kUnknown,
};

// Maps the "cat" string, with the spellings of every Kineto version since PyTorch 1.8 (the table
// in kineto_format.cpp says which version wrote which).
Category category_from_name(std::string_view cat);

// What an MTIA device event is, by its name: HTA (facebookresearch/HolisticTraceAnalysis,
// hta/common/types.py) counts "dma" events as memory, not compute; event_wait and event_record
// are the device's waits and markers.
enum class MtiaDeviceEventKind : uint8_t { kKernel, kTransfer, kSync };
MtiaDeviceEventKind mtia_device_event_kind(std::string_view name);

// An "Operator" event that is a profiler step (PyTorch names them ProfilerStep#N): an annotation.
bool legacy_scope_is_step(std::string_view name);

// Top-level keys.
inline constexpr std::string_view kTraceEvents = "traceEvents";
inline constexpr std::string_view kDeviceProperties = "deviceProperties";
inline constexpr std::string_view kDistributedInfo = "distributedInfo";
inline constexpr std::string_view kBaseTimeNanoseconds = "baseTimeNanoseconds";
inline constexpr std::string_view kSchemaVersion = "schemaVersion";
inline constexpr std::string_view kTraceName = "traceName";

// Keys of each "deviceProperties" element (one per GPU).
inline constexpr std::string_view kDeviceName = "name";
inline constexpr std::string_view kDeviceId = "id";
inline constexpr std::string_view kComputeMajor = "computeMajor";
inline constexpr std::string_view kComputeMinor = "computeMinor";
inline constexpr std::string_view kNumSms = "numSms";
inline constexpr std::string_view kMaxThreadsPerMultiprocessor = "maxThreadsPerMultiprocessor";
inline constexpr std::string_view kRegsPerMultiprocessor = "regsPerMultiprocessor";
inline constexpr std::string_view kSharedMemPerMultiprocessor = "sharedMemPerMultiprocessor";
inline constexpr std::string_view kSharedMemPerBlockOptin = "sharedMemPerBlockOptin";
inline constexpr std::string_view kWarpSize = "warpSize";
inline constexpr std::string_view kTotalGlobalMem = "totalGlobalMem";
// libkineto's DeviceProperties.cpp writes the keys above for CUDA and ROCm alike ("numSms" is
// AMD's compute units there), and a few of each vendor's own, which tell whose device it is. ROCm
// builds that add "gcnArchName" (gfx90a) name the architecture.
inline constexpr std::string_view kGcnArchName = "gcnArchName";
inline bool is_nvidia_device_property(std::string_view key) {
  return key == kRegsPerMultiprocessor || key == kSharedMemPerMultiprocessor ||
         key == kSharedMemPerBlockOptin;
}
inline bool is_amd_device_property(std::string_view key) {
  return key == "maxSharedMemoryPerMultiProcessor";
}
inline bool is_nvidia_device_name(std::string_view name) {
  for (std::string_view brand : {"NVIDIA", "Tesla", "Quadro", "GeForce"})
    if (name.find(brand) != std::string_view::npos) return true;
  return false;
}

// Keys of "distributedInfo" (traces of a distributed run).
inline constexpr std::string_view kBackend = "backend";
inline constexpr std::string_view kRank = "rank";
inline constexpr std::string_view kWorldSize = "world_size";

// Event keys.
inline constexpr std::string_view kPhase = "ph";
inline constexpr std::string_view kCategory = "cat";
inline constexpr std::string_view kName = "name";
inline constexpr std::string_view kPid = "pid";
inline constexpr std::string_view kTid = "tid";
inline constexpr std::string_view kTs = "ts";
inline constexpr std::string_view kDur = "dur";
inline constexpr std::string_view kId = "id";
inline constexpr std::string_view kArgs = "args";

// Argument keys ("args").
inline constexpr std::string_view kExternalId = "External id";
// Kineto before Nov 2021 (PyTorch <= 1.10) wrote the External id of runtime calls and GPU
// activities in lower case (ops kept "External id"); 0 meant none until Oct 2022.
inline constexpr std::string_view kLegacyExternalId = "external id";
// The shapes of an op's inputs, with record_shapes=True: [[8, 32, 1, 128], [8, 32, 128, 16384]];
// their element types, ["c10::BFloat16", "Scalar", ""] ("" for None); and the values of scalar
// inputs, ["", "True", "0.125"]. Kept as raw JSON for every cpu_op (model/op_input_text.h), parsed
// by the analyses that need them (analysis/op_arguments.h).
inline constexpr std::string_view kInputDims = "Input Dims";
inline constexpr std::string_view kInputType = "Input type";
inline constexpr std::string_view kConcreteInputs = "Concrete Inputs";
inline constexpr std::string_view kCorrelation = "correlation";
inline constexpr std::string_view kDevice = "device";
inline constexpr std::string_view kStream = "stream";
inline constexpr std::string_view kGrid = "grid";
inline constexpr std::string_view kBlock = "block";
inline constexpr std::string_view kRegistersPerThread = "registers per thread";
inline constexpr std::string_view kSharedMemory = "shared memory";
inline constexpr std::string_view kEstAchievedOccupancy = "est. achieved occupancy %";
inline constexpr std::string_view kBytes = "bytes";
// MTIA's DMA transfers (mtia_ccp_events "dma_request") give their bytes as "size".
inline constexpr std::string_view kMtiaBytes = "size";
// A synchronization on the GPU timeline (cuda_sync, written with the experimental config's
// enable_cuda_sync_events since PyTorch 2.1) says what it waited for: "cuda_sync_kind" ("Stream
// Sync", "Context Sync", "Event Sync", "Stream Wait Event", also its name), "stream" (the stream
// that waits; -1 for Context and Event Sync), and, for the two event waits,
// "wait_on_cuda_event_record_corr_id" (the correlation id of the cudaEventRecord call whose
// event it waits on) and "wait_on_stream" (the stream that event was recorded on); both are -1
// where the event was recorded before the profiler started. Its own "correlation" is that of the
// runtime call that waited (cudaStreamWaitEvent, cudaEventSynchronize, ...). cudaStreamWaitEvent
// and cudaEventRecord themselves carry nothing but "cbid" and "correlation": without cuda_sync
// events a trace does not say which stream waits on which (docs/CRITICAL_PATH.md).
inline constexpr std::string_view kWaitOnEventRecordCorrelation =
    "wait_on_cuda_event_record_corr_id";
inline constexpr std::string_view kWaitOnStream = "wait_on_stream";
inline constexpr std::string_view kMetadataName = "name";  // thread_name / process_name value
// [memory] instant events (profile_memory=True; libkineto's MemoryEvent written by PyTorch's
// profiler: one per allocation or free of the caching allocator, on the thread that made it).
// "Bytes" is negative for a free; "Total Allocated" and "Total Reserved" are the device's totals
// after the event, so the peak is read from them, never summed from "Bytes" (blocks allocated
// before the profiler's window are freed inside it without their allocation). "Device Type" is
// c10::DeviceType (0 CPU, 1 CUDA), "Device Id" -1 for the CPU; "Addr" pairs a free with its
// allocation. Kineto also writes "Ev Idx" and "finished" (not read).
inline constexpr std::string_view kMemoryEventName = "[memory]";
inline constexpr std::string_view kMemoryBytes = "Bytes";
inline constexpr std::string_view kMemoryTotalAllocated = "Total Allocated";
inline constexpr std::string_view kMemoryTotalReserved = "Total Reserved";
inline constexpr std::string_view kMemoryDeviceId = "Device Id";
inline constexpr std::string_view kMemoryDeviceType = "Device Type";
inline constexpr std::string_view kMemoryAddress = "Addr";

// A collective's sizes (PyTorch 2.1 and later), on its NCCL kernel as on the record_param_comms op
// that launched it: "Collective name" ("allreduce", "allgather_into_tensor_coalesced", "send"),
// "In msg nelems" and "Out msg nelems" (elements sent and received by this rank, over every
// tensor), "dtype" (c10's name: "BFloat16", "Float"), "Group size" (ranks in its process group)
// and "Process Group Name" ("0"). Read from the kernel only (analysis/collectives/collectives.h).
inline constexpr std::string_view kCollectiveName = "Collective name";
inline constexpr std::string_view kInMsgNelems = "In msg nelems";
inline constexpr std::string_view kOutMsgNelems = "Out msg nelems";
inline constexpr std::string_view kCollectiveDtype = "dtype";
inline constexpr std::string_view kGroupSize = "Group size";
inline constexpr std::string_view kProcessGroupName = "Process Group Name";

// python_function events of nn.Modules (with_stack=True) are named "nn.Module: Linear_3".
inline constexpr std::string_view kModuleEventPrefix = "nn.Module: ";

// Metadata event names (ph "M").
inline constexpr std::string_view kProcessName = "process_name";
inline constexpr std::string_view kThreadName = "thread_name";

// Runtime and driver calls that put work on a GPU: a call of these names without its GPU
// activity in the trace is worth a diagnostic (others, like cudaStreamIsCapturing, have none).
bool is_kernel_launch_api(std::string_view name);

// The call that replays a CUDA (or HIP) graph: all the graph's activities carry its correlation.
bool is_graph_launch_api(std::string_view name);
// Between cudaStreamBeginCapture and cudaStreamEndCapture, the calls that put a node into the
// graph, by the kind of activity the node runs as (docs/CUDA_GRAPHS.md); none for other calls.
std::optional<GpuKind> captured_node_kind(std::string_view name);
inline constexpr std::string_view kBeginCapture = "cudaStreamBeginCapture";
inline constexpr std::string_view kEndCapture = "cudaStreamEndCapture";

}  // namespace attnprof::kineto
