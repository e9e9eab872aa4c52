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

sdp::sdp_params sdpa_params(const Problem& problem, const InputSet& in, const Masks& masks) {
  const SdpaArguments args = sdpa_arguments(problem, masks);
  return sdp::sdp_params{in.q,
                         in.k,
                         in.v,
                         args.attn_mask,
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
  const sdp::sdp_params params = sdpa_params(problem, in, masks);

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

std::string sdpa_choice(const Problem& problem, const InputSet& in, const Masks& masks) {
  std::optional<at::NoGradGuard> no_grad;
  if (!problem.backward) no_grad.emplace();
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
