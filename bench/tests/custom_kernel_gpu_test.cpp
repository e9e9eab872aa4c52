// `attnprof bench --custom` with the example kernel (examples/custom-attention) on the GPU: it
// passes the same correctness check as the built-in variants, says why it cannot run fp32, and
// its row, trace and main kernel reach summary.json like any variant's.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <tuple>

#include "cli_run.h"
#include "custom_kernel_loader.h"
#include "gpu_test_support.h"
#include "study/run/run_summary.h"

namespace attnprof::bench {
namespace {

using testing::CliRun;
using testing::find_row;
using testing::quick_settings;
using testing::run_cli;
using testing::small_problem;
using testing::test_folder;

// Skips where the build found no CUDA compiler: the example library was not built.
#define ATTNPROF_REQUIRE_EXAMPLE_KERNEL()                                                 \
  do {                                                                                    \
    if (std::string(ATTNPROF_EXAMPLE_KERNEL).empty())                                     \
      GTEST_SKIP() << "examples/custom-attention was not built (no CUDA compiler found)"; \
  } while (0)

CustomKernel example_kernel() {
  Result<CustomKernel> kernel = parse_custom_kernel(ATTNPROF_EXAMPLE_KERNEL);
  if (kernel.ok()) kernel = load_custom_kernel(std::move(*kernel));
  EXPECT_TRUE(kernel.ok()) << kernel.error().message;
  return kernel.ok() ? *kernel : CustomKernel{};
}

void expect_passes(const Problem& problem) {
  SCOPED_TRACE(describe(problem));
  const CustomKernel kernel = example_kernel();
  ASSERT_NE(kernel.function, nullptr);
  const VariantMeasurement m = run_custom_kernel(kernel, problem, quick_settings(), {});
  EXPECT_EQ(m.variant, Variant::kCustom);
  EXPECT_EQ(row_name(m), "example_attention");
  ASSERT_EQ(m.status, VariantStatus::kOk) << name(m.status) << ": " << m.reason;
  ASSERT_TRUE(m.correctness.has_value());
  EXPECT_TRUE(m.correctness->passed);
  EXPECT_LE(m.correctness->output_error, error_threshold(problem.dtype));
  ASSERT_TRUE(m.timing.has_value());
  EXPECT_GT(m.timing->median_ms, 0.0);
  EXPECT_GE(m.timing->input_sets, 3);
  ASSERT_TRUE(m.peak_allocated_bytes.has_value());
  // At least its output: B·H·Q·D elements of 2 bytes.
  EXPECT_GE(*m.peak_allocated_bytes,
            problem.batch * problem.heads * problem.q_seq * problem.head_dim * 2);
}

class ExampleKernelAccuracy : public ::testing::TestWithParam<std::tuple<Dtype, MaskKind>> {};

TEST_P(ExampleKernelAccuracy, WithinTheThresholdAgainstFloat64) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  expect_passes(small_problem(std::get<0>(GetParam()), std::get<1>(GetParam())));
}

INSTANTIATE_TEST_SUITE_P(HalfPrecisionsAndMasks, ExampleKernelAccuracy,
                         ::testing::Combine(::testing::Values(Dtype::kBf16, Dtype::kFp16),
                                            ::testing::Values(MaskKind::kCausal, MaskKind::kNone,
                                                              MaskKind::kExplicit)),
                         [](const auto& info) {
                           return std::string(name(std::get<0>(info.param))) + "_" +
                                  std::string(name(std::get<1>(info.param)));
                         });

// Head dimensions other than the study's 64, and a sequence that is no multiple of the kernel's
// tiles (8 queries, 32 keys).
TEST(ExampleKernel, OddHeadDimAndSequence) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  Problem p = small_problem(Dtype::kBf16, MaskKind::kCausal);
  p.head_dim = 128;
  p.seq = p.q_seq = 200;
  expect_passes(p);
  p.head_dim = 40;
  p.seq = p.q_seq = 77;
  expect_passes(p);
}

