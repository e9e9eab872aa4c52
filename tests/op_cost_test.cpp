// The op cost model (src/analysis/op_cost.h) against brute-force counts: every multiply-add of a
// GEMM, a convolution and an attention, counted by loops that know nothing of the formulas, for
// each family and mask. The arguments are spelled as the H200 traces recorded them
// (tests/data/models: "Input Dims", "Input type", "Concrete Inputs").

#include "analysis/op_cost.h"

#include <gtest/gtest.h>

namespace attnprof {
namespace {

OpArgument tensor(std::vector<int64_t> dims, std::string type = "c10::BFloat16") {
  return {std::move(dims), std::move(type), ""};
}
OpArgument scalar(std::string value) {
  return {{}, "Scalar", std::move(value)};
}
OpArgument none() {
  return {{}, "", ""};
}

// Multiply-adds of C[M,N] = A[M,K] B[K,N], one loop iteration each, times two.
double brute_gemm(int64_t batch, int64_t m, int64_t k, int64_t n) {
  double count = 0;
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j)
        for (int64_t p = 0; p < k; ++p) count += 2;
  return count;
}

// Query-key pairs, one test per pair: query i is at position i + offset among the keys.
double brute_pairs(int64_t L, int64_t S, bool causal, bool bottom_right, int64_t left = -1,
                   int64_t right = -1) {
  double count = 0;
  const int64_t offset = bottom_right ? S - L : 0;
  for (int64_t i = 0; i < L; ++i)
    for (int64_t j = 0; j < S; ++j) {
      const int64_t at = i + offset;
      bool seen = true;
      if (causal && j > at) seen = false;
      if (left >= 0 && j < at - left) seen = false;
      if (right >= 0 && j > at + right) seen = false;
      count += seen ? 1 : 0;
    }
  return count;
}

TEST(OpCost, GemmFamilyCountsEveryMultiplyAdd) {
  auto mm = op_cost("aten::mm", {tensor({6, 5}), tensor({5, 7})});
  ASSERT_TRUE(mm);
  EXPECT_EQ(mm->family, OpFamily::kGemm);
  EXPECT_EQ(mm->flops, brute_gemm(1, 6, 5, 7));
  EXPECT_EQ(mm->bytes, (6 * 5 + 5 * 7 + 6 * 7) * 2);
  EXPECT_EQ(op_cost("aten::addmm", {tensor({7}), tensor({6, 5}), tensor({5, 7})})->flops,
            brute_gemm(1, 6, 5, 7));
  EXPECT_EQ(op_cost("aten::bmm", {tensor({3, 6, 5}), tensor({3, 5, 7})})->flops,
            brute_gemm(3, 6, 5, 7));
  EXPECT_EQ(
      op_cost("aten::baddbmm", {tensor({3, 6, 7}), tensor({3, 6, 5}), tensor({3, 5, 7})})->flops,
      brute_gemm(3, 6, 5, 7));
  // matmul broadcasts its batch dimensions: [2, 1, 6, 5] x [3, 5, 7] is 6 products.
  EXPECT_EQ(op_cost("aten::matmul", {tensor({2, 1, 6, 5}), tensor({3, 5, 7})})->flops,
            brute_gemm(6, 6, 5, 7));
  EXPECT_EQ(op_cost("aten::matmul", {tensor({6, 5}), tensor({5})})->flops, brute_gemm(1, 6, 5, 1));
  // linear: every row of the input by the weight; as recorded in llama-train-sdpa.
  auto linear = op_cost("aten::linear", {tensor({2, 512, 1024}), tensor({1024, 1024}), none()});
  ASSERT_TRUE(linear);
  EXPECT_EQ(linear->flops, 2.0 * 2 * 512 * 1024 * 1024);
  EXPECT_EQ(op_cost("aten::linear", {tensor({2, 3, 5}), tensor({7, 5}), tensor({7})})->flops,
            brute_gemm(1, 6, 5, 7));
  EXPECT_EQ(op_cost("aten::_scaled_mm",
                    {tensor({6, 5}, "c10::Float8_e4m3fn"), tensor({5, 7}, "c10::Float8_e4m3fn")})
                ->bytes,
            6 * 5 + 5 * 7 + 6 * 7);
  // Shapes that do not multiply are no GEMM cost, not a guess.
  EXPECT_FALSE(op_cost("aten::mm", {tensor({6, 5}), tensor({4, 7})}));
  EXPECT_FALSE(op_cost("aten::mm", {tensor({}), tensor({})}));  // recorded without shapes
}

// Every output element of a convolution, every weight it reads, counted.
double brute_conv2d(int64_t n, int64_t cin, int64_t h, int64_t w, int64_t cout, int64_t r,
                    int64_t s, int64_t stride, int64_t pad, int64_t groups) {
  double count = 0;
  const int64_t ho = (h + 2 * pad - r) / stride + 1, wo = (w + 2 * pad - s) / stride + 1;
  for (int64_t b = 0; b < n; ++b)
    for (int64_t k = 0; k < cout; ++k)
      for (int64_t y = 0; y < ho; ++y)
        for (int64_t x = 0; x < wo; ++x)
          for (int64_t c = 0; c < cin / groups; ++c)
            for (int64_t i = 0; i < r; ++i)
              for (int64_t j = 0; j < s; ++j) count += 2;
  return count;
}

TEST(OpCost, ConvolutionFromItsRecordedStridesAndPadding) {
  const std::vector<OpArgument> args = {tensor({2, 4, 9, 8}),
                                        tensor({6, 2, 3, 3}),
                                        none(),
                                        {{}, "ScalarList", "[2, 2]"},
                                        {{}, "ScalarList", "[1, 1]"},
                                        {{}, "ScalarList", "[1, 1]"},
                                        scalar("False"),
                                        {{}, "ScalarList", "[0, 0]"},
                                        scalar("2")};
  auto c = op_cost("aten::convolution", args);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->family, OpFamily::kConvolution);
  EXPECT_EQ(c->flops, brute_conv2d(2, 4, 9, 8, 6, 3, 3, 2, 1, 2));
  EXPECT_EQ(c->assumed.find("assumed"), std::string::npos) << c->assumed;
  // Without the concrete values the count says what it assumed.
  auto bare = op_cost("aten::conv2d", {tensor({2, 4, 9, 8}), tensor({6, 4, 3, 3})});
  ASSERT_TRUE(bare);
  EXPECT_EQ(bare->flops, brute_conv2d(2, 4, 9, 8, 6, 3, 3, 1, 0, 1));
  EXPECT_NE(bare->assumed.find("assumed: stride 1, no padding, no dilation"), std::string::npos);
}

