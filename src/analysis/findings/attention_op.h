#pragma once
// One attention computation of a region, as find_attention_ops (attention_ops.h) finds it: an
// SDPA op or a chain of ops, with its GPU activities and what its kernels are.

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace attnprof {

// A step that decodes has at most this many query rows per head (one per token being generated,
// or a few with speculative decoding).
inline constexpr int64_t kDecodeQueryRows = 16;

struct AttentionOp {
  bool sdpa =
      false;  // an attention op (analysis/attention/attention_backend.h); else a chain of ops
  // The outermost attention op, or the chain's first op; the innermost attention op (the one that
  // ran: an SDPA call's backend op); a chain's two products (Q K^T and P V). kNoId where none.
  HostEventId op = kNoId, innermost = kNoId, first_product = kNoId, second_product = kNoId;
  // "aten::scaled_dot_product_attention", or the chain's ops: "aten::matmul -> aten::mul ->
  // aten::masked_fill -> aten::softmax -> aten::matmul"
  std::string label;
  std::string parent;  // the annotation or op it runs under; "" at a thread's top level
  std::vector<GpuActivityId> activities;  // in GPU start order
  int kernels = 0, gemms = 0, softmax = 0;
  // GEMMs with a thin side (kernel_traits::KernelNameTraits::thin_product): all of them thin says
  // few queries per head against many keys, a decode step.
  int thin_gemms = 0;
  // Query rows (per head) and keys, from the op's recorded input shapes; 0 when not recorded.
  int64_t query_rows = 0, keys = 0;

  // Few query rows against more keys, as the recorded shapes say: memory-bound by nature.
  bool decode_step() const {
    return query_rows > 0 && query_rows <= kDecodeQueryRows && query_rows < keys;
  }
  bool fused = false;  // one fused attention kernel does the work
  // The torch.compile frame it runs in ("Torch-Compiled Region: 0/0"); "" when eager.
  std::string compiled_region;
  // Its activities replayed in a CUDA graph, their ops found by the capture (capture_order or
  // signature: attnprof/attribution.h), not by their own launches.
  bool graph_replay = false;
  // Times its work ran in the region: the CUDA graph launches that replayed it, or 1 (a call runs
  // once; a captured op runs once per replay, and a region may hold several replays).
  int64_t executions = 1;
  int64_t busy_ns = 0;
  // How it was found where no op says it is attention (its kernels alone: a GEMM, a softmax-like
  // kernel and a GEMM on one stream); "" where its ops say it.
  std::string found_by;
};

}  // namespace attnprof
