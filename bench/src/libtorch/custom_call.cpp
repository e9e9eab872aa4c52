#include "libtorch/custom_call.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include <torch/csrc/inductor/aoti_package/model_package_loader.h>

#include "libtorch/cuda_build.h"

#if ATTNPROF_BENCH_CUDA
#include <c10/cuda/CUDAStream.h>
#endif

namespace attnprof::bench {
namespace {

// The reason buffer handed to the library; a longer reason is cut, as the ABI says.
constexpr size_t kReasonBytes = 512;

int32_t abi_dtype(Dtype dtype) {
  switch (dtype) {
    case Dtype::kBf16:
      return ATTNPROF_DTYPE_BF16;
    case Dtype::kFp16:
      return ATTNPROF_DTYPE_FP16;
    case Dtype::kFp32:
      return ATTNPROF_DTYPE_FP32;
  }
  return -1;
}

// --mask explicit is the causal pattern handed to SDPA as a tensor: the kernel gets CAUSAL.
int32_t abi_mask(const Problem& problem) {
  if (problem.mask == MaskKind::kNone) return ATTNPROF_MASK_NONE;
  return problem.window > 0 ? ATTNPROF_MASK_SLIDING_WINDOW : ATTNPROF_MASK_CAUSAL;
}

void copy_strides(const at::Tensor& t, int64_t (&strides)[4]) {
  for (int i = 0; i < 4; ++i) strides[i] = t.stride(i);
}

// The library's words, one line; something to show when it wrote none.
std::string reason_line(std::array<char, kReasonBytes>& buffer, int32_t status) {
  buffer.back() = '\0';
  std::string text(buffer.data());
  std::replace(text.begin(), text.end(), '\n', ' ');
  if (text.empty())
    text = "the kernel returned status " + std::to_string(status) + " and no reason";
  return text;
}

}  // namespace

std::optional<std::string> custom_unsupported_reason(const Problem& problem) {
  if (problem.device != DeviceKind::kCuda)
    return "a --custom kernel runs on CUDA only (its ABI passes device pointers and a stream)";
  if (!ATTNPROF_BENCH_CUDA) return "this bench was built with a LibTorch that has no CUDA";
  if (problem.backward)
    return "the custom-kernel ABI (version " +
           std::to_string(ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION) + ") has a forward only";
  return std::nullopt;
}

CustomKernelCall::CustomKernelCall(const CustomKernel& kernel, const Problem& problem,
                                   const Masks& masks)
    : AttentionCall(Variant::kCustom, problem, masks),
      kernel_(kernel),
      softmax_scale_(1.0 / std::sqrt(static_cast<double>(problem.head_dim))) {
  if (kernel_.aoti_package) {
    // A package made with AOTI_RUNTIME_CHECK_INPUTS=1 carries checks of its inputs' shapes,
    // dtypes and strides, which it runs only while this is set: then a problem it was not
    // exported for is refused on the first call rather than read out of bounds. The user's own
    // setting stands.
    ::setenv("AOTI_RUNTIME_CHECK_INPUTS", "1", /*overwrite=*/0);
    package_ = std::make_unique<torch::inductor::AOTIModelPackageLoader>(kernel_.path);
  }
}

CustomKernelCall::~CustomKernelCall() = default;

at::Tensor CustomKernelCall::forward(const InputSet& in) const {
  return package_ ? run_package(in) : run_library(in);
}

// The package runs on the current CUDA stream (no stream given). Its model was exported with its
// own shapes, dtype and mask; where it carries input checks, it refuses others in torch's words.
at::Tensor CustomKernelCall::run_package(const InputSet& in) const {
  const std::vector<at::Tensor> outputs = package_->run({in.q, in.k, in.v});
  if (outputs.empty()) throw std::runtime_error("the AOTInductor package returned no output");
  return outputs.front();
}

at::Tensor CustomKernelCall::run_library(const InputSet& in) const {
  const Problem& p = problem();
  at::Tensor out = at::empty_like(in.q);
  attnprof_attention_args args{};
  args.q = in.q.const_data_ptr();
  args.k = in.k.const_data_ptr();
  args.v = in.v.const_data_ptr();
  args.out = out.data_ptr();
  copy_strides(in.q, args.q_strides);
  copy_strides(in.k, args.k_strides);
  copy_strides(in.v, args.v_strides);
  copy_strides(out, args.out_strides);
  // From the tensors themselves: (batch, heads, seq, head_dim) for q, (batch, kv heads, kv seq,
  // head_dim) for k and v.
  args.batch = in.q.size(0);
  args.heads = in.q.size(1);
  args.kv_heads = in.k.size(1);
  args.q_seq = in.q.size(2);
  args.kv_seq = in.k.size(2);
  args.head_dim = in.q.size(3);
  args.dtype = abi_dtype(p.dtype);
  args.mask = abi_mask(p);
  args.window = args.mask == ATTNPROF_MASK_SLIDING_WINDOW ? p.window : 0;
  args.scale = softmax_scale_;
  args.device = in.q.device().index();
#if ATTNPROF_BENCH_CUDA
  args.stream = c10::cuda::getCurrentCUDAStream(in.q.device().index()).stream();
#endif
  std::array<char, kReasonBytes> reason{};
  const int32_t status = kernel_.function(&args, reason.data(), reason.size());
  if (status != ATTNPROF_CUSTOM_OK) throw CustomKernelRefusal(status, reason_line(reason, status));
  return out;
}

}  // namespace attnprof::bench
