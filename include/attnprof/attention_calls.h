#pragma once
// The attention calls of a region: one row per call, with the backend that ran it, its shapes from
// the recorded inputs (record_shapes=True), what op_cost counts for it and the GPU time of its
// work. Made by src/analysis/attention/attention_calls.cpp; docs/ATTENTION_CALLS.md says how each
// backend is told and what a call is.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// Who computed the attention. Told from the op that ran (the innermost attention op) and the
// kernels it launched: docs/ATTENTION_CALLS.md lists the names each is known by.
enum class AttentionBackend : uint8_t {
  kMath,        // SDPA's math backend: GEMMs and a softmax, in FP32 for half inputs
  kEfficient,   // SDPA's memory-efficient backend (xformers' CUTLASS kernels, fmha_cutlass*)
  kFlash,       // SDPA's flash backend (PyTorch's copy of FlashAttention-2)
  kCudnn,       // SDPA's cuDNN backend (cudnn_generated_fort_native_sdpa_*)
  kFlex,        // FlexAttention's Triton template (triton_tem_fused_flex_attention_*)
  kFa2,         // the flash_attn package (FlashAttention-2)
  kFa3,         // FlashAttention-3 (Hopper: FlashAttnFwdSm90, flash_attn_3 ops)
  kFa4,         // FlashAttention-4 (CuTe DSL: FlashAttentionForwardSm100)
  kXformers,    // xformers' own ops
  kFlashInfer,  // FlashInfer's kernels
  kTriton,      // another Triton attention kernel
  kUnfused,     // matmul -> softmax -> matmul as separate ops (eager Hugging Face models)
  kUnknown,     // an attention op whose kernels say none of the above
};

// "math", "efficient", "flash", "cudnn", "flex", "fa2", "fa3", "fa4", "xformers", "flashinfer",
// "triton", "unfused", "unknown": the JSON and CSV value.
std::string_view attention_backend_id(AttentionBackend b);

// One attention call. Every shape is none where the trace does not say (a trace recorded without
// shapes, a kernel whose op is not an attention op).
struct AttentionCall {
  // The outermost attention op ("aten::scaled_dot_product_attention"), or the chain's ops
  // ("aten::matmul -> aten::softmax -> aten::matmul"), or the kernel's op.
  std::string op;
  std::string backend_op;  // the innermost attention op, the one that ran ("" for a chain)
  AttentionBackend backend = AttentionBackend::kUnknown;
  bool backward = false;
  std::optional<int64_t> batch, heads, kv_heads, q_len, kv_len, head_dim;
  std::string dtype;  // "bf16", "fp16", "fp32", ... ("" where unknown)
  std::optional<bool> causal;
  // An attn_mask or bias tensor: what it hides is not recorded, so causal and window are unknown.
  bool explicit_mask = false;
  // Keys each query sees to its left (the window the op recorded); none for no window, or a
  // window the op did not record (one built into a mask tensor).
  std::optional<int64_t> window;
  std::optional<double> flops;  // op_cost's count for the op that ran
  std::string assumed;          // what the count assumed, in words
  std::optional<double> bytes;  // the fewest bytes it must move (op_cost's), where counted
  // Achieved TFLOP/s against the roof of the GPU named in deviceProperties (its datasheet,
  // analysis/gpu_datasheet.h): the dense peak of its dtype, or, where FLOPs per byte are too few
  // to reach it (a decode step), the memory bandwidth times those FLOPs per byte. None for a GPU
  // the datasheet does not hold, or a call without FLOPs.
  // Never above 100: where the estimate would be, it is none and `roof_note` says why.
  std::optional<double> roof_pct;
  std::string roof;       // which roof: "bf16 dense 989 TFLOP/s", "memory 4800 GB/s x 0.9 FLOP/B"
  std::string roof_note;  // "estimate above the roof: ..." where roof_pct is withheld
  bool memory_roof = false;  // the roof is the memory bandwidth's side
  // Times its work ran: 1, or the CUDA graph replays of a captured call in the region (each
  // replay runs the captured work again). flops and bytes count every execution, gpu_ns is the
  // busy time of all of them, so that the rate holds.
  int64_t executions = 1;
  int64_t gpu_ns = 0;  // busy time of its GPU work (the union of its intervals)
  int64_t kernels = 0;
  std::string main_kernel;  // the short name of its longest kernel
  // CUDA memory its calls allocated and freed (the sums of its [memory] events' positive and
  // negative "Bytes", inside its ops on their thread): an unfused call's S x S scores, a fused
  // one's workspace. None in a trace without [memory] events.
  std::optional<int64_t> allocated_bytes, freed_bytes;
  // For a user to act on: why SDPA ran its math backend, from the recorded inputs.
  std::string note;

  // Achieved TFLOP/s, where FLOPs and a GPU time are known.
  std::optional<double> tflops() const {
    if (!flops || gpu_ns <= 0) return std::nullopt;
    return *flops / static_cast<double>(gpu_ns) / 1e3;
  }
};

// A region's calls and the share of its GPU time they take.
struct AttentionCalls {
  std::vector<AttentionCall> calls;  // in the order they started
  int64_t gpu_ns = 0;                // the union of every call's GPU work
};

// The calls of a trace's typical region, with each call's GPU time and attention's share the
// medians over the regions.
struct MedianAttentionCalls {
  std::vector<AttentionCall> calls;
  // Whether every region holds the same calls, so that each call's time is a median over them
  // (else `calls` are the typical region's own).
  bool same_in_every_region = false;
  int regions = 0;
  int64_t gpu_ns = 0;  // median of the regions' attention GPU time
  // Median of attention's share of each region's GPU busy time, in percent; none without GPU work.
  std::optional<double> share_pct;
};

}  // namespace attnprof
