#include "libtorch/inputs.h"

namespace attnprof::bench {

at::ScalarType scalar_type(Dtype dtype) {
  switch (dtype) {
    case Dtype::kBf16:
      return at::kBFloat16;
    case Dtype::kFp16:
      return at::kHalf;
    case Dtype::kFp32:
      return at::kFloat;
  }
  return at::kFloat;
}

at::Device torch_device(DeviceKind device) {
  return device == DeviceKind::kCuda ? at::Device(at::kCUDA) : at::Device(at::kCPU);
}

Masks make_masks(const Problem& p) {
  Masks masks;
  const SdpaMaskForm form = sdpa_mask_form(p);
  // The lower-right chunk keeps a tensor too: math and cuDNN take it in that form.
  const bool keep_tensor = form == SdpaMaskForm::kTensor || form == SdpaMaskForm::kLowerRight;
  if (!masks_any_pair(p) && !keep_tensor) return masks;
  const auto options = at::TensorOptions().dtype(at::kBool).device(torch_device(p.device));
  const at::Tensor ones = at::ones({p.q_seq, p.seq}, options);
  // Query i sits at position t = i + seq - q_seq: key j is hidden when j > t (j - i > seq -
  // q_seq) and, with a window, when j <= t - window (j - i <= seq - q_seq - window).
  if (causal_pattern(p.mask)) {
    masks.masked_out = at::triu(ones, /*diagonal=*/1 + p.seq - p.q_seq);
    if (p.window > 0)
      masks.masked_out =
          at::logical_or(masks.masked_out, at::tril(ones, /*diagonal=*/p.seq - p.q_seq - p.window));
  } else {
    masks.masked_out = at::zeros({p.q_seq, p.seq}, options);
  }
  if (keep_tensor) masks.keep = at::logical_not(masks.masked_out);
  if (!masks_any_pair(p)) masks.masked_out = at::Tensor();
  return masks;
}

SdpaArguments sdpa_arguments(const Problem& p, const Masks& masks) {
  SdpaArguments args;
  const SdpaMaskForm form = sdpa_mask_form(p);
  if (form == SdpaMaskForm::kTensor || form == SdpaMaskForm::kLowerRight)
    args.attn_mask = masks.keep;
  args.is_causal = form == SdpaMaskForm::kIsCausal;
  args.lower_right = form == SdpaMaskForm::kLowerRight;
  args.enable_gqa = p.kv_heads != p.heads;
  return args;
}

InputSet make_input_set(const Problem& problem, uint64_t seed) {
  // Seeds the CPU and CUDA default generators: each set and each correctness check draws fresh
  // inputs, and --seed reproduces them all.
  at::manual_seed(seed);
  const auto options =
      at::TensorOptions().dtype(scalar_type(problem.dtype)).device(torch_device(problem.device));
  const std::vector<int64_t> q_shape{problem.batch, problem.heads, problem.q_seq, problem.head_dim};
  const std::vector<int64_t> kv_shape{problem.batch, problem.kv_heads, problem.seq,
                                      problem.head_dim};
  InputSet in{
      at::randn(q_shape, options), at::randn(kv_shape, options), at::randn(kv_shape, options), {}};
  if (problem.backward) {
    in.grad_out = at::randn(q_shape, options);
    in.q.requires_grad_(true);
    in.k.requires_grad_(true);
    in.v.requires_grad_(true);
  }
  return in;
}

}  // namespace attnprof::bench
