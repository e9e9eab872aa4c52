#include "analysis/op_cost.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iterator>
#include <numeric>

#include <fmt/format.h>

namespace attnprof {

namespace {

// The product of dims[from], dims[from + 1], ... up to (not including) the last `drop_last`.
double product(const std::vector<int64_t>& dims, size_t from = 0, size_t drop_last = 0) {
  double p = 1;
  const size_t end = dims.size() > drop_last ? dims.size() - drop_last : 0;
  for (auto it = dims.begin() + static_cast<std::ptrdiff_t>(std::min(from, end));
       it != dims.begin() + static_cast<std::ptrdiff_t>(end); ++it)
    p *= static_cast<double>(*it);
  return p;
}

bool is_tensor(const OpArgument& a) {
  return !a.dims.empty() && element_bytes(a.type) > 0;
}

double tensor_bytes(const OpArgument& a) {
  return is_tensor(a) ? product(a.dims) * element_bytes(a.type) : 0;
}

const OpArgument* arg(const std::vector<OpArgument>& args, size_t i) {
  return i < args.size() ? &args[i] : nullptr;
}

bool tensor_at(const std::vector<OpArgument>& args, size_t i, size_t rank) {
  const OpArgument* a = arg(args, i);
  return a && is_tensor(*a) && (rank == 0 || a->dims.size() == rank);
}

std::optional<bool> flag_at(const std::vector<OpArgument>& args, size_t i) {
  const OpArgument* a = arg(args, i);
  if (!a) return std::nullopt;
  if (a->concrete == "True" || a->concrete == "1") return true;
  if (a->concrete == "False" || a->concrete == "0") return false;
  return std::nullopt;
}

std::optional<int64_t> integer_at(const std::vector<OpArgument>& args, size_t i) {
  const OpArgument* a = arg(args, i);
  if (!a || a->concrete.empty()) return std::nullopt;
  int64_t v = 0;
  const char* end = a->concrete.data() + a->concrete.size();
  auto [p, ec] = std::from_chars(a->concrete.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

std::optional<std::vector<int64_t>> list_at(const std::vector<OpArgument>& args, size_t i) {
  const OpArgument* a = arg(args, i);
  return a ? concrete_int_list(*a) : std::nullopt;
}

std::string percent_text(double share) {
  return fmt::format("{:.1f} %", 100 * share);
}

// --- GEMMs ---------------------------------------------------------------------------------

OpCost gemm(double batch, double m, double k, double n, const OpArgument& a, const OpArgument& b,
            std::string assumed) {
  OpCost c;
  c.family = OpFamily::kGemm;
  c.flops = 2 * batch * m * k * n;
  const int e = element_bytes(a.type);
  c.bytes = batch * (m * k + n * m) * e + tensor_bytes(b);
  c.dtype = a.type;
  c.assumed = std::move(assumed);
  return c;
}

std::optional<OpCost> matmul_cost(const OpArgument& a, const OpArgument& b) {
  if (!is_tensor(a) || !is_tensor(b)) return std::nullopt;
  const auto& x = a.dims;
  const auto& y = b.dims;
  const double m = x.size() >= 2 ? static_cast<double>(x[x.size() - 2]) : 1;
  const double k = static_cast<double>(x.back());
  const double n = y.size() >= 2 ? static_cast<double>(y.back()) : 1;
  if (y.size() >= 2 ? y[y.size() - 2] != x.back() : y.back() != x.back()) return std::nullopt;
  // Batch dimensions broadcast against each other.
  const size_t xb = x.size() > 2 ? x.size() - 2 : 0, yb = y.size() > 2 ? y.size() - 2 : 0;
  double batch = 1;
  for (size_t i = 0; i < std::max(xb, yb); ++i) {
    const int64_t dx = i < xb ? x[xb - 1 - i] : 1, dy = i < yb ? y[yb - 1 - i] : 1;
    batch *= static_cast<double>(std::max(dx, dy));
  }
  OpCost c;
  c.family = OpFamily::kGemm;
  c.flops = 2 * batch * m * k * n;
  c.bytes = tensor_bytes(a) + tensor_bytes(b) + batch * m * n * element_bytes(a.type);
  c.dtype = a.type;
  c.assumed =
      fmt::format("{:.0f} product(s) of {:.0f} x {:.0f} by {:.0f} x {:.0f}", batch, m, k, k, n);
  return c;
}

std::optional<OpCost> gemm_cost(std::string_view op, const std::vector<OpArgument>& args) {
  if (op == "aten::mm" || op == "aten::_scaled_mm") {
    if (!tensor_at(args, 0, 2) || !tensor_at(args, 1, 2)) return std::nullopt;
    return matmul_cost(args[0], args[1]);
  }
  if (op == "aten::addmm") {  // (bias, mat1, mat2)
    if (!tensor_at(args, 1, 2) || !tensor_at(args, 2, 2)) return std::nullopt;
    auto c = matmul_cost(args[1], args[2]);
    if (c) c->bytes += tensor_bytes(args[0]);
    return c;
  }
  if (op == "aten::addmv" || op == "aten::addmv_") {  // (self, mat, vec): what aten::mv runs
    if (!tensor_at(args, 1, 2) || !tensor_at(args, 2, 1)) return std::nullopt;
    auto c = matmul_cost(args[1], args[2]);
    if (c) c->bytes += tensor_bytes(args[0]);
    return c;
  }
  if (op == "aten::bmm") {
    if (!tensor_at(args, 0, 3) || !tensor_at(args, 1, 3)) return std::nullopt;
    return matmul_cost(args[0], args[1]);
  }
  if (op == "aten::baddbmm") {  // (input, batch1, batch2)
    if (!tensor_at(args, 1, 3) || !tensor_at(args, 2, 3)) return std::nullopt;
    auto c = matmul_cost(args[1], args[2]);
    if (c) c->bytes += tensor_bytes(args[0]);
    return c;
  }
  if (op == "aten::matmul" || op == "aten::mv" || op == "aten::dot") {
    if (!tensor_at(args, 0, 0) || !tensor_at(args, 1, 0)) return std::nullopt;
    return matmul_cost(args[0], args[1]);
  }
  if (op == "aten::linear") {  // (input [..., in], weight [out, in], bias)
    if (!tensor_at(args, 0, 0) || !tensor_at(args, 1, 2)) return std::nullopt;
    const auto& in = args[0].dims;
    const auto& w = args[1].dims;
    if (in.back() != w[1]) return std::nullopt;
    const double rows = product(in, 0, 1);
    OpCost c =
        gemm(1, rows, static_cast<double>(w[1]), static_cast<double>(w[0]), args[0], args[1], "");
    if (const OpArgument* bias = arg(args, 2)) c.bytes += tensor_bytes(*bias);
    c.assumed = fmt::format("{:.0f} rows of {} by a {} x {} weight", rows, w[1], w[1], w[0]);
    return c;
  }
  return std::nullopt;
}

// --- convolution ---------------------------------------------------------------------------

std::optional<OpCost> convolution_cost(std::string_view op, const std::vector<OpArgument>& args) {
  // Where each op keeps stride, padding, dilation, transposed and groups.
  struct Layout {
    std::string_view op;
    size_t stride, padding, dilation, transposed, groups;
    bool always_transposed = false;  // the op is a transposed convolution by its name
  };
  static constexpr std::array<Layout, 10> kLayouts = {{
      {"aten::convolution", 3, 4, 5, 6, 8},
      {"aten::_convolution", 3, 4, 5, 6, 8},
      {"aten::conv1d", 3, 4, 5, SIZE_MAX, 6},
      {"aten::conv2d", 3, 4, 5, SIZE_MAX, 6},
      {"aten::conv3d", 3, 4, 5, SIZE_MAX, 6},
      {"aten::cudnn_convolution", 3, 2, 4, SIZE_MAX, 5},
      // (input, weight, bias, stride, padding, output_padding, groups, dilation)
      {"aten::conv_transpose1d", 3, 4, 7, SIZE_MAX, 6, true},
      {"aten::conv_transpose2d", 3, 4, 7, SIZE_MAX, 6, true},
      {"aten::conv_transpose3d", 3, 4, 7, SIZE_MAX, 6, true},
      // (input, weight, padding, output_padding, stride, dilation, groups, ...): what cuDNN runs
      {"aten::cudnn_convolution_transpose", 4, 2, 5, SIZE_MAX, 6, true},
  }};
  const auto layout =
      std::find_if(kLayouts.begin(), kLayouts.end(), [&](const Layout& l) { return l.op == op; });
  if (layout == kLayouts.end()) return std::nullopt;
  if (!tensor_at(args, 0, 0) || !tensor_at(args, 1, 0)) return std::nullopt;
  const auto& in = args[0].dims;
  const auto& w = args[1].dims;
  if (in.size() < 3 || w.size() != in.size()) return std::nullopt;
  const size_t spatial = in.size() - 2;
  const int64_t groups = integer_at(args, layout->groups).value_or(1);
  const bool transposed =
      layout->always_transposed || flag_at(args, layout->transposed).value_or(false);
  auto per_dim = [&](size_t index, int64_t fallback) {
    std::vector<int64_t> v = list_at(args, index).value_or(std::vector<int64_t>{});
    if (v.size() == 1) v.assign(spatial, v[0]);
    bool known = v.size() == spatial;
    if (!known) v.assign(spatial, fallback);
    return std::pair{v, known};
  };
  auto [stride, stride_known] = per_dim(layout->stride, 1);
  auto [padding, padding_known] = per_dim(layout->padding, 0);
  auto [dilation, dilation_known] = per_dim(layout->dilation, 1);
  if (groups <= 0) return std::nullopt;
  double out_elements = static_cast<double>(in[0]);
  double per_output;  // multiply-adds per output element
  if (!transposed) {
    out_elements *= static_cast<double>(w[0]);
    for (size_t d = 0; d < spatial; ++d) {
      const int64_t size = (in[d + 2] + 2 * padding[d] - dilation[d] * (w[d + 2] - 1) - 1) /
                               std::max<int64_t>(stride[d], 1) +
                           1;
      if (size <= 0) return std::nullopt;
      out_elements *= static_cast<double>(size);
    }
    per_output = product(w, 1);  // (Cin / groups) x kernel
  } else {
    // Each input element scatters into (Cout / groups) x kernel outputs.
    out_elements = product(in);
    per_output = static_cast<double>(w[1]) * product(w, 2);
  }
  OpCost c;
  c.family = OpFamily::kConvolution;
  c.flops = 2 * out_elements * per_output;
  c.bytes = tensor_bytes(args[0]) + tensor_bytes(args[1]) +
            (transposed ? product(in) : out_elements) * element_bytes(args[0].type);
  c.dtype = args[0].type;
  // Appended to one string: GCC 12 warns (-Wstringop-overflow, falsely) on a vector of strings
  // pushed three times here.
  std::string assumed;
  auto assume = [&](std::string_view what) {
    if (!assumed.empty()) assumed += ", ";
    assumed += what;
  };
  if (!stride_known) assume("stride 1");
  if (!padding_known) assume("no padding");
  if (!dilation_known) assume("no dilation");
  c.assumed =
      fmt::format("{}{}d convolution, {} group(s){}", transposed ? "transposed " : "", spatial,
                  groups, assumed.empty() ? "" : "; not recorded, assumed: " + assumed);
  return c;
}

// --- attention -----------------------------------------------------------------------------

// Where an attention op keeps what its cost needs. Indices into its arguments; SIZE_MAX for none.
struct AttentionLayout {
  std::string_view op;
  bool backward;
  size_t query;       // q, k, v at query, query + 1, query + 2
  bool heads_second;  // [B, H, L, E] (PyTorch's SDPA ops) or [B, L, H, E] (flash and xformers)
  size_t mask;        // an attn_mask or bias tensor
  size_t causal;      // a bool is_causal
  size_t mask_type;   // xformers' custom_mask_type: 0 none, 1 top left, 2 bottom right
  size_t window_left, window_right, window;  // flash's two sides, or xformers' one size
  // The causal alignment of the op's own kernels. PyTorch's flash ops align to the bottom right:
  // SDPA hands them is_causal only when the query and key lengths are equal (where the two
  // alignments agree) or for a lower-right CausalBias (tests/data/op_families/sdpa-flash.json.gz,
  // case lower_right_q256_k1024).
  bool bottom_right;
};

constexpr size_t kNone = SIZE_MAX;

constexpr std::array<AttentionLayout, 17> kAttentionOps = {{
    {"aten::scaled_dot_product_attention", false, 0, true, 3, 5, kNone, kNone, kNone, kNone, false},
    {"aten::_scaled_dot_product_attention_math", false, 0, true, 3, 5, kNone, kNone, kNone, kNone,
     false},
    {"aten::_scaled_dot_product_flash_attention", false, 0, true, kNone, 4, kNone, kNone, kNone,
     kNone, true},
    {"aten::_scaled_dot_product_flash_attention_for_cpu", false, 0, true, 5, 4, kNone, kNone, kNone,
     kNone, false},
    {"aten::_scaled_dot_product_efficient_attention", false, 0, true, 3, 6, kNone, kNone, kNone,
     kNone, false},
    {"aten::_scaled_dot_product_cudnn_attention", false, 0, true, 3, 6, kNone, kNone, kNone, kNone,
     false},
    {"aten::_cudnn_attention_forward", false, 0, true, 3, 10, kNone, kNone, kNone, kNone, false},
    {"aten::_flash_attention_forward", false, 0, false, kNone, 8, kNone, 11, 12, kNone, true},
    {"aten::_efficient_attention_forward", false, 0, false, 3, kNone, 9, kNone, kNone, 13, false},
    {"flash_attn::_flash_attn_forward", false, 0, false, kNone, 5, kNone, 6, 7, kNone, true},
    {"aten::_scaled_dot_product_flash_attention_backward", true, 1, true, kNone, 11, kNone, kNone,
     kNone, kNone, true},
    {"aten::_scaled_dot_product_efficient_attention_backward", true, 1, true, 4, 11, kNone, kNone,
     kNone, kNone, false},
    {"aten::_scaled_dot_product_cudnn_attention_backward", true, 1, true, 8, 14, kNone, kNone,
     kNone, kNone, false},
    {"aten::_cudnn_attention_backward", true, 1, true, 8, 14, kNone, kNone, kNone, kNone, false},
    {"aten::_flash_attention_backward", true, 1, false, kNone, 11, kNone, 15, 16, kNone, true},
    {"aten::_efficient_attention_backward", true, 1, false, 4, kNone, 14, kNone, kNone, 18, false},
    {"flash_attn::_flash_attn_backward", true, 1, false, kNone, 11, kNone, 12, 13, kNone, true},
}};

// The backward pass recomputes the scores and makes three products where the forward makes
// two: 2.5 x the forward, as FlashAttention's own benchmarks count it.
constexpr double kBackwardFactor = 2.5;

}  // namespace

namespace {

// Positions as wide integers: a recorded length may be any int64, and a window's edge past it
// must not wrap.
using Wide = __int128;

// The sum over the integers x in [from, to] of max(0, c + k x), with k in {-1, 0, 1}: an
// arithmetic series over the part where the term is positive.
double clamped_series(Wide from, Wide to, Wide c, int k) {
  if (k > 0) from = std::max(from, 1 - c);
  if (k < 0) to = std::min(to, c - 1);
  if (from > to || (k == 0 && c <= 0)) return 0;
  const double first = static_cast<double>(c + k * from), last = static_cast<double>(c + k * to);
  return (first + last) * static_cast<double>(to - from + 1) / 2;
}

}  // namespace

double visible_pairs(const AttentionShape& s) {
  const int64_t L = s.q_len, S = s.kv_len;
  if (L <= 0 || S <= 0) return 0;
  const bool windowed = s.window_left >= 0 || s.window_right >= 0;
  if (!s.causal && !windowed) return static_cast<double>(L) * static_cast<double>(S);
  // Query i sits at position at = i + offset among the keys and sees keys [lo, hi] with
  // hi = min(S - 1, at + right) and lo = max(0, at - left). The count hi - lo + 1 is linear in
  // `at` between the two places where a clamp starts to bite, so the sum is a closed form over
  // at most three pieces: a recorded length sets no number of steps.
  constexpr Wide kUnbounded = Wide{1} << 100;
  Wide right = kUnbounded;
  if (s.causal) right = 0;
  if (s.window_right >= 0) right = std::min(right, Wide{s.window_right});
  const Wide left = s.window_left >= 0 ? Wide{s.window_left} : kUnbounded;
  const Wide first = s.bottom_right ? Wide{S} - L : 0;
  const Wide last = first + L - 1;
  // The first position where hi is S - 1, and the first where lo is at - left.
  Wide bounds[] = {first, last + 1, Wide{S} - right, left + 1};
  std::sort(std::begin(bounds), std::end(bounds));
  double pairs = 0;
  for (size_t b = 0; b + 1 < std::size(bounds); ++b) {
    const Wide from = std::max(bounds[b], first), to = std::min(bounds[b + 1], last + 1) - 1;
    if (from > to) continue;
    const bool hi_moves = from < Wide{S} - right;  // hi = at + right here, else S - 1
    const bool lo_moves = from > left;             // lo = at - left here, else 0
    const Wide c = (hi_moves ? right : Wide{S} - 1) - (lo_moves ? -left : 0) + 1;
    pairs += clamped_series(from, to, c, int{hi_moves} - int{lo_moves});
  }
  return pairs;
}

std::optional<AttentionShape> attention_shape(std::string_view op,
                                              const std::vector<OpArgument>& args) {
  const auto layout = std::find_if(kAttentionOps.begin(), kAttentionOps.end(),
                                   [&](const AttentionLayout& l) { return l.op == op; });
  if (layout == kAttentionOps.end()) return std::nullopt;
  const size_t q = layout->query;
  if (!tensor_at(args, q, 4) || !tensor_at(args, q + 1, 4) || !tensor_at(args, q + 2, 4))
    return std::nullopt;
  const auto &qd = args[q].dims, &kd = args[q + 1].dims, &vd = args[q + 2].dims;
  const size_t h = layout->heads_second ? 1 : 2, l = layout->heads_second ? 2 : 1;
  AttentionShape s;
  s.batch = qd[0];
  s.heads = qd[h];
  s.kv_heads = kd[h];
  s.q_len = qd[l];
  s.kv_len = kd[l];
  s.head_dim = qd[3];
  s.value_dim = vd[3];
  s.dtype = args[q].type;
  s.backward = layout->backward;
  if (s.batch <= 0 || s.heads <= 0 || s.kv_heads <= 0 || kd[3] != s.head_dim || vd[l] != s.kv_len)
    return std::nullopt;
  if (layout->mask != kNone && tensor_at(args, layout->mask, 0)) s.explicit_mask = true;
  s.causal = layout->causal != kNone && flag_at(args, layout->causal).value_or(false);
  s.bottom_right = layout->bottom_right;
  if (layout->mask_type != kNone) {
    const int64_t type = integer_at(args, layout->mask_type).value_or(0);
    s.causal = type == 1 || type == 2;
    s.bottom_right = type == 2;
  }
  auto window = [&](size_t index) {
    const int64_t w = index == kNone ? -1 : integer_at(args, index).value_or(-1);
    return w < 0 ? int64_t{-1} : w;
  };
  s.window_left = window(layout->window_left);
  s.window_right = window(layout->window_right);
  if (layout->window != kNone && window(layout->window) > 0) {
    // xformers' window_size: the keys a query sees, itself included, to its left.
    s.window_left = window(layout->window) - 1;
    s.window_right = 0;
  }
  return s;
}

namespace {}  // namespace

std::optional<std::vector<int64_t>> concrete_int_list(const OpArgument& a) {
  if (a.concrete.size() < 2 || a.concrete.front() != '[' || a.concrete.back() != ']')
    return std::nullopt;
  std::vector<int64_t> out;
  std::string_view rest(a.concrete.data() + 1, a.concrete.size() - 2);
  while (!rest.empty()) {
    while (!rest.empty() && (rest.front() == ' ' || rest.front() == ',')) rest.remove_prefix(1);
    if (rest.empty()) break;
    int64_t v = 0;
    auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), v);
    if (ec != std::errc()) return std::nullopt;
    out.push_back(v);
    rest.remove_prefix(static_cast<size_t>(p - rest.data()));
  }
  return out;
}

OpCost backward_cost(const OpCost& forward) {
  OpCost c = forward;
  c.flops *= kBackwardFactor;
  c.bytes *= 2;  // the gradients of Q, K, V and the output's gradient
  c.assumed += std::string(c.assumed.empty() ? "" : "; ") + "backward: 2.5 x the forward";
  return c;
}

namespace {

std::optional<OpCost> attention_cost(std::string_view op, const std::vector<OpArgument>& args) {
  const std::optional<AttentionShape> s = attention_shape(op, args);
  if (!s) return std::nullopt;
  const double pairs = visible_pairs(*s);
  const double all = static_cast<double>(s->q_len) * static_cast<double>(s->kv_len);
  OpCost c;
  c.family = OpFamily::kAttention;
  c.dtype = s->dtype;
  // Q K^T and P V: 2 x head_dim and 2 x value_dim multiply-adds per visible pair and head.
  c.flops = static_cast<double>(s->batch * s->heads) * pairs * 2.0 *
            static_cast<double>(s->head_dim + s->value_dim);
  const int e = element_bytes(s->dtype);
  const double q_bytes = static_cast<double>(s->batch * s->heads * s->q_len) *
                         static_cast<double>(s->head_dim + s->value_dim) * e;  // Q in, O out
  const double kv_bytes = static_cast<double>(s->batch * s->kv_heads * s->kv_len) *
                          static_cast<double>(s->head_dim + s->value_dim) * e;
  c.bytes = q_bytes + kv_bytes;
  std::vector<std::string> words;
  if (s->causal)
    words.push_back(fmt::format("causal, {} aligned{}: {} of the {} x {} pairs",
                                s->bottom_right ? "bottom-right" : "top-left",
                                s->bottom_right ? "" : " (PyTorch's is_causal)",
                                percent_text(pairs / all), s->q_len, s->kv_len));
  if (s->window_left >= 0 || s->window_right >= 0)
    words.push_back(
        fmt::format("window {} left, {} right: {} of the pairs",
                    s->window_left < 0 ? std::string("all") : fmt::format("{}", s->window_left),
                    s->window_right < 0 ? std::string("all") : fmt::format("{}", s->window_right),
                    percent_text(pairs / all)));
  if (!s->causal && s->window_left < 0 && s->window_right < 0)
    words.push_back(s->explicit_mask ? "an explicit mask: every pair counted (what it hides is "
                                       "not recorded)"
                                     : "no mask: every pair");
  if (s->kv_heads != s->heads)
    words.push_back(fmt::format("{} query heads over {} KV heads", s->heads, s->kv_heads));
  for (const auto& w : words) c.assumed += (c.assumed.empty() ? "" : "; ") + w;
  return s->backward ? backward_cost(c) : c;
}

// Ops that move memory and do little arithmetic: judged by their bytes.
bool is_memory_op(std::string_view op) {
  static constexpr std::array<std::string_view, 44> kOps = {"aten::add",
                                                            "aten::add_",
                                                            "aten::sub",
                                                            "aten::sub_",
                                                            "aten::mul",
                                                            "aten::mul_",
                                                            "aten::div",
                                                            "aten::div_",
                                                            "aten::neg",
                                                            "aten::exp",
                                                            "aten::silu",
                                                            "aten::gelu",
                                                            "aten::relu",
                                                            "aten::relu_",
                                                            "aten::sigmoid",
                                                            "aten::tanh",
                                                            "aten::pow",
                                                            "aten::rsqrt",
                                                            "aten::sqrt",
                                                            "aten::where",
                                                            "aten::masked_fill",
                                                            "aten::masked_fill_",
                                                            "aten::fill_",
                                                            "aten::zero_",
                                                            "aten::clamp",
                                                            "aten::copy_",
                                                            "aten::clone",
                                                            "aten::_to_copy",
                                                            "aten::cat",
                                                            "aten::_softmax",
                                                            "aten::_log_softmax",
                                                            "aten::sum",
                                                            "aten::mean",
                                                            "aten::native_layer_norm",
                                                            "aten::_softmax_backward_data",
                                                            "aten::_log_softmax_backward_data",
                                                            "aten::silu_backward",
                                                            "aten::gelu_backward",
                                                            "aten::native_layer_norm_backward",
                                                            "aten::embedding_dense_backward",
                                                            "aten::index_select",
                                                            "aten::repeat_interleave",
                                                            "aten::_fused_rms_norm",
                                                            "aten::addcmul_"};
  return std::find(kOps.begin(), kOps.end(), op) != kOps.end();
}

// index_select(self, dim, index) reads only the rows it selects, its output's size: the table
// it selects from (an embedding's, a rotary cache's) can be thousands of times larger.
std::optional<OpCost> index_select_cost(const std::vector<OpArgument>& args) {
  if (args.size() < 3 || !is_tensor(args[0]) || !is_tensor(args[2])) return std::nullopt;
  const auto& self = args[0].dims;
  int64_t d = 0;
  const std::string& text = args[1].concrete;
  if (text.empty() || std::from_chars(text.data(), text.data() + text.size(), d).ec != std::errc())
    return std::nullopt;
  if (d < 0) d += static_cast<int64_t>(self.size());
  if (d < 0 || static_cast<size_t>(d) >= self.size() || self[static_cast<size_t>(d)] <= 0)
    return std::nullopt;
  const double out = tensor_bytes(args[0]) / static_cast<double>(self[static_cast<size_t>(d)]) *
                     product(args[2].dims);
  OpCost c;
  c.dtype = args[0].type;
  c.bytes = 2 * out + tensor_bytes(args[2]);
  c.assumed = "the selected rows read once and written once, the index read once";
  return c;
}

std::optional<OpCost> memory_cost(std::string_view op, const std::vector<OpArgument>& args) {
  if (!is_memory_op(op)) return std::nullopt;
  if (op == "aten::index_select") return index_select_cost(args);
  // copy_, fill_ and zero_ overwrite their first argument without reading it: a copy moves the
  // source once and the destination once, a fill only writes (a DtoD copy_ of 512 MiB counted
  // three times its bytes showed 133 % of the H200's bandwidth in tests/data/study_naive).
  const bool overwrites_first = op == "aten::copy_" || op == "aten::fill_" || op == "aten::zero_";
  OpCost c;
  double largest = 0, read = 0;
  bool first_tensor = true;
  for (const OpArgument& a : args) {
    if (!is_tensor(a)) continue;
    if (!(overwrites_first && first_tensor)) read += tensor_bytes(a);
    first_tensor = false;
    if (tensor_bytes(a) > largest) {
      largest = tensor_bytes(a);
      c.dtype = a.type;
    }
  }
  if (largest == 0) return std::nullopt;
  const bool reduces = op == "aten::sum" || op == "aten::mean";
  c.bytes = read + (reduces ? 0 : largest);  // an output the size of the largest input
  c.assumed = reduces            ? "the inputs read once (the reduced output not counted)"
              : overwrites_first ? "the destination written once, the other inputs read once"
                                 : "the inputs read once, an output the size of the largest "
                                   "written once";
  return c;
}

}  // namespace

int element_bytes(std::string_view type) {
  if (type == "float" || type == "int" || type == "unsigned int") return 4;
  if (type == "double" || type == "long int" || type == "long" || type == "c10::complex<float>")
    return 8;
  if (type == "c10::BFloat16" || type == "c10::Half" || type == "short int") return 2;
  if (type == "bool" || type == "signed char" || type == "unsigned char" ||
      type.starts_with("c10::Float8"))
    return 1;
  if (type == "c10::complex<double>") return 16;
  return 0;
}

std::optional<OpCost> op_cost(std::string_view op, const std::vector<OpArgument>& args) {
  if (auto c = attention_cost(op, args)) return c;
  if (auto c = gemm_cost(op, args)) return c;
  if (auto c = convolution_cost(op, args)) return c;
  return memory_cost(op, args);
}

}  // namespace attnprof
