#pragma once
// What PyTorch says about running scaled_dot_product_attention on given inputs.

#include <cstdint>
#include <optional>
#include <string>

#include "libtorch/inputs.h"
#include "problem.h"

namespace attnprof::bench {

// Why the variant's pinned CUDA backend (flash, efficient or cuDNN) cannot run these inputs, in
// PyTorch's own words, or nullopt when it can (and for every other variant and for the CPU).
// The pinned call itself only throws "Invalid backend" and warns nothing (probed on torch 2.11),
// so this asks the backend's check, sdp::can_use_*(params, debug=true), which states each failed
// condition as a warning; they are captured and joined with "; ".
std::optional<std::string> sdpa_unsupported_reason(Variant variant, const Problem& problem,
                                                   const InputSet& in, const Masks& masks);

// Which of PyTorch's bottom-right causal kernels runs a chunk of a prefill
// (SdpaArguments::lower_right) for the variant: flash and efficient their own; sdpa-auto the one
// causal_lower_right picks (flash where it can, else efficient); kNone for every other variant and
// problem, which SDPA runs with the mask as a tensor.
enum class LowerRightKernel : uint8_t { kNone, kFlash, kEfficient };
LowerRightKernel lower_right_kernel(Variant variant, const Problem& problem, const InputSet& in,
                                    const Masks& masks);

// The backend SDPA picks by itself for these inputs under the current switches ("flash",
// "efficient", "math", "cudnn", ...), from aten::_fused_sdp_choice, the op SDPA asks; for a chunk
// of a prefill, the kernel causal_lower_right picks (lower_right_kernel) where one can.
std::string sdpa_choice(const Problem& problem, const InputSet& in, const Masks& masks);

}  // namespace attnprof::bench
