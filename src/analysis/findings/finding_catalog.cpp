#include "analysis/findings/finding_catalog.h"

namespace attnprof {

namespace {

using K = FindingKind;
using E = ExplainedTime;
using C = KernelClass;

constexpr std::array<FindingDescription, kFindingKindCount + 1> kCatalog = {{
    {K::kHiddenCopy, "hidden-copy", E::kKernelClasses, class_bits({C::kCopy}), true,
     "a device-to-device copy under an op's clone: an out-of-place op's (masked_fill), or an "
     "operand made contiguous (bmm's expanded view)"},
    {K::kPrecisionUpcast, "precision-upcast", E::kKernelClasses, class_bits({C::kGemm}), true,
     "half-precision attention computed in FP32 on CUDA cores"},
    {K::kMaskRebuilt, "mask-rebuilt", E::kKernelClasses, class_bits({C::kMask}), true,
     "the attention op builds its mask on every call"},
    {K::kNotFused, "not-fused", E::kKernelClasses,
     class_bits({C::kSoftmax, C::kMask, C::kElementwise, C::kReduction, C::kCopy}), true,
     "attention as many kernels (passes over the scores) where one fused kernel would do"},
    {K::kLowOccupancy, "low-occupancy", E::kNone, 0, false,
     "few resident warps per SM, with what limits them (by design in flash attention)"},
    {K::kCpuSideCost, "cpu-side-cost", E::kHostGap, 0, true,
     "CPU time before the first launch (a plan built per call), while the GPU idles"},
    {K::kLaunchBound, "launch-bound", E::kHostGap, 0, true,
     "the GPU waits for the CPU to launch its kernels"},
    {K::kSynchronization, "synchronization", E::kHostGap, 0, true,
     "the CPU waits for the GPU inside a region"},
    {K::kPersistentKernel, "persistent-kernel", E::kNone, 0, false,
     "a grid sized to the SM count: the kernel loops over its work"},
    {K::kLaunchKernelEx, "cuLaunchKernelEx", E::kNone, 0, false,
     "kernels launched through cuLaunchKernelEx, whose occupancy Kineto does not estimate"},
    {K::kSplitKv, "split-kv", E::kNone, 0, false,
     "the keys split across blocks of work, then combined (decode)"},
    {K::kKvRepeat, "kv-repeat", E::kKernelClasses, class_bits({C::kCopy}), true,
     "K and V repeated per query head by hand (grouped-query attention written out: "
     "repeat_interleave, or Hugging Face's repeat_kv)"},
    {K::kCommunicationBound, "communication-bound", E::kCommunication, 0, true,
     "communication that overlaps no compute is most of the GPU's busy time"},
    {K::kGraphReplay, "graph-replay", E::kNone, 0, false,
     "CUDA graph replays: their CPU cost against the launches they replaced"},
    // The study's.
    {std::nullopt, "masked-not-skipped", E::kUnmeasured, 0, true,
     "a variant computes every query-key pair and its mask throws most away (a window, a causal "
     "decode)"},
}};

constexpr bool in_order() {
  for (size_t i = 0; i < kFindingKindCount; ++i)
    if (!kCatalog[i].kind || static_cast<size_t>(*kCatalog[i].kind) != i) return false;
  for (size_t i = kFindingKindCount; i < kCatalog.size(); ++i)
    if (kCatalog[i].kind) return false;
  return true;
}
static_assert(in_order(), "the catalog lists every FindingKind once, in the enum's order");
static_assert(static_cast<size_t>(FindingKind::kGraphReplay) + 1 == kFindingKindCount);

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
