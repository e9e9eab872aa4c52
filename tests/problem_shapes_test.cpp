// The bench's problem arithmetic (bench/src/problem.cpp, plain C++ without LibTorch): the pairs
// each mask keeps, the FLOPs and bytes that follow from them, the options' checks and names. It
// runs in CI, where the bench itself is not built.

#include <gtest/gtest.h>

#include <algorithm>

#include "problem.h"

namespace attnprof::bench {
namespace {

// The visible pairs counted one by one: query i at absolute position t = i + seq - q_seq sees
// key j when the mask keeps it (j <= t causal, and t - j < window with a window).
double counted_pairs(const Problem& p) {
  double pairs = 0;
  for (int64_t i = 0; i < p.q_seq; ++i) {
    const int64_t t = i + p.seq - p.q_seq;
    for (int64_t j = 0; j < p.seq; ++j) {
      const bool causal_ok = !causal_pattern(p.mask) || j <= t;
      const bool window_ok = p.window == 0 || t - j < p.window;
      if (causal_ok && window_ok) pairs += 1;
    }
  }
  return pairs;
}

Problem shape(int64_t q_seq, int64_t seq, int64_t window, MaskKind mask = MaskKind::kCausal) {
  Problem p;
  p.batch = 2;
  p.heads = 8;
  p.kv_heads = 2;
  p.head_dim = 16;
  p.q_seq = q_seq;
  p.seq = seq;
  p.window = window;
  p.mask = mask;
  return p;
}

TEST(ProblemShapes, VisiblePairsMatchACountOfTheMask) {
  for (int64_t seq : {1, 2, 7, 64, 65}) {
    for (int64_t q_seq : {int64_t{1}, int64_t{3}, seq}) {
      if (q_seq > seq) continue;
      for (int64_t window : {0, 1, 5, 64, 200}) {
        for (MaskKind mask : {MaskKind::kCausal, MaskKind::kExplicit, MaskKind::kNone}) {
          if (mask == MaskKind::kNone && window > 0) continue;  // refused by shape_error
          const Problem p = shape(q_seq, seq, window, mask);
          EXPECT_DOUBLE_EQ(visible_pairs(p), counted_pairs(p))
              << "q_seq " << q_seq << " seq " << seq << " window " << window << " mask "
              << name(mask);
        }
      }
    }
  }
}

TEST(ProblemShapes, TheCasesByHand) {
  EXPECT_DOUBLE_EQ(visible_pairs(shape(4, 4, 0)), 10);  // 1 + 2 + 3 + 4
  EXPECT_DOUBLE_EQ(visible_pairs(shape(4, 4, 0, MaskKind::kNone)), 16);
  // One query at the end sees every key: causal changes nothing for a decode step.
  EXPECT_DOUBLE_EQ(visible_pairs(shape(1, 4096, 0)), 4096);
  EXPECT_DOUBLE_EQ(visible_pairs(shape(1, 4096, 0, MaskKind::kNone)), 4096);
  // ... and sees the window's keys with one.
  EXPECT_DOUBLE_EQ(visible_pairs(shape(1, 4096, 1024)), 1024);
  // A chunk of 2 at the end of 5 keys: positions 3 and 4 see 4 and 5 keys.
  EXPECT_DOUBLE_EQ(visible_pairs(shape(2, 5, 0)), 9);
  // seq 4096, window 1024: the first 1023 positions ramp 1..1023, the other 3073 see 1024 each.
  EXPECT_DOUBLE_EQ(visible_pairs(shape(4096, 4096, 1024)), 1023.0 * 1024 / 2 + 3073.0 * 1024);
}

TEST(ProblemShapes, FlopsCountFourTimesHeadDimPerPairPerQueryHead) {
  Problem p;  // bf16, 4 x 16 heads, seq 2048, head dim 64, causal
  const double causal_pairs = 2048.0 * 2049.0 / 2;
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * causal_pairs * 64);
  p.mask = MaskKind::kNone;
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * 2048.0 * 2048.0 * 64);
  p.mask = MaskKind::kCausal;
  p.kv_heads = 4;  // GQA: the same products per query head
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * causal_pairs * 64);
  p.backward = true;
  EXPECT_DOUBLE_EQ(attention_flops(p), 3.5 * 4.0 * 4 * 16 * causal_pairs * 64);
}

