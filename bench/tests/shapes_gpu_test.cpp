// --kv-heads, --q-seq and --window on the GPU: every variant against the float64 reference on
// small shapes, the backends' refusals with their reasons, and the masks checked against what
// they mean independently of the reference (which shares them): end-aligned queries give the
// last rows of the square problem, a window as long as the sequence is plain causal attention,
// and a window of one key returns each position's own value.

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "gpu_test_support.h"
#include "libtorch/inputs.h"
#include "libtorch/variants.h"

namespace attnprof::bench {
namespace {

using testing::quick_settings;
using testing::small_problem;

Problem shaped(int64_t kv_heads, int64_t q_seq, int64_t window, bool backward = false) {
  Problem p = small_problem(Dtype::kBf16, MaskKind::kCausal, backward);
  p.kv_heads = kv_heads;
  p.q_seq = q_seq;
  p.window = window;
  return p;
}

// Flash takes no attn_mask, cuDNN and the memory-efficient kernel may refuse a mask or GQA in a
// given PyTorch; the unfused variants, math and SDPA's own choice run every shape.
bool may_refuse(Variant v) {
  return v == Variant::kSdpaFlash || v == Variant::kSdpaCudnn || v == Variant::kSdpaEfficient;
}

class ShapeAccuracy : public ::testing::TestWithParam<std::tuple<int64_t, int64_t, int64_t, bool>> {
};

TEST_P(ShapeAccuracy, EveryVariantWithinItsThresholdOrRefusingWithAReason) {
  ATTNPROF_REQUIRE_CUDA();
  const auto [kv_heads, q_seq, window, backward] = GetParam();
  const Problem problem = shaped(kv_heads, q_seq, window, backward);
  ASSERT_EQ(shape_error(problem), "");
  for (Variant variant : kAllVariants) {
    SCOPED_TRACE(std::string(name(variant)) + " on " + describe(problem));
    const VariantMeasurement m = run_variant(variant, problem, quick_settings(), {});
    if (m.status == VariantStatus::kUnsupported) {
      EXPECT_TRUE(may_refuse(variant)) << m.reason;
      EXPECT_FALSE(m.reason.empty());
      EXPECT_EQ(m.reason.find('\n'), std::string::npos) << m.reason;
      continue;
    }
    ASSERT_EQ(m.status, VariantStatus::kOk) << name(m.status) << ": " << m.reason;
    ASSERT_TRUE(m.correctness.has_value());
    EXPECT_LE(m.correctness->output_error, error_threshold(problem.dtype));
    if (backward) {
      ASSERT_TRUE(m.correctness->grad_error.has_value());
      EXPECT_LE(*m.correctness->grad_error, error_threshold(problem.dtype));
    }
    EXPECT_EQ(m.timing->input_set_bytes, input_set_bytes(problem));
  }
}

// (kv_heads, q_seq, window, backward) with 4 query heads and 256 keys.
INSTANTIATE_TEST_SUITE_P(
    GqaDecodeChunkWindow, ShapeAccuracy,
    ::testing::Values(std::make_tuple(int64_t{2}, int64_t{256}, int64_t{0}, false),   // GQA
                      std::make_tuple(int64_t{1}, int64_t{256}, int64_t{0}, false),   // MQA
                      std::make_tuple(int64_t{4}, int64_t{1}, int64_t{0}, false),     // decode
                      std::make_tuple(int64_t{2}, int64_t{1}, int64_t{0}, false),     // GQA decode
                      std::make_tuple(int64_t{4}, int64_t{64}, int64_t{0}, false),    // a chunk
                      std::make_tuple(int64_t{4}, int64_t{256}, int64_t{64}, false),  // window
                      std::make_tuple(int64_t{2}, int64_t{64}, int64_t{32}, false),   // all three
                      std::make_tuple(int64_t{2}, int64_t{64}, int64_t{32}, true)),   // backward
    [](const auto& info) {
      return "kv" + std::to_string(std::get<0>(info.param)) + "_q" +
             std::to_string(std::get<1>(info.param)) + "_w" +
             std::to_string(std::get<2>(info.param)) + (std::get<3>(info.param) ? "_bwd" : "");
    });

// The masks keep exactly the pairs the FLOP count counts.
TEST(ShapeMasks, KeepTheVisiblePairs) {
  ATTNPROF_REQUIRE_CUDA();
  for (const Problem& p : {shaped(4, 256, 0), shaped(4, 64, 0), shaped(4, 256, 64),
                           shaped(2, 64, 32), shaped(4, 1, 16)}) {
    SCOPED_TRACE(describe(p));
    const Masks masks = make_masks(p);
    ASSERT_TRUE(masks.masked_out.defined());
    EXPECT_EQ(masks.masked_out.size(0), p.q_seq);
    EXPECT_EQ(masks.masked_out.size(1), p.seq);
    const auto kept = masks.masked_out.logical_not().sum().item<int64_t>();
    EXPECT_EQ(static_cast<double>(kept), visible_pairs(p));
  }
  // One causal query without a window sees every key: no mask, and SDPA gets none either.
  const Masks decode = make_masks(shaped(4, 1, 0));
  EXPECT_FALSE(decode.masked_out.defined());
  EXPECT_FALSE(decode.keep.defined());
}

at::Tensor run_forward(Variant variant, const Problem& p, const InputSet& in) {
  const SdpaBackendPin pin(variant);
  const AttentionCall call(variant, p, make_masks(p));
  return call.forward(in).to(at::kFloat);
}

// The queries are the sequence's last: their outputs are the last rows of the square problem's,
// whose causal mask is PyTorch's own is_causal for SDPA.
TEST(ShapeMasks, EndAlignedQueriesGiveTheLastRowsOfTheSquare) {
  ATTNPROF_REQUIRE_CUDA();
  const Problem square = shaped(2, 256, 0);
  const InputSet full = make_input_set(square, 7);
  for (int64_t q_seq : {1, 64}) {
    const Problem chunk = shaped(2, q_seq, 0);
    const InputSet part{full.q.narrow(2, 256 - q_seq, q_seq).contiguous(), full.k, full.v, {}};
    for (Variant v : {Variant::kNaive, Variant::kSdpaMath}) {
      SCOPED_TRACE(std::string(name(v)) + " q_seq " + std::to_string(q_seq));
      const at::Tensor expected = run_forward(v, square, full).narrow(2, 256 - q_seq, q_seq);
      const at::Tensor got = run_forward(v, chunk, part);
      EXPECT_TRUE(at::allclose(got, expected, 1e-2, 1e-2));
    }
  }
}

TEST(ShapeMasks, AWindowAsLongAsTheSequenceIsCausalAndAWindowOfOneIsTheValue) {
  ATTNPROF_REQUIRE_CUDA();
  const Problem causal = shaped(4, 256, 0);
  const InputSet in = make_input_set(causal, 11);
  for (Variant v : {Variant::kNaive, Variant::kInplace, Variant::kSdpaMath}) {
    SCOPED_TRACE(name(v));
    const at::Tensor plain = run_forward(v, causal, in);
    EXPECT_TRUE(at::allclose(run_forward(v, shaped(4, 256, 256), in), plain, 1e-2, 1e-2));
    // Each query sees only its own key: softmax of one score is 1, the output is v itself.
    EXPECT_TRUE(
        at::allclose(run_forward(v, shaped(4, 256, 1), in), in.v.to(at::kFloat), 1e-2, 1e-2));
  }
}

TEST(ShapeRefusals, FlashTakesNoMaskAndSaysSo) {
  ATTNPROF_REQUIRE_CUDA();
  const VariantMeasurement m =
      run_variant(Variant::kSdpaFlash, shaped(4, 256, 64), quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kUnsupported);
  EXPECT_NE(m.reason.find("mask"), std::string::npos) << m.reason;
  EXPECT_FALSE(m.timing.has_value());
  // A decode step needs no mask: flash runs it, with GQA.
  const VariantMeasurement decode =
      run_variant(Variant::kSdpaFlash, shaped(2, 1, 0), quick_settings(), {});
  EXPECT_EQ(decode.status, VariantStatus::kOk) << decode.reason;
}

// A chunk of a prefill (64 queries at the end of 256 keys) runs on flash and efficient through
// PyTorch's bottom-right causal kernels, as causal_lower_right sends it: within the threshold of
// the float64 reference, and equal to the last rows of the square problem run by math.
TEST(ShapeChunks, FlashAndEfficientRunAChunkOfAPrefillThroughTheirBottomRightKernels) {
  ATTNPROF_REQUIRE_CUDA();
  for (const Problem& chunk : {shaped(4, 64, 0), shaped(4, 64, 0, /*backward=*/true)}) {
    for (Variant v : {Variant::kSdpaFlash, Variant::kSdpaEfficient}) {
      SCOPED_TRACE(std::string(name(v)) + " on " + describe(chunk));
      const VariantMeasurement m = run_variant(v, chunk, quick_settings(), {});
      ASSERT_EQ(m.status, VariantStatus::kOk) << m.reason;
      ASSERT_TRUE(m.correctness.has_value());
      EXPECT_LE(m.correctness->output_error, error_threshold(chunk.dtype));
      if (chunk.backward) {
        ASSERT_TRUE(m.correctness->grad_error.has_value());
        EXPECT_LE(*m.correctness->grad_error, error_threshold(chunk.dtype));
      }
    }
  }
  // With GQA flash runs it too (the memory-efficient kernel may refuse GQA, with a reason).
  const VariantMeasurement gqa =
      run_variant(Variant::kSdpaFlash, shaped(2, 64, 0), quick_settings(), {});
  EXPECT_EQ(gqa.status, VariantStatus::kOk) << gqa.reason;
  // sdpa-auto picks what causal_lower_right picks: flash.
  const VariantMeasurement automatic =
      run_variant(Variant::kSdpaAuto, shaped(4, 64, 0), quick_settings(), {});
  ASSERT_EQ(automatic.status, VariantStatus::kOk) << automatic.reason;
  EXPECT_EQ(automatic.chosen_backend, "flash");
  // Independently of the reference: the last rows of the square problem.
  const Problem square = shaped(4, 256, 0);
  const InputSet full = make_input_set(square, 5);
  const InputSet part{full.q.narrow(2, 256 - 64, 64).contiguous(), full.k, full.v, {}};
  const at::Tensor expected = run_forward(Variant::kSdpaMath, square, full).narrow(2, 256 - 64, 64);
  for (Variant v : {Variant::kSdpaFlash, Variant::kSdpaEfficient}) {
    SCOPED_TRACE(name(v));
    EXPECT_TRUE(at::allclose(run_forward(v, shaped(4, 64, 0), part), expected, 2e-2, 2e-2));
  }
}

TEST(ShapeRefusals, ABadShapeIsAnErrorNotACrash) {
  Problem p = shaped(3, 256, 0);  // 4 heads over 3 KV heads
  const VariantMeasurement m = run_variant(Variant::kNaive, p, quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kError);
  EXPECT_NE(m.reason.find("--kv-heads 3 does not divide --heads 4"), std::string::npos) << m.reason;
}

}  // namespace
}  // namespace attnprof::bench
