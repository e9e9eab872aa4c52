#include "libtorch/reference.h"

#include <ATen/core/grad_mode.h>
#include <torch/csrc/autograd/autograd.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace attnprof::bench {
namespace {

// Sums of squares over the chunks of one tensor, for ||x - ref||_F / ||ref||_F.
class RelativeError {
 public:
  void add(const at::Tensor& value, const at::Tensor& reference) {
    const at::Tensor ref = reference.detach();
    diff_squared_ += (value.detach().to(at::kDouble) - ref).square().sum().item<double>();
    ref_squared_ += ref.square().sum().item<double>();
  }
  double value() const {
    if (ref_squared_ == 0.0)
      return diff_squared_ == 0.0 ? 0.0 : std::numeric_limits<double>::infinity();
    return std::sqrt(diff_squared_ / ref_squared_);  // NaN stays NaN
  }

 private:
  double diff_squared_ = 0.0;
  double ref_squared_ = 0.0;
};

// q: (n, group, q_seq, D); k, v: (n, 1, seq, D), one K/V head broadcast over its group of query
// heads, so that autograd sums the group's gradients into it as GQA does.
at::Tensor reference_attention(const at::Tensor& q, const at::Tensor& k, const at::Tensor& v,
                               const at::Tensor& masked_out, double scale) {
  at::Tensor s = at::matmul(q, k.transpose(-2, -1)) * scale;
  if (masked_out.defined()) s = s.masked_fill(masked_out, -std::numeric_limits<double>::infinity());
  return at::matmul(at::softmax(s, -1), v);
}

// K/V heads per reference chunk: the float64 (q_seq, seq) scores of their query heads and the few
// temporaries the forward (or autograd's saved tensors with the backward) keeps of the same
// size, within the budget.
int64_t kv_heads_per_chunk(const Problem& p) {
  const double budget = p.device == DeviceKind::kCuda ? 2.0 * (1LL << 30) : 0.5 * (1LL << 30);
  const double per_kv_head = static_cast<double>(gqa_group(p)) * static_cast<double>(p.q_seq) *
                             static_cast<double>(p.seq) * 8.0 * (p.backward ? 8.0 : 4.0);
  return std::max<int64_t>(1, static_cast<int64_t>(budget / per_kv_head));
}

}  // namespace

Correctness check_correctness(const AttentionCall& call, uint64_t seed) {
  const Problem& p = call.problem();
  const InputSet in = make_input_set(p, seed);
  at::Tensor out = call.forward(in);
  std::vector<at::Tensor> grads;
  if (p.backward) grads = call.backward(out, in);
  out = out.detach();

  // Chunks of whole K/V heads with their query heads: q-shaped tensors are viewed as
  // (batch·kv_heads, group, q_seq, D), k-shaped ones as (batch·kv_heads, 1, seq, D).
  const int64_t all_kv_heads = p.batch * p.kv_heads;
  const int64_t group = gqa_group(p);
  const double scale = 1.0 / std::sqrt(static_cast<double>(p.head_dim));
  RelativeError out_error, dq_error, dk_error, dv_error;
  for (int64_t first = 0, size = kv_heads_per_chunk(p); first < all_kv_heads; first += size) {
    const int64_t count = std::min(size, all_kv_heads - first);
    auto q_chunk = [&](const at::Tensor& t) {
      return t.detach().reshape({all_kv_heads, group, p.q_seq, p.head_dim}).narrow(0, first, count);
    };
    auto kv_chunk = [&](const at::Tensor& t) {
      return t.detach().reshape({all_kv_heads, 1, p.seq, p.head_dim}).narrow(0, first, count);
    };
    at::Tensor q = q_chunk(in.q).to(at::kDouble), k = kv_chunk(in.k).to(at::kDouble),
               v = kv_chunk(in.v).to(at::kDouble);
    if (p.backward) {
      q.requires_grad_(true);
      k.requires_grad_(true);
      v.requires_grad_(true);
    }
    std::optional<at::NoGradGuard> no_grad;
    if (!p.backward) no_grad.emplace();
    const at::Tensor ref = reference_attention(q, k, v, call.masks().masked_out, scale);
    out_error.add(q_chunk(out), ref);
    if (p.backward) {
      const auto ref_grads =
          torch::autograd::grad({ref}, {q, k, v}, {q_chunk(in.grad_out).to(at::kDouble)});
      dq_error.add(q_chunk(grads[0]), ref_grads[0]);
      dk_error.add(kv_chunk(grads[1]), ref_grads[1]);
      dv_error.add(kv_chunk(grads[2]), ref_grads[2]);
    }
  }

  Correctness result;
  result.threshold = error_threshold(p.dtype);
  result.output_error = out_error.value();
  // `<=` is false for NaN: a NaN error fails.
  result.passed = result.output_error <= result.threshold;
  if (p.backward) {
    double worst = 0.0;
    for (double e : {dq_error.value(), dk_error.value(), dv_error.value()}) {
      if (std::isnan(e) || e > worst) worst = e;
      if (std::isnan(worst)) break;
    }
    result.grad_error = worst;
    result.passed = result.passed && worst <= result.threshold;
  }
  return result;
}

}  // namespace attnprof::bench