TEST(ProblemShapes, BytesCountQAndOutPerQueryHeadKAndVPerKvHead) {
  Problem p;
  p.batch = 8;
  p.heads = 32;
  p.kv_heads = 8;
  p.head_dim = 128;
  p.seq = 16384;
  p.q_seq = 1;
  const double q = 8.0 * 32 * 1 * 128 * 2;
  const double kv = 2.0 * 8 * 8 * 16384 * 128 * 2;
  EXPECT_DOUBLE_EQ(kv_bytes(p), kv);
  EXPECT_DOUBLE_EQ(minimal_bytes(p), 2 * q + kv);
  EXPECT_EQ(input_set_bytes(p), static_cast<int64_t>(q + kv));
  // A decode step does about one FLOP per byte: far below any GPU's ridge point.
  EXPECT_NEAR(attention_flops(p) / minimal_bytes(p), 4.0 * 32 / 8 * 128 / (2.0 * 128 * 2), 0.01);
  p.backward = true;
  EXPECT_DOUBLE_EQ(minimal_bytes(p), 2 * q + kv + 4 * q + 2 * kv);
  EXPECT_EQ(input_set_bytes(p), static_cast<int64_t>(2 * q + kv));
  // The study's default problem: q, k, v of 4 x 16 x 2048 x 64 bf16 each.
  EXPECT_EQ(input_set_bytes(Problem{}), 3 * 4 * 16 * 2048 * 64 * 2);
}

TEST(ProblemShapes, OptionsDefaultToPlainAttentionAndAreChecked) {
  Problem p;
  p.heads = 32;
  p.seq = 8192;
  fill_defaults(p, 0, 0);
  EXPECT_EQ(p.kv_heads, 32);
  EXPECT_EQ(p.q_seq, 8192);
  fill_defaults(p, 8, 1);
  EXPECT_EQ(p.kv_heads, 8);
  EXPECT_EQ(p.q_seq, 1);
  EXPECT_EQ(shape_error(p), "");
  p.kv_heads = 5;
  EXPECT_NE(shape_error(p).find("--kv-heads 5 does not divide --heads 32"), std::string::npos);
  p.kv_heads = 8;
  p.q_seq = 8193;
  EXPECT_NE(shape_error(p).find("--q-seq 8193 is longer than --seq 8192"), std::string::npos);
  p.q_seq = 1;
  p.window = 1024;
  p.mask = MaskKind::kNone;
  EXPECT_NE(shape_error(p).find("--window needs the causal pattern"), std::string::npos);
  p.mask = MaskKind::kExplicit;
  EXPECT_EQ(shape_error(p), "");
}

TEST(ProblemShapes, SdpaGetsIsCausalOnlyForTheSquare) {
  EXPECT_EQ(sdpa_mask_form(shape(64, 64, 0)), SdpaMaskForm::kIsCausal);
  EXPECT_EQ(sdpa_mask_form(shape(64, 64, 0, MaskKind::kNone)), SdpaMaskForm::kNone);
  EXPECT_EQ(sdpa_mask_form(shape(64, 64, 0, MaskKind::kExplicit)), SdpaMaskForm::kTensor);
  // is_causal would align the diagonal to the top left: the end-aligned chunk goes as
  // causal_lower_right sends it on CUDA (flash and efficient natively, the others a tensor), and
  // as a tensor on the CPU.
  EXPECT_EQ(sdpa_mask_form(shape(16, 64, 0)), SdpaMaskForm::kLowerRight);
  Problem on_cpu = shape(16, 64, 0);
  on_cpu.device = DeviceKind::kCpu;
  EXPECT_EQ(sdpa_mask_form(on_cpu), SdpaMaskForm::kTensor);
  EXPECT_EQ(sdpa_mask_form(shape(1, 64, 0)), SdpaMaskForm::kNone);  // sees every key
  EXPECT_EQ(sdpa_mask_form(shape(1, 64, 8)), SdpaMaskForm::kTensor);
  EXPECT_EQ(sdpa_mask_form(shape(64, 64, 8)), SdpaMaskForm::kTensor);
  EXPECT_TRUE(masks_any_pair(shape(64, 64, 0)));
  EXPECT_FALSE(masks_any_pair(shape(1, 64, 0)));
  EXPECT_FALSE(masks_any_pair(shape(64, 64, 0, MaskKind::kNone)));
  EXPECT_TRUE(masks_any_pair(shape(1, 64, 8)));
  EXPECT_EQ(gqa_group(shape(1, 64, 0)), 4);  // 8 heads over 2 KV heads
}

TEST(ProblemShapes, NamesMentionTheOptionsOnlyWhereTheyDiffer) {
  Problem p;
  EXPECT_EQ(point_label(p), "b4_h16_s2048_d64");
  EXPECT_EQ(describe(p), "bf16, batch 4, 16 heads, seq 2048, head dim 64, causal, forward on cuda");
  p.kv_heads = 4;
  p.q_seq = 1;
  p.window = 1024;
  EXPECT_EQ(point_label(p), "b4_h16_s2048_d64_kv4_q1_w1024");
  EXPECT_EQ(describe(p),
            "bf16, batch 4, 16 heads (4 KV), 1 query against 2048 keys, head dim 64, causal, "
            "window 1024, forward on cuda");
}

}  // namespace
}  // namespace attnprof::bench