// The problem options (docs/CUSTOM_KERNELS.md) reach the kernel through the ABI: grouped-query
// attention (kv_heads), a decode step and a chunk of queries at the end of the keys (q_seq, the
// causal mask aligned to the end), a sliding window; each checked against float64 as the variants
// are.
TEST(ExampleKernel, GroupedQueryAttention) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  Problem p = small_problem(Dtype::kBf16, MaskKind::kCausal);
  p.heads = 8;
  p.kv_heads = 2;
  expect_passes(p);
  p.kv_heads = 1;  // multi-query
  expect_passes(p);
}

TEST(ExampleKernel, DecodeAndChunkedQueriesAlignedToTheEnd) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  Problem p = small_problem(Dtype::kFp16, MaskKind::kCausal);
  p.seq = 1000;
  p.q_seq = 1;
  expect_passes(p);
  p.q_seq = 37;
  expect_passes(p);
  p.mask = MaskKind::kNone;
  expect_passes(p);
}

TEST(ExampleKernel, SlidingWindow) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  Problem p = small_problem(Dtype::kBf16, MaskKind::kCausal);
  p.seq = 300;
  p.q_seq = 300;
  p.window = 45;
  expect_passes(p);
  p.q_seq = 5;  // decode-like queries, the window reaching back into the keys
  p.kv_heads = 2;
  expect_passes(p);
}

TEST(ExampleKernel, SaysWhyItCannotRunFp32) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  const VariantMeasurement m = run_custom_kernel(
      example_kernel(), small_problem(Dtype::kFp32, MaskKind::kCausal), quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kUnsupported);
  EXPECT_EQ(m.reason, "the example kernel has bf16 and fp16 versions only, no fp32");
  EXPECT_FALSE(m.timing.has_value());
}

TEST(ExampleKernel, BackwardIsUnsupportedByTheAbi) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  const VariantMeasurement m = run_custom_kernel(
      example_kernel(), small_problem(Dtype::kBf16, MaskKind::kCausal, true), quick_settings(), {});
  EXPECT_EQ(m.status, VariantStatus::kUnsupported);
  EXPECT_NE(m.reason.find("forward only"), std::string::npos) << m.reason;
}

// An AOTInductor package of causal SDPA, bf16, batch 1, 2 heads, seq 128, head dim 64, as
// scripts/gpu/aoti-probe/make_package.py writes it (80 s of compilation: too slow to make here),
// named by ATTNPROF_TEST_AOTI_PACKAGE; skipped without it.
TEST(AotInductorPackage, RunsThroughTorchsLoaderAndRefusesOtherShapes) {
  ATTNPROF_REQUIRE_CUDA();
  const char* path = std::getenv("ATTNPROF_TEST_AOTI_PACKAGE");
  if (!path || !*path) GTEST_SKIP() << "ATTNPROF_TEST_AOTI_PACKAGE names no package";
  Result<CustomKernel> kernel = parse_custom_kernel(std::string("sdpa_aoti=") + path);
  if (kernel.ok()) kernel = load_custom_kernel(std::move(*kernel));
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  ASSERT_TRUE(kernel->aoti_package);
  Problem p = small_problem(Dtype::kBf16, MaskKind::kCausal);
  p.batch = 1;
  p.heads = p.kv_heads = 2;
  p.seq = p.q_seq = 128;
  const auto folder = test_folder();
  const VariantMeasurement m =
      run_custom_kernel(*kernel, p, quick_settings((folder / "sdpa_aoti.json").string()), {});
  ASSERT_EQ(m.status, VariantStatus::kOk) << name(m.status) << ": " << m.reason;
  ASSERT_TRUE(m.correctness);
  EXPECT_TRUE(m.correctness->passed);
  EXPECT_LE(m.correctness->output_error, error_threshold(Dtype::kBf16));
  ASSERT_TRUE(m.timing);
  EXPECT_GT(m.timing->median_ms, 0.0);
  EXPECT_TRUE(std::filesystem::exists(folder / "sdpa_aoti.json"));
  // Exported for seq 128, run at 256: AOTInductor checks a package's inputs only where it was
  // packaged with AOTI_RUNTIME_CHECK_INPUTS=1 (then its first call's refusal makes the row
  // unsupported); this one was not, and calls aten's SDPA, which takes any shape: on the H200 it
  // ran and passed (2026-12-01). Either way a definite row, never an error or a crash.
  p.seq = p.q_seq = 256;
  const VariantMeasurement other = run_custom_kernel(*kernel, p, quick_settings(), {});
  if (other.status == VariantStatus::kUnsupported) {
    EXPECT_NE(other.reason.find("the package cannot run this problem"), std::string::npos)
        << other.reason;
  } else {
    ASSERT_EQ(other.status, VariantStatus::kOk) << name(other.status) << ": " << other.reason;
    EXPECT_TRUE(other.correctness && other.correctness->passed);
  }
}

