// Every variant within its error threshold against float64 on random inputs; the unsupported and
// out-of-memory paths; backend switches restored after a pinned variant.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <tuple>

#include "gpu_test_support.h"

namespace attnprof::bench {
namespace {

using testing::quick_settings;
using testing::small_problem;

// Fused backends may refuse a case (flash and cuDNN have no fp32 kernels, flash takes no
// explicit mask); the unfused variants, math, efficient and SDPA's own choice run everything here.
bool may_be_unsupported(Variant v) {
  return v == Variant::kSdpaFlash || v == Variant::kSdpaCudnn;
}

void expect_within_threshold(const Problem& problem) {
  for (Variant variant : kAllVariants) {
    SCOPED_TRACE(std::string(name(variant)) + " on " + describe(problem));
    const VariantMeasurement m = run_variant(variant, problem, quick_settings(), {});
    if (m.status == VariantStatus::kUnsupported) {
      EXPECT_TRUE(may_be_unsupported(variant)) << m.reason;
      EXPECT_FALSE(m.reason.empty());
      continue;
    }
    ASSERT_EQ(m.status, VariantStatus::kOk) << name(m.status) << ": " << m.reason;
    ASSERT_TRUE(m.correctness.has_value());
    EXPECT_TRUE(m.correctness->passed);
    EXPECT_LE(m.correctness->output_error, error_threshold(problem.dtype));
    if (problem.backward) {
      ASSERT_TRUE(m.correctness->grad_error.has_value());
      EXPECT_LE(*m.correctness->grad_error, error_threshold(problem.dtype));
    }
    ASSERT_TRUE(m.timing.has_value());
    EXPECT_GE(m.timing->reps, 3);
    EXPECT_GE(m.timing->input_sets, 3);
    EXPECT_GT(m.timing->median_ms, 0.0);
    EXPECT_LE(m.timing->min_ms, m.timing->median_ms);
    EXPECT_LE(m.timing->median_ms, m.timing->max_ms);
    ASSERT_TRUE(m.peak_allocated_bytes.has_value());
    EXPECT_GT(*m.peak_allocated_bytes, 0);
    if (variant == Variant::kSdpaAuto) {
      EXPECT_FALSE(m.chosen_backend.empty());
    }
  }
}

class ForwardAccuracy : public ::testing::TestWithParam<std::tuple<Dtype, MaskKind>> {};

TEST_P(ForwardAccuracy, EveryVariantWithinItsThreshold) {
  ATTNPROF_REQUIRE_CUDA();
  expect_within_threshold(small_problem(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(
    AllDtypesAndMasks, ForwardAccuracy,
    ::testing::Combine(::testing::Values(Dtype::kBf16, Dtype::kFp16, Dtype::kFp32),
                       ::testing::Values(MaskKind::kCausal, MaskKind::kNone, MaskKind::kExplicit)),
    [](const auto& info) {
      return std::string(name(std::get<0>(info.param))) + "_" +
             std::string(name(std::get<1>(info.param)));
    });

class BackwardAccuracy : public ::testing::TestWithParam<Dtype> {};

TEST_P(BackwardAccuracy, EveryVariantsGradientsWithinItsThreshold) {
  ATTNPROF_REQUIRE_CUDA();
  expect_within_threshold(small_problem(GetParam(), MaskKind::kCausal, /*backward=*/true));
}

INSTANTIATE_TEST_SUITE_P(HalfPrecisions, BackwardAccuracy,
                         ::testing::Values(Dtype::kBf16, Dtype::kFp16),
                         [](const auto& info) { return std::string(name(info.param)); });

TEST(Unsupported, FlashWithFp32GivesPyTorchsReason) {
  ATTNPROF_REQUIRE_CUDA();
  const VariantMeasurement m = run_variant(
      Variant::kSdpaFlash, small_problem(Dtype::kFp32, MaskKind::kCausal), quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kUnsupported);
  // PyTorch's own check: "Expected query, key and value to all be of dtype: {Half, BFloat16}..."
  EXPECT_NE(m.reason.find("dtype"), std::string::npos) << m.reason;
  EXPECT_FALSE(m.timing.has_value());
}

TEST(Unsupported, CudnnWithFp32GivesAReason) {
  ATTNPROF_REQUIRE_CUDA();
  const VariantMeasurement m = run_variant(
      Variant::kSdpaCudnn, small_problem(Dtype::kFp32, MaskKind::kCausal), quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kUnsupported);
  EXPECT_FALSE(m.reason.empty());
}

TEST(OutOfMemory, IsReportedAndTheNextVariantRuns) {
  ATTNPROF_REQUIRE_CUDA();
  // naive materializes the (seq, seq) scores of every head: 8·32·65536² bf16 values are 2 TiB.
  Problem huge = small_problem(Dtype::kBf16, MaskKind::kCausal);
  huge.batch = 8;
  huge.heads = 32;
  huge.kv_heads = 32;
  huge.seq = 65536;
  huge.q_seq = 65536;
  const VariantMeasurement oom = run_variant(Variant::kNaive, huge, quick_settings(), {});
  EXPECT_EQ(oom.status, VariantStatus::kOutOfMemory) << name(oom.status) << ": " << oom.reason;

  const VariantMeasurement next = run_variant(
      Variant::kNaive, small_problem(Dtype::kBf16, MaskKind::kCausal), quick_settings(), {});
  EXPECT_EQ(next.status, VariantStatus::kOk) << next.reason;
}

TEST(BackendPins, AreRestoredAfterEachVariant) {
  ATTNPROF_REQUIRE_CUDA();
  const Problem problem = small_problem(Dtype::kBf16, MaskKind::kCausal);
  const std::string before =
      run_variant(Variant::kSdpaAuto, problem, quick_settings(), {}).chosen_backend;
  ASSERT_FALSE(before.empty());
  for (Variant v :
       {Variant::kSdpaMath, Variant::kSdpaCudnn, Variant::kSdpaEfficient, Variant::kSdpaFlash}) {
    (void)run_variant(v, problem, quick_settings(), {});
  }
  // Also after a pinned variant that fails: flash refuses fp32.
  (void)run_variant(Variant::kSdpaFlash, small_problem(Dtype::kFp32, MaskKind::kCausal),
                    quick_settings(), {});
  EXPECT_EQ(run_variant(Variant::kSdpaAuto, problem, quick_settings(), {}).chosen_backend, before);
}

}  // namespace
}  // namespace attnprof::bench
