#include "analysis/findings/finding_catalog.h"

#include <iterator>

namespace attnprof {

// The rules, one file each under src/analysis/findings/ (the entry's rule below).
void find_hidden_copies(const FindingContext&, std::vector<Finding>&);
void find_kv_repeat(const FindingContext&, std::vector<Finding>&);
void find_precision_upcast(const FindingContext&, std::vector<Finding>&);
void find_mask_rebuilt(const FindingContext&, std::vector<Finding>&);
void find_not_fused(const FindingContext&, std::vector<Finding>&);
void find_low_occupancy(const FindingContext&, std::vector<Finding>&);
void find_cpu_side_cost(const FindingContext&, std::vector<Finding>&);
void find_communication_bound(const FindingContext&, std::vector<Finding>&);
void find_launch_bound(const FindingContext&, std::vector<Finding>&);
void find_graph_replays(const FindingContext&, std::vector<Finding>&);
void find_synchronizations(const FindingContext&, std::vector<Finding>&);
void find_persistent_kernels(const FindingContext&, std::vector<Finding>&);
void find_launch_kernel_ex(const FindingContext&, std::vector<Finding>&);
void find_split_kv(const FindingContext&, std::vector<Finding>&);
void find_low_bus_bandwidth(const FindingContext&, std::vector<Finding>&);

namespace {

using K = FindingKind;
using E = ExplainedTime;
using C = KernelClass;

// A trace's findings at their FindingKind's place, then the study's. The array is sized by its
// entries, and in_order() below holds it to the enum: a kind before FindingKind::kCount without
// its entry, or an entry out of its place, does not compile.
constexpr FindingDescription kCatalog[] = {
    {.kind = K::kHiddenCopy,
     .id = "hidden-copy",
     .rule = find_hidden_copies,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kCopy}),
     .actionable = true,
     .headline = "a hidden copy: an out-of-place op copies its input",
     .headline_time = ", copies take ",
     .description = "a device-to-device copy under an op's clone: an out-of-place op's "
                    "(masked_fill), or an operand made contiguous (bmm's expanded view)"},
    {.kind = K::kKvRepeat,
     .id = "kv-repeat",
     .rule = find_kv_repeat,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kCopy}),
     .actionable = true,
     .headline = "K and V repeated for each query head (grouped-query attention written out)",
     .headline_time = ", copies take ",
     .description = "K and V repeated per query head by hand (grouped-query attention written "
                    "out: repeat_interleave, or Hugging Face's repeat_kv)"},
    {.kind = K::kPrecisionUpcast,
     .id = "precision-upcast",
     .rule = find_precision_upcast,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kGemm}),
     .actionable = true,
     .headline = "the FP32 upcast: its GEMMs run in FP32 on CUDA cores",
     .headline_time = ", ",
     .description = "half-precision attention computed in FP32 on CUDA cores"},
    {.kind = K::kMaskRebuilt,
     .id = "mask-rebuilt",
     .rule = find_mask_rebuilt,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kMask}),
     .actionable = true,
     .headline = "the mask, rebuilt on every call",
     .headline_time = ": mask kernels take ",
     .description = "the attention op builds its mask on every call"},
    // Its headline names the passes outside the GEMMs: over the score matrix in a square problem,
    // and in a decode step mostly the copies that repeat K and V for grouped-query attention.
    {.kind = K::kNotFused,
     .id = "not-fused",
     .rule = find_not_fused,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kSoftmax, C::kMask, C::kElementwise, C::kReduction, C::kCopy}),
     .actionable = true,
     .headline = "unfused attention: softmax, mask, elementwise and copy passes outside its GEMMs",
     .headline_time = ", ",
     .description =
         "attention as many kernels (passes over the scores) where one fused kernel would do"},
    {.kind = K::kLowOccupancy,
     .id = "low-occupancy",
     .rule = find_low_occupancy,
     .description =
         "few resident warps per SM, with what limits them (by design in flash attention)"},
    {.kind = K::kCpuSideCost,
     .id = "cpu-side-cost",
     .rule = find_cpu_side_cost,
     .explains = E::kHostGap,
     .actionable = true,
     .headline = "CPU time before the first launch",
     .headline_time = ": the GPU idles ",
     .description =
         "CPU time before the first launch (a plan built per call), while the GPU idles"},
    {.kind = K::kCommunicationBound,
     .id = "communication-bound",
     .rule = find_communication_bound,
     .explains = E::kCommunication,
     .actionable = true,
     .headline = "collectives that overlap no compute",
     .headline_time = ": they take ",
     .description = "communication that overlaps no compute is most of the GPU's busy time"},
    {.kind = K::kLaunchBound,
     .id = "launch-bound",
     .rule = find_launch_bound,
     .explains = E::kHostGap,
     .actionable = true,
     .headline = "the GPU waits for launches",
     .headline_time = ": idle ",
     .description = "the GPU waits for the CPU to launch its kernels"},
    {.kind = K::kGraphReplay,
     .id = "graph-replay",
     .rule = find_graph_replays,
     .description = "CUDA graph replays: their CPU cost against the launches they replaced"},
    {.kind = K::kSynchronization,
     .id = "synchronization",
     .rule = find_synchronizations,
     .explains = E::kHostGap,
     .actionable = true,
     .headline = "the CPU waits for the GPU",
     .headline_time = ": the GPU idles ",
     .description = "the CPU waits for the GPU inside a region"},
    {.kind = K::kPersistentKernel,
     .id = "persistent-kernel",
     .rule = find_persistent_kernels,
     .description = "a grid sized to the SM count: the kernel loops over its work"},
    {.kind = K::kLaunchKernelEx,
     .id = "cuLaunchKernelEx",
     .rule = find_launch_kernel_ex,
     .description =
         "kernels launched through cuLaunchKernelEx, whose occupancy Kineto does not estimate"},
    {.kind = K::kSplitKv,
     .id = "split-kv",
     .rule = find_split_kv,
     .description = "the keys split across blocks of work, then combined (decode)"},
    {.kind = K::kLowBusBandwidth,
     .id = "low-bus-bandwidth",
     .rule = find_low_bus_bandwidth,
     .explains = E::kKernelClasses,
     .classes = class_bits({C::kCommunication}),
     .actionable = true,
     .headline = "collectives far below the GPUs' link bandwidth",
     .headline_time = ": they take ",
     .description = "collectives of a megabyte or more whose bus bandwidth (nccl-tests' busbw) "
                    "is under a tenth of the GPUs' link, and take a tenth of the GPU's busy "
                    "time or more"},
    // The study's.
    {.kind = std::nullopt,
     .id = "masked-not-skipped",
     .explains = E::kUnmeasured,
     .actionable = true,
     .description = "a variant computes every query-key pair and its mask throws most away (a "
                    "window, a causal decode)"},
};

