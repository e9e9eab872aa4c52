#include "attnprof/diagnostics.h"

#include <array>
#include <numeric>

#include "attnprof/diagnostic_table.h"

namespace attnprof {

namespace {

using K = DiagnosticKind;
using S = DiagnosticSeverity;
constexpr DiagnosticSource kTrace = DiagnosticSource::kTrace;
constexpr DiagnosticSource kAnalysis = DiagnosticSource::kAnalysis;

// In the order of DiagnosticKind (diagnostics_test checks it).
constexpr std::array<DiagnosticDescription, kDiagnosticKindCount> kTable{{
    {K::kUnknownCategory, "unknown category", "unknown_category", S::kDataLoss, kTrace,
     "an event of a category the reader does not model; the event is skipped"},
    {K::kUnknownPhase, "unknown phase", "unknown_phase", S::kDataLoss, kTrace,
     "an event whose `ph` the reader does not model; the event is skipped"},
    {K::kMissingField, "missing field", "missing_field", S::kDataLoss, kTrace,
     "a field the event's kind needs is absent; the event is skipped"},
    {K::kMistypedField, "mistyped field", "mistyped_field", S::kDataLoss, kTrace,
     "a field has the wrong JSON type; the event, or the top-level value, is skipped"},
    {K::kNegativeDuration, "negative duration", "negative_duration", S::kDataLoss, kTrace,
     "an event with dur < 0; the event is skipped"},
    {K::kFlowWithoutPartner, "flow without partner", "flow_without_partner", S::kInfo, kTrace,
     "a flow start without its end, or the reverse; links come from correlation ids instead"},
    {K::kLaunchWithoutActivity, "launch without GPU activity", "launch_without_activity",
     S::kDataLoss, kTrace,
     "a kernel or copy launch whose GPU activity is not in the trace (the profiler lost it)"},
    {K::kActivityWithoutLaunch, "GPU activity without launch", "activity_without_launch",
     S::kDataLoss, kTrace,
     "a GPU activity whose launching runtime call is not in the trace; it has no op"},
    {K::kDuplicateCorrelation, "duplicate correlation id", "duplicate_correlation", S::kInfo,
     kTrace,
     "launches share one correlation id (merged ranks, restarted ids); each activity goes to the "
     "launch of the process that drives its device"},
    {K::kGpuBeforeLaunch, "GPU activity before its launch", "gpu_before_launch", S::kInfo, kTrace,
     "GPU activities start before their launch: the CPU and GPU clocks disagree, by the amount "
     "measured"},
    {K::kExternalIdIsCorrelation, "External id is a correlation id", "external_id_is_correlation",
     S::kInfo, kTrace,
     "an activity's External id equals its correlation id (Kineto 2022-2024): it names no op"},
    {K::kSeveralProcesses, "regions of several processes", "several_processes", S::kInfo, kAnalysis,
     "the regions come from more than one process; each region names its pid"},
    {K::kScopesAsOps, "scopes written as ops", "scopes_as_ops", S::kInfo, kAnalysis,
     "PyTorch 1.8-1.9 wrote record_function scopes as ops; regions were matched among the ops"},
    {K::kCarriedIn, "GPU work carried in from before the trace", "carried_in", S::kInfo, kAnalysis,
     "GPU work launched before the profiler's window opened (its correlation ids are below every "
     "recorded launch): counted in no region; its count, time and the regions it ran in are said"},
    {K::kWorkOutsideRegions, "GPU work in no region", "work_outside_regions", S::kInfo, kAnalysis,
     "GPU work that no matched region holds (launched by another process, outside every region, "
     "or its launch missing): its count and time are said beside the regions"},
    {K::kReplayNotMatched, "graph replay not matched", "replay_not_matched", S::kInfo, kAnalysis,
     "a CUDA graph replay without a capture in its trace that the trace given by --graph-capture "
     "does not match (no graph of it has the replay's kernel names, or two have them with other "
     "ops): its activities stay unknown (docs/CUDA_GRAPHS.md)"},
    {K::kLaunchCaptured, "launch captured into a graph", "launch_captured", S::kInfo, kTrace,
     "a kernel launch made while a CUDA graph was captured: it recorded a node of the graph and "
     "ran nothing; the graph's replays run its work (docs/CUDA_GRAPHS.md)"},
    {K::kFreeWithoutAllocation, "free without allocation", "free_without_allocation", S::kInfo,
     kAnalysis,
     "a [memory] free of an address the trace never allocated (a block allocated before the "
     "profiler's window opened, or an allocation the profiler lost): it has no op to hold it, and "
     "the peak, read from \"Total Allocated\", is not affected (docs/MEMORY.md)"},
    {K::kNegativeMemoryTotal, "negative memory total", "negative_memory_total", S::kDataLoss,
     kAnalysis,
     "a [memory] event whose \"Total Allocated\" or \"Total Reserved\" is below zero: the event "
     "is left out of every memory figure (docs/MEMORY.md)"},
    {K::kDeviceWithoutMemory, "device without memory events", "device_without_memory", S::kInfo,
     kAnalysis,
     "a device that ran GPU work has no [memory] event in a trace that has some "
     "(profile_memory=True): its memory is unknown, and no peak is given for it (docs/MEMORY.md)"},
    {K::kDependencyAgainstClock, "dependency against the clock", "dependency_against_clock",
     S::kInfo, kAnalysis,
     "a dependency of the critical path's graph ends before it starts (clocks out of order, an "
     "event that ends before its child): the later time is kept, and a cycle is cut "
     "(docs/CRITICAL_PATH.md)"},
    {K::kWaitWithoutRecord, "wait without its record", "wait_without_record", S::kDataLoss,
     kAnalysis,
     "a stream or event wait names a cudaEventRecord (wait_on_cuda_event_record_corr_id) that the "
     "trace does not hold: the critical path has no edge for it (docs/CRITICAL_PATH.md)"},
}};

}  // namespace

const std::array<DiagnosticDescription, kDiagnosticKindCount>& diagnostic_table() {
  return kTable;
}

const DiagnosticDescription& describe(DiagnosticKind kind) {
  return kTable[static_cast<size_t>(kind)];
}

std::string_view severity_name(DiagnosticSeverity severity) {
  switch (severity) {
    case DiagnosticSeverity::kInfo:
      return "info";
    case DiagnosticSeverity::kDataLoss:
      return "data loss";
    case DiagnosticSeverity::kError:
      return "error";
  }
  return "?";
}

std::string_view source_name(DiagnosticSource source) {
  return source == DiagnosticSource::kTrace ? "trace" : "analysis";
}

std::string_view diagnostic_name(DiagnosticKind kind) {
  if (kind >= DiagnosticKind::kCount) return "diagnostic";
  return describe(kind).name;
}

std::string_view diagnostic_id(DiagnosticKind kind) {
  if (kind >= DiagnosticKind::kCount) return "diagnostic";
  return describe(kind).id;
}

void Diagnostics::add(DiagnosticKind kind, uint64_t byte_offset, std::string detail) {
  auto& count = counts_[static_cast<size_t>(kind)];
  if (count++ < kKeptPerKind) first_.push_back({kind, byte_offset, std::move(detail)});
}

void Diagnostics::add_many(DiagnosticKind kind, uint64_t count, uint64_t byte_offset,
                           std::string detail) {
  if (count == 0) return;
  auto& n = counts_[static_cast<size_t>(kind)];
  if (n < kKeptPerKind) first_.push_back({kind, byte_offset, std::move(detail)});
  n += count;
}

uint64_t Diagnostics::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), uint64_t{0});
}

}  // namespace attnprof
