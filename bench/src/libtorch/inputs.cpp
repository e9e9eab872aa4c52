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

Masks make_masks(const Problem& problem) {
  Masks masks;
  if (problem.mask == MaskKind::kNone) return masks;
  const auto options = at::TensorOptions().dtype(at::kBool).device(torch_device(problem.device));
  const at::Tensor ones = at::ones({problem.seq, problem.seq}, options);
  masks.masked_out = at::triu(ones, /*diagonal=*/1);
  if (problem.mask == MaskKind::kExplicit) masks.keep = at::tril(ones);
  return masks;
}

InputSet make_input_set(const Problem& problem, uint64_t seed) {
  // Seeds the CPU and CUDA default generators: each set and each correctness check draws fresh
  // inputs, and --seed reproduces them all.
  at::manual_seed(seed);
  const auto options =
      at::TensorOptions().dtype(scalar_type(problem.dtype)).device(torch_device(problem.device));
  const std::vector<int64_t> shape{problem.batch, problem.heads, problem.seq, problem.head_dim};
  InputSet in{at::randn(shape, options), at::randn(shape, options), at::randn(shape, options), {}};
  if (problem.backward) {
    in.grad_out = at::randn(shape, options);
    in.q.requires_grad_(true);
    in.k.requires_grad_(true);
    in.v.requires_grad_(true);
  }
  return in;
}

}  // namespace attnprof::bench
