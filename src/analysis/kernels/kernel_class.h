#pragma once
// What kind of work a GPU activity does, from its name: the classes `diff` totals GPU time by,
// `check` counts (kernels.gemm, ...), and a report can chart.
//
// The rules, first match wins; keywords are matched case-insensitively as substrings:
//   1. a memcpy activity is "copy", a memset activity is "memset";
//   1b. "communication": the full name has nccl, rccl or hccl (ncclDevKernel_SendRecv,
//      ncclKernel_AllReduce_RING_LL_Sum_float, RCCL's kernels, which keep NCCL's names, HCCL's):
//      checked before the other rules, since a collective's name may mention a reduction or a
//      copy. gloo's collectives run on the CPU and make no GPU kernel at all;
//   2. "fused attention": the full name has flash_fwd, flash_bwd, flash_attn, fmha,
//      efficient_attention or cudnn_generated_fort_native_sdpa, or is FlexAttention's Triton
//      template (triton_tem_fused_flex_attention_0; not the split-KV reductions beside it,
//      triton_red_fused_flex_attention_1) (checked before GEMMs: fused attention kernels are
//      built from CUTLASS and their full names mention gemm);
//   2b. Inductor's Triton kernels (analysis/kernels/inductor_kernel.h), by what their names say
//   they
//      fuse: a matmul template (triton_tem_fused_mm_0, bmm, addmm) is "gemm"; any kernel that
//      fuses a softmax is "softmax"; another reduction (triton_red_, triton_per_) is
//      "reduction"; a pointwise kernel (triton_poi_) that only moves, views or casts data
//      (triton_poi_fused__to_copy_expand_unsqueeze_1) is "copy", any other "elementwise"; any
//      other template is "other";
//   3. "gemm": the full name has gemm, nvjet, xmma, cublas or cutlass (cuBLAS's nvjet and xmma
//      kernels, CUTLASS kernels, whose short names fold the gemm away into template arguments);
//   4. "softmax": the short name has softmax (softmax_warp_forward, cunn_SoftMaxForward, ...);
//   5. "mask": the short name has triu_tril (the causal mask being built);
//   6. "copy": the short name (the kernel and the functor it runs) has copy: direct_copy_kernel,
//      bfloat16_copy_kernel, CatArrayBatchedCopy, i.e. dtype casts and layout copies;
//   7. "reduction": the short name has reduce_kernel or reduction;
//   8. "elementwise": the short name has elementwise (elementwise_kernel, vectorized_ and
//      unrolled_elementwise_kernel: masked_fill, mul, fill, where, ...) or multi_tensor_apply;
//   9. "other".
// The short name is used from rule 4 on because a full name lists every template argument, where
// words such as "copy" may appear by accident; the short name keeps the kernel and its functor.

#include <cstdint>
#include <string_view>

#include "attnprof/analysis.h"
#include "attnprof/region_facts.h"  // KernelClass

namespace attnprof {

// For people: "fused attention", "gemm", ...
std::string_view kernel_class_label(KernelClass c);
// For metric names and JSON keys: "fused_attention", "gemm", ...
std::string_view kernel_class_id(KernelClass c);

KernelClass classify_activity(const ActivityRow& row);
// Rule 1b on a lower-case name.
bool is_communication_kernel(std::string_view lower_name);
// The rules on names alone (`short_name` as attnprof folds it, `name` as the trace gives it).
KernelClass classify_kernel(std::string_view short_name, std::string_view name);

}  // namespace attnprof