// Whether each entry has its rule is a test's (metric_names_test.cpp): comparing a function's
// address with null is no constant expression where the sanitizers instrument it.
constexpr bool in_order() {
  size_t kinds = 0;
  for (const FindingDescription& f : kCatalog) {
    if (!f.kind) break;
    if (static_cast<size_t>(*f.kind) != kinds++) return false;
  }
  for (size_t i = kinds; i < std::size(kCatalog); ++i)
    if (kCatalog[i].kind) return false;
  return kinds == kFindingKindCount;
}
static_assert(in_order(),
              "the catalog lists every FindingKind once, in the enum's order; the study's "
              "findings last");

}  // namespace

std::span<const FindingDescription> finding_catalog() {
  return kCatalog;
}

const FindingDescription& describe(FindingKind kind) {
  return kCatalog[static_cast<size_t>(kind)];
}

const FindingDescription* find_finding(std::string_view id) {
  for (const auto& f : kCatalog)
    if (f.id == id) return &f;
  return nullptr;
}

std::string_view explained_time_name(ExplainedTime explains) {
  switch (explains) {
    case ExplainedTime::kNone:
      return "none";
    case ExplainedTime::kKernelClasses:
      return "its kernel classes' GPU time";
    case ExplainedTime::kCommunication:
      return "communication overlapping no compute";
    case ExplainedTime::kHostGap:
      return "wall - GPU busy";
    case ExplainedTime::kUnmeasured:
      return "time the trace cannot measure";
  }
  return "";
}

std::string_view finding_id(FindingKind kind) {
  if (static_cast<size_t>(kind) >= kFindingKindCount) return "finding";
  return describe(kind).id;
}

}  // namespace attnprof