TEST(OpCost, AttentionPairsMatchABruteForceCountForEveryMask) {
  for (int64_t L : {1, 7, 64})
    for (int64_t S : {7, 64, 100}) {
      if (L > S) continue;
      for (bool causal : {false, true})
        for (bool bottom_right : {false, true})
          for (int64_t left : {-1, 0, 5})
            for (int64_t right : {-1, 0, 3}) {
              AttentionShape s;
              s.q_len = L;
              s.kv_len = S;
              s.causal = causal;
              s.bottom_right = bottom_right;
              s.window_left = left;
              s.window_right = right;
              EXPECT_EQ(visible_pairs(s), brute_pairs(L, S, causal, bottom_right, left, right))
                  << L << " " << S << " " << causal << bottom_right << " " << left << " " << right;
            }
    }
}

// The op as llama-train-sdpa recorded it: GQA (16 query heads over 4 KV heads), causal, square.
std::vector<OpArgument> sdpa_args(int64_t q_len, int64_t kv_len, const char* causal) {
  return {tensor({2, 16, q_len, 64}),
          tensor({2, 4, kv_len, 64}),
          tensor({2, 4, kv_len, 64}),
          none(),
          scalar("0."),
          scalar(causal),
          scalar("0.125"),
          scalar("True")};
}

TEST(OpCost, SdpaCountsCausalGqaAndDecodeAsPyTorchAlignsThem) {
  auto causal = op_cost("aten::scaled_dot_product_attention", sdpa_args(512, 512, "True"));
  ASSERT_TRUE(causal);
  EXPECT_EQ(causal->family, OpFamily::kAttention);
  const double pairs = brute_pairs(512, 512, true, false);
  EXPECT_EQ(causal->flops, 2 * 16 * pairs * 2 * (64 + 64));
  EXPECT_NE(causal->assumed.find("causal, top-left aligned (PyTorch's is_causal): 50.1 % of "
                                 "the 512 x 512 pairs"),
            std::string::npos)
      << causal->assumed;
  EXPECT_NE(causal->assumed.find("16 query heads over 4 KV heads"), std::string::npos);
  // K and V are read once per KV head: GQA moves a quarter of MHA's K and V bytes.
  EXPECT_EQ(causal->bytes, (2.0 * 16 * 512 * 128 + 2.0 * 4 * 512 * 128) * 2);
  // A decode step: one query against 4096 cached keys, not causal (Hugging Face's).
  auto decode = op_cost("aten::scaled_dot_product_attention", sdpa_args(1, 4096, "False"));
  EXPECT_EQ(decode->flops, 2 * 16 * 4096.0 * 2 * 128);
  EXPECT_NE(decode->assumed.find("no mask: every pair"), std::string::npos);
  // is_causal with fewer queries than keys: PyTorch's top-left diagonal.
  auto chunk = op_cost("aten::scaled_dot_product_attention", sdpa_args(64, 512, "True"));
  EXPECT_EQ(chunk->flops, 2 * 16 * brute_pairs(64, 512, true, false) * 2 * 128);
}

