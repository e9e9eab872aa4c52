#pragma once
// The critical path of a region: the chain of dependent work (CPU ops, runtime calls, kernels,
// copies, waits) that held it from its start to its end, and what-if, the same graph timed again
// with some work made faster or slower (docs/CRITICAL_PATH.md).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// Where the path's time went. The categories add up to the path's length.
struct CriticalPathCategories {
  int64_t cpu_ns = 0;              // CPU ops, annotations and the thread's time between them
  int64_t launch_overhead_ns = 0;  // runtime calls that do not wait, and launch to GPU start
  int64_t sync_ns = 0;             // the host waiting on the GPU, and the return from the wait
  int64_t compute_ns = 0;          // kernels but communication
  int64_t communication_ns = 0;    // collectives and point-to-point kernels
  int64_t memory_ns = 0;           // copies and memsets
  int64_t kernel_gap_ns = 0;       // the GPU idle between dependent work of its streams

  int64_t total_ns() const {
    return cpu_ns + launch_overhead_ns + sync_ns + compute_ns + communication_ns + memory_ns +
           kernel_gap_ns;
  }
};

enum class CriticalPathItemKind : uint8_t { kKernel, kOp };

// "kernel", "op": the kind's one name in every output.
constexpr std::string_view critical_path_item_kind_name(CriticalPathItemKind kind) {
  return kind == CriticalPathItemKind::kKernel ? "kernel" : "op";
}

// A kernel (its short name) or a CPU op (the innermost cpu_op the CPU was in) with its time on
// the path.
struct CriticalPathItem {
  CriticalPathItemKind kind = CriticalPathItemKind::kKernel;
  std::string name;
  int64_t ns = 0;
};

struct CriticalPath {
  bool present = false;  // false where the region was not analyzed for it
  int64_t length_ns = 0;
  CriticalPathCategories categories;
  int64_t attention_ns = 0;  // the attention calls' kernels on the path
  // The CPU time of the ops that launched the attention calls' GPU work and of what runs under
  // them (what --what-if attention-cpu selects), in the region, on the path or not; none of the
  // time they waited on the GPU.
  int64_t attention_cpu_ns = 0;
  // What holds the step, the largest of four groups of the categories: "CPU" (cpu and launch
  // overhead), "GPU compute" (compute and memory), "communication", "waits" (sync and kernel gaps);
  // empty for a path of no length.
  std::string bound_by;
  // The kernels, then the ops, with the most time on the path (kCriticalPathTop of each), the
  // longest first.
  std::vector<CriticalPathItem> top;
};
inline constexpr size_t kCriticalPathTop = 5;

// What --what-if selects (docs/CRITICAL_PATH.md, "What-if").
enum class WhatIfSelectorKind : uint8_t {
  kAttention,     // the attention calls' kernels
  kAttentionCpu,  // the CPU time of the ops that launched them (outermost, attention work only)
  kKernel,        // kernels whose short or full name matches the glob
  kOp,            // the GPU work launched under an op whose name matches
  kModule,        // the GPU work launched under an nn.Module whose name matches
  kClass,         // the GPU work of one kernel class (gemm, communication, ...)
  kCpu,           // the CPU time of ops whose name matches, and of what runs under them
};

struct WhatIfRule {
  WhatIfSelectorKind kind = WhatIfSelectorKind::kAttention;
  std::string pattern;  // the glob or class name; empty for kAttention
  double factor = 1.0;  // durations are multiplied by it: 0.5 twice as fast, 0 gone
  std::string text;     // as the user wrote it, "attention=0.5"
};

// The path's length in the recording and with the rules applied, and the time of the work the
// rules select in the recording (the sum of its durations: GPU work, and CPU time under a cpu:
// op), on the path or not.
struct WhatIf {
  int64_t length_before_ns = 0;
  int64_t length_after_ns = 0;
  int64_t selected_ns = 0;
};

}  // namespace attnprof
