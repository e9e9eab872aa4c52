#pragma once
// A region's (or a trace's) collectives by name: how many ran, the bytes each rank moved, their
// GPU time, and the bandwidths nccl-tests reports, so that they read against the link
// (docs/BREAKDOWN.md, "Collectives").

#include <cstdint>
#include <string>
#include <vector>

namespace attnprof {

// The collectives of one name, element type and group size.
struct CollectiveTotals {
  // The trace's "Collective name" ("allreduce", "allgather_into_tensor_coalesced", "send"); for
  // a kernel without it, the collective its kernel name says ("AllReduce" of
  // ncclDevKernel_AllReduce_Sum_f32_RING_LL); else the kernel's short name.
  std::string name;
  std::string dtype;        // "BFloat16"; "" where the trace does not say
  int64_t group_size = -1;  // ranks in its process group; -1 where the trace does not say
  int64_t count = 0;        // kernels
  int64_t gpu_ns = 0;       // their GPU time, all of them
  // Those whose bytes are known ("In msg nelems" or "Out msg nelems", and a dtype attnprof knows
  // the size of), and of them: the bytes, the larger of the elements sent and received times the
  // element's size (nccl-tests' size: an all-gather's output, a reduce-scatter's input), and the
  // GPU time.
  int64_t sized = 0;
  int64_t bytes = 0;
  int64_t sized_gpu_ns = 0;
  // bytes / sized_gpu_ns, GB/s of 1e9 bytes (nccl-tests' algbw); -1 when none is sized.
  double algbw_gbps = -1;
  // nccl-tests' factor for the collective and the group size: all-reduce 2(n-1)/n; all-gather,
  // reduce-scatter and all-to-all (n-1)/n; the rest 1. -1 where the group size is unknown for a
  // collective whose factor depends on it.
  double bus_factor = -1;
  double busbw_gbps = -1;  // algbw x bus_factor; -1 when either is unknown
  // Each kernel's start (trace clock), in order: the cross-rank comparison matches the n-th of
  // each rank (attnprof/cross_trace.h).
  std::vector<int64_t> starts_ns;
};

// One collective of a region as one rank ran it, in start order: what the job's path across ranks
// matches, rank against rank (attnprof/cross_trace.h, JobPathAcrossRanks).
struct CollectiveVisit {
  // As CollectiveTotals names a kernel's collective; for a collective that runs on the CPU (gloo),
  // its op's name, "gloo:all_reduce".
  std::string name;
  std::string group;  // "Process Group Name"; "" where the trace does not say
  // When this rank ran it (trace clock): its kernel on the GPU, or its op on the CPU. A rank that
  // arrives early waits inside it for the last; all leave it together.
  int64_t start_ns = 0, end_ns = 0;
  // What held this rank's own critical path most from its previous collective's end (or the
  // region's start) to this one's start: the innermost CPU op, or the kernel, with the most time
  // on the path there; "" where nothing did.
  std::string held_by;
};

// The link between the GPUs of one host, from the datasheet of the trace's GPU.
struct GpuLink {
  std::string name;                    // "NVLink 4"; "" when attnprof has no datasheet for it
  double gb_per_s_per_direction = -1;  // the datasheet's total, halved: what busbw reads against
};

}  // namespace attnprof
