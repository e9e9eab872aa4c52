#pragma once
// Findings: what a trace means, each with its evidence and, where one applies, a suggestion.
// They are computed from the trace by rules in src/analysis/findings/ (one file per rule) and
// shown by `analyze --explain`, the bench's table, and the JSON output.

#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// In the order their rules run, which is the order findings that explain the same time are
// listed in (src/analysis/findings/finding_catalog.cpp lists them in this order too).
enum class FindingKind {
  kHiddenCopy,          // a copy under an out-of-place op
  kKvRepeat,            // K and V repeated per query head by hand (grouped-query attention)
  kPrecisionUpcast,     // half-precision work computed in FP32
  kMaskRebuilt,         // the attention op builds its mask on every call
  kNotFused,            // attention as many kernels where one would do
  kLowOccupancy,        // few resident warps, with what limits them
  kCpuSideCost,         // CPU time before the first launch (plan building)
  kCommunicationBound,  // communication not overlapping compute is most of the GPU's busy time
  kLaunchBound,         // the GPU waits for the CPU
  kGraphReplay,         // CUDA graph replays: their CPU cost against the launches they replaced
  kSynchronization,     // the CPU waits for the GPU inside a region
  kPersistentKernel,    // grid sized to the SM count
  kLaunchKernelEx,      // launched through cuLaunchKernelEx
  kSplitKv,             // the keys split across blocks of work, then combined (decode)
  kLowBusBandwidth,     // collectives far below the bandwidth of the GPUs' link
  kCount                // not a kind: how many there are
};

// Stable identifiers, used in JSON and in tests: "hidden-copy", "precision-upcast", ...
std::string_view finding_id(FindingKind kind);

struct Finding {
  FindingKind kind;
  std::string summary;                // one line: what happens
  std::vector<std::string> evidence;  // the events, op chains and numbers that show it
  std::string suggestion;             // one line, or empty
  int regions_affected = 0;           // of the regions analyzed
  // The GPU time of the work it blames, in the region its evidence shows (hidden-copy and
  // kv-repeat: their copies; not-fused: its attention ops' work outside their GEMMs;
  // low-bus-bandwidth: its slow collectives); < 0 for a rule that does not count it. The report's
  // headline weighs the finding by it (src/analysis/headline.h), not by every kernel of the kinds
  // it names.
  double gpu_ns = -1;
  // The time it accounts for in the typical region (analysis/findings/finding_explained_time.h):
  // on the critical path where the step waits on what it names (the CPU, waits, communication),
  // else the GPU time of the work it blames; < 0 for a finding that says how work runs. Findings
  // are listed by it, the largest first.
  double explains_ns = -1;
};

}  // namespace attnprof
