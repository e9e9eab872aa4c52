#include "libtorch/sdpa_support.h"

#include <ATen/core/grad_mode.h>
#include <ATen/native/transformers/sdp_utils_cpp.h>
#include <c10/util/Exception.h>

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <ATen/native/transformers/cuda/sdp_utils.h>
#endif

#include <vector>

namespace attnprof::bench {
namespace {

// Keeps the warnings raised on this thread while it is installed (the handler is thread-local).
class WarningCollector : public c10::WarningHandler {
 public:
  void process(const c10::Warning& warning) override { messages.push_back(warning.msg()); }
  std::vector<std::string> messages;
};

std::string trim(std::string text) {
  const char* space = " \t\r\n";
  const auto first = text.find_first_not_of(space);
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(space);
  return text.substr(first, last - first + 1);
}

// With `native_lower_right`, the parameters causal_lower_right asks flash and efficient about: no
// mask and is_causal off, the bottom-right form being their own.
sdp::sdp_params sdpa_params(const Problem& problem, const InputSet& in, const Masks& masks,
                            bool native_lower_right) {
  const SdpaArguments args = sdpa_arguments(problem, masks);
  const bool without_mask = native_lower_right && args.lower_right;
  return sdp::sdp_params{in.q,
                         in.k,
                         in.v,
                         without_mask ? std::optional<at::Tensor>() : args.attn_mask,
                         /*dropout=*/0.0,
                         args.is_causal,
                         args.enable_gqa};
}

}  // namespace

std::optional<std::string> sdpa_unsupported_reason(Variant variant, const Problem& problem,
                                                   const InputSet& in, const Masks& masks) {
  if (problem.device != DeviceKind::kCuda) return std::nullopt;
  if (variant != Variant::kSdpaFlash && variant != Variant::kSdpaEfficient &&
      variant != Variant::kSdpaCudnn) {
    return std::nullopt;
  }
  // The checks depend on grad mode (the backward has its own constraints): ask in the mode the
  // call runs in.
  std::optional<at::NoGradGuard> no_grad;
  if (!problem.backward) no_grad.emplace();
  const sdp::sdp_params params =
      sdpa_params(problem, in, masks, /*native_lower_right=*/variant != Variant::kSdpaCudnn);

  WarningCollector collector;
  bool usable = false;
#if ATTNPROF_BENCH_CUDA
  {
    c10::WarningUtils::WarningHandlerGuard guard(&collector);
    // Some reasons are TORCH_WARN_ONCE: make them speak every time.
    c10::WarningUtils::WarnAlways always(true);
    switch (variant) {
      case Variant::kSdpaFlash:
        usable = sdp::can_use_flash_attention(params, true);
        break;
      case Variant::kSdpaEfficient:
        usable = sdp::can_use_mem_efficient_attention(params, true);
        break;
      case Variant::kSdpaCudnn:
        usable = sdp::can_use_cudnn_attention(params, true);
        break;
      default:
        break;
    }
  }
#else
  collector.messages.push_back("this LibTorch was built without CUDA");
#endif
  if (usable) return std::nullopt;
  std::string reason;
  for (const std::string& message : collector.messages) {
    const std::string line = trim(message);
    if (line.empty()) continue;
    if (!reason.empty()) reason += "; ";
    reason += line;
  }
  if (reason.empty()) reason = "PyTorch's check for this backend failed without saying why";
  return reason;
}

LowerRightKernel lower_right_kernel(Variant variant, const Problem& problem, const InputSet& in,
                                    const Masks& masks) {
  if (!sdpa_arguments(problem, masks).lower_right) return LowerRightKernel::kNone;
  switch (variant) {
    case Variant::kSdpaFlash:
      return LowerRightKernel::kFlash;
    case Variant::kSdpaEfficient:
      return LowerRightKernel::kEfficient;
    case Variant::kSdpaAuto:
      break;
    default:
      return LowerRightKernel::kNone;
  }
#if ATTNPROF_BENCH_CUDA
  // causal_lower_right's own order: flash where it can, else efficient, else the tensor.
  std::optional<at::NoGradGuard> no_grad;
  if (!problem.backward) no_grad.emplace();
  const sdp::sdp_params params = sdpa_params(problem, in, masks, /*native_lower_right=*/true);
  if (sdp::can_use_flash_attention(params, false)) return LowerRightKernel::kFlash;
  if (sdp::can_use_mem_efficient_attention(params, false)) return LowerRightKernel::kEfficient;
#endif
  return LowerRightKernel::kNone;
}

std::string sdpa_choice(const Problem& problem, const InputSet& in, const Masks& masks) {
  std::optional<at::NoGradGuard> no_grad;
  if (!problem.backward) no_grad.emplace();
  switch (lower_right_kernel(Variant::kSdpaAuto, problem, in, masks)) {
    case LowerRightKernel::kFlash:
      return "flash";
    case LowerRightKernel::kEfficient:
      return "efficient";
    case LowerRightKernel::kNone:
      break;
  }
  const SdpaArguments args = sdpa_arguments(problem, masks);
  const int64_t choice =
      at::_fused_sdp_choice(in.q, in.k, in.v, args.attn_mask, 0.0, args.is_causal,
                            /*scale=*/std::nullopt, args.enable_gqa);
  switch (static_cast<at::SDPBackend>(choice)) {
    case at::SDPBackend::math:
      return "math";
    case at::SDPBackend::flash_attention:
      return "flash";
    case at::SDPBackend::efficient_attention:
      return "efficient";
    case at::SDPBackend::cudnn_attention:
      return "cudnn";
    case at::SDPBackend::overrideable:
      return "overrideable";
    case at::SDPBackend::error:
      return "none";
  }
  return "backend " + std::to_string(choice);
}

}  // namespace attnprof::bench