TEST(OpCost, BackendOpsReadTheirOwnLayouts) {
  // cuDNN's forward, as recorded (is_causal is its 11th argument).
  const std::vector<OpArgument> cudnn = {tensor({2, 16, 512, 64}),
                                         tensor({2, 4, 512, 64}),
                                         tensor({2, 4, 512, 64}),
                                         none(),
                                         none(),
                                         none(),
                                         scalar("512"),
                                         scalar("512"),
                                         scalar("True"),
                                         scalar("0."),
                                         scalar("True"),
                                         scalar("False"),
                                         scalar("0.125")};
  auto forward = op_cost("aten::_cudnn_attention_forward", cudnn);
  ASSERT_TRUE(forward);
  EXPECT_EQ(forward->flops, 2 * 16 * brute_pairs(512, 512, true, false) * 2 * 128);
  // Its backward, as recorded: 2.5 x.
  std::vector<OpArgument> backward = {tensor({2, 16, 512, 64}), tensor({2, 16, 512, 64}),
                                      tensor({2, 4, 512, 64}),  tensor({2, 4, 512, 64}),
                                      tensor({2, 16, 512, 64}), tensor({2, 16, 512, 1}, "float")};
  for (int i = 0; i < 5; ++i) backward.push_back(none());
  for (const char* v : {"512", "512", "0.", "True", "0.125"}) backward.push_back(scalar(v));
  auto back = op_cost("aten::_scaled_dot_product_cudnn_attention_backward", backward);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->flops, 2.5 * forward->flops);
  EXPECT_NE(back->assumed.find("backward: 2.5 x the forward"), std::string::npos);
  // flash_attn's own op: [B, L, H, E], causal aligned to the bottom right, a window of 128.
  std::vector<OpArgument> fa = {
      tensor({1, 64, 8, 64}), tensor({1, 256, 2, 64}), tensor({1, 256, 2, 64}), scalar("0."),
      scalar("0.125"),        scalar("True"),          scalar("128"),           scalar("0")};
  auto flash = op_cost("flash_attn::_flash_attn_forward", fa);
  ASSERT_TRUE(flash);
  EXPECT_EQ(flash->flops, 8 * brute_pairs(64, 256, true, true, 128, 0) * 2 * 128);
  EXPECT_NE(flash->assumed.find("bottom-right"), std::string::npos);
  // xformers' op: custom_mask_type 2 is causal from the bottom right.
  std::vector<OpArgument> xf = {tensor({1, 64, 8, 64}),
                                tensor({1, 256, 8, 64}),
                                tensor({1, 256, 8, 64}),
                                none(),
                                none(),
                                none(),
                                none(),
                                none(),
                                scalar("0."),
                                scalar("2")};
  EXPECT_EQ(op_cost("aten::_efficient_attention_forward", xf)->flops,
            8 * brute_pairs(64, 256, true, true) * 2 * 128);
  // An explicit mask: every pair counted, and said.
  auto masked = sdpa_args(64, 64, "False");
  masked[3] = tensor({64, 64}, "bool");
  EXPECT_NE(op_cost("aten::scaled_dot_product_attention", masked)->assumed.find("explicit mask"),
            std::string::npos);
}

TEST(OpCost, MemoryBoundOpsByTheirBytes) {
  auto add = op_cost("aten::add", {tensor({4, 8}), tensor({4, 8}), scalar("1")});
  ASSERT_TRUE(add);
  EXPECT_EQ(add->family, OpFamily::kMemory);
  EXPECT_EQ(add->flops, 0);
  EXPECT_EQ(add->bytes, 3 * 4 * 8 * 2);
  // As recorded: _log_softmax of fp32 logits.
  EXPECT_EQ(
      op_cost("aten::_log_softmax", {tensor({1024, 4096}, "float"), scalar("1"), scalar("False")})
          ->bytes,
      2.0 * 1024 * 4096 * 4);
  EXPECT_FALSE(op_cost("aten::some_custom_op", {tensor({4, 8})}));
  EXPECT_EQ(element_bytes("c10::BFloat16"), 2);
  EXPECT_EQ(element_bytes("long int"), 8);
  EXPECT_EQ(element_bytes("Scalar"), 0);
}

}  // namespace
}  // namespace attnprof
