#pragma once
// What an op costs, from the shapes and types the trace recorded for it (record_shapes=True:
// "Input Dims", "Input type", "Concrete Inputs"): floating-point operations and the fewest bytes
// it must move, and what was assumed to count them (docs/OP_COSTS.md).
//
// Families: the GEMMs (mm, addmm, bmm, baddbmm, matmul, linear, _scaled_mm), convolution, the
// attention ops (scaled_dot_product_attention and each backend's op, their backward at 2.5x the
// forward, flash_attn's ops), and the memory-bound ops (elementwise, reductions, softmax, copies)
// by their bytes. Attention counts only the query-key pairs its mask lets through: causal with
// the alignment of the op that ran (PyTorch's SDPA aligns to the top left, flash_attn to the
// bottom right), grouped-query heads, a decode step's one query against many keys, and windows
// where the op records them. PyTorch's own flop counter counts every pair.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// One argument of an op as the trace records it.
struct OpArgument {
  std::vector<int64_t> dims;  // empty for a scalar, a list or None
  std::string type;           // "c10::BFloat16", "float", "Scalar", "" (None), ...
  std::string concrete;       // the value of a scalar argument ("True", "0.125"), else ""
};

// What kind of work the cost describes.
enum class OpFamily : uint8_t { kGemm, kConvolution, kAttention, kMemory };

struct OpCost {
  OpFamily family = OpFamily::kMemory;
  double flops = 0;   // 0 for memory-bound ops, which are judged by their bytes
  double bytes = 0;   // each input read once, each output written once
  std::string dtype;  // the operands' type, as the trace spells it ("c10::BFloat16")
  // What the count assumed, for people: "causal, top-left aligned (PyTorch's is_causal): 52.0 %
  // of the 512 x 512 pairs", "backward: 2.5 x the forward".
  std::string assumed;
};

// The attention problem an op ran, when `op` is an attention op whose shapes were recorded.
struct AttentionShape {
  int64_t batch = 0, heads = 0, kv_heads = 0;
  int64_t q_len = 0, kv_len = 0, head_dim = 0, value_dim = 0;
  bool causal = false;
  // Where the causal diagonal sits when q_len != kv_len: the top left (query i sees keys 0..i,
  // PyTorch's is_causal) or the bottom right (query i sees keys 0..i + kv_len - q_len, flash_attn
  // and a decode step's cache).
  bool bottom_right = false;
  // Keys each query sees to its left and right of its own position (flash_attn's window_size);
  // -1 for no limit.
  int64_t window_left = -1, window_right = -1;
  bool explicit_mask = false;  // an attn_mask or bias tensor: its pairs are not known
  bool backward = false;
  std::string dtype;
};

// "[2, 4, 4, 512, 64]", an int list as Kineto writes a concrete input, as its numbers; none for
// anything else.
std::optional<std::vector<int64_t>> concrete_int_list(const OpArgument& a);

// The query-key pairs an attention shape computes (per batch and head).
double visible_pairs(const AttentionShape& s);

std::optional<AttentionShape> attention_shape(std::string_view op,
                                              const std::vector<OpArgument>& args);

// The cost of `op` with `args`; none for an op outside the families above or whose shapes the
// trace did not record (a trace without record_shapes).
std::optional<OpCost> op_cost(std::string_view op, const std::vector<OpArgument>& args);

// The cost of a forward attention's backward: 2.5 x its FLOPs and 2 x its bytes, as the backward
// ops of the table above are counted, for a backward that runs as separate ops (the math
// backend's, an unfused chain's: autograd's products, linked to their forward by the trace).
OpCost backward_cost(const OpCost& forward);

// Bytes per element of a type as Kineto spells it; 0 for what is no tensor element type.
int element_bytes(std::string_view type);

}  // namespace attnprof