// The whole CLI: the kernel's row beside SDPA's in the table and summary.json, its trace read by
// attnprof (one kernel per forward, the example's, classed as fused attention by its name).
TEST(ExampleKernel, RowBesideSdpaInTheSummary) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  const auto folder = test_folder();
  const CliRun run = run_cli(std::string("bench --custom ") + ATTNPROF_EXAMPLE_KERNEL +
                             " --custom second=" + ATTNPROF_EXAMPLE_KERNEL +
                             " --variants sdpa-flash --batch 2 --heads 4 --seq 256 "
                             "--time-budget 0.05 --trace-regions 2 --seed 7 --quiet --out " +
                             folder.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("example_attention"), std::string::npos) << run.output;
  auto summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  const RunPoint& point = summary->points.at(0);
  ASSERT_EQ(point.variants.size(), 3u);
  EXPECT_EQ(point.variants[0].variant, "sdpa-flash");
  for (const char* row : {"example_attention", "second"}) {
    SCOPED_TRACE(row);
    const RunVariant* custom = find_row(point, row);
    ASSERT_NE(custom, nullptr);
    EXPECT_EQ(custom->status, RunStatus::kOk) << custom->reason;
    ASSERT_TRUE(custom->output_error);
    EXPECT_LE(*custom->output_error, 2e-2);
    ASSERT_TRUE(custom->tflops);
    EXPECT_GT(*custom->tflops, 0.0);
    EXPECT_EQ(custom->trace_file, std::string(row) + ".json.gz");
    EXPECT_TRUE(std::filesystem::exists(folder / custom->trace_file));
    ASSERT_TRUE(custom->forward) << custom->trace_error;
    EXPECT_EQ(custom->forward->facts.kernels.median, 1.0);
    ASSERT_TRUE(custom->forward->facts.main_kernel);
    EXPECT_NE(custom->forward->facts.main_kernel->short_name.find("example_fmha_forward"),
              std::string::npos)
        << custom->forward->facts.main_kernel->short_name;
  }
}

TEST(ExampleKernel, Fp32RowIsNotRunWithTheKernelsReason) {
  ATTNPROF_REQUIRE_CUDA();
  ATTNPROF_REQUIRE_EXAMPLE_KERNEL();
  const auto folder = test_folder();
  const CliRun run = run_cli(std::string("bench --custom ") + ATTNPROF_EXAMPLE_KERNEL +
                             " --variants sdpa-math --dtype fp32 --batch 1 --heads 2 --seq 128 "
                             "--time-budget 0.02 --trace-regions 1 --quiet --out " +
                             folder.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;  // an unsupported row counts as run
  auto summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  const RunVariant* custom = find_row(summary->points.at(0), "example_attention");
  ASSERT_NE(custom, nullptr);
  EXPECT_EQ(custom->status, RunStatus::kUnsupported);
  EXPECT_EQ(custom->reason, "the example kernel has bf16 and fp16 versions only, no fp32");
}

}  // namespace
}  // namespace attnprof::bench
