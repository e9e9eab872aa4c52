#pragma once
// Recoverable oddities of a trace: counted by kind, the first few kept with their byte offset
// (Perfetto's stats table; docs/PRACTICES.md, diagnostics). A diagnostic never stops the read.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

enum class DiagnosticKind : uint8_t {
  kUnknownCategory,          // an event category the reader does not model
  kUnknownPhase,             // a `ph` the reader does not model
  kMissingField,             // a field the event kind needs is absent
  kMistypedField,            // a field has the wrong JSON type
  kNegativeDuration,         // dur < 0: the event is dropped
  kFlowWithoutPartner,       // an `s` flow without its `f`, or the reverse
  kLaunchWithoutActivity,    // a kernel/memcpy launch whose GPU activity is not in the trace
  kActivityWithoutLaunch,    // a GPU activity whose launching runtime call is not in the trace
  kDuplicateCorrelation,     // launches share one correlation id (merged ranks, restarted ids)
  kGpuBeforeLaunch,          // GPU activities start before their launch: the clocks disagree
  kExternalIdIsCorrelation,  // an activity's "External id" is its correlation id (2022-2024)
  kSeveralProcesses,         // the regions come from more than one process
  kScopesAsOps,              // PyTorch 1.8-1.9 wrote record_function scopes as ops
  kCarriedIn,                // GPU work launched before the profiler's window opened
  kWorkOutsideRegions,       // GPU work that no region holds
  kReplayNotMatched,         // a graph replay that --graph-capture's trace does not match
  kLaunchCaptured,           // a launch recorded into a CUDA graph while it was captured
  kFreeWithoutAllocation,    // a [memory] free of a block the trace never allocated
  kNegativeMemoryTotal,      // a [memory] event whose "Total Allocated" is below zero
  kDeviceWithoutMemory,      // a device that ran GPU work has no [memory] event (others have)
  kDependencyAgainstClock,   // a dependency of the critical path's graph that runs back in time
  kWaitWithoutRecord,        // a GPU wait whose cudaEventRecord the trace does not hold
  kCount
};

std::string_view diagnostic_name(DiagnosticKind kind);
// Its snake_case id, the key JSON writes ("unknown_category"): include/attnprof/diagnostic_table.h.
std::string_view diagnostic_id(DiagnosticKind kind);

struct Diagnostic {
  DiagnosticKind kind;
  uint64_t byte_offset;  // in the decompressed JSON; 0 for what no single event shows
  std::string detail;
};

class Diagnostics {
 public:
  static constexpr size_t kKeptPerKind = 5;

  void add(DiagnosticKind kind, uint64_t byte_offset, std::string detail);
  // `count` oddities of one kind told by one detail (a trace-wide finding, such as clock skew).
  void add_many(DiagnosticKind kind, uint64_t count, uint64_t byte_offset, std::string detail);
  uint64_t count(DiagnosticKind kind) const { return counts_[static_cast<size_t>(kind)]; }
  uint64_t total() const;
  const std::vector<Diagnostic>& first() const { return first_; }  // up to kKeptPerKind per kind

 private:
  std::array<uint64_t, static_cast<size_t>(DiagnosticKind::kCount)> counts_{};
  std::vector<Diagnostic> first_;
};

}  // namespace attnprof
