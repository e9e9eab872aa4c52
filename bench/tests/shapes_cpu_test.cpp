// --kv-heads, --q-seq and --window on the CPU (no GPU needed): the variants PyTorch has there
// against the float64 reference, and the command end to end, from its flags to summary.json.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <string>

#include "cli_run.h"
#include "gpu_test_support.h"
#include "study/run/run_summary.h"

namespace attnprof::bench {
namespace {

using testing::CliRun;
using testing::quick_settings;
using testing::run_cli;

Problem cpu_shape(int64_t kv_heads, int64_t q_seq, int64_t window) {
  Problem p;
  p.batch = 1;
  p.heads = 4;
  p.kv_heads = kv_heads;
  p.seq = 128;
  p.q_seq = q_seq;
  p.head_dim = 32;
  p.window = window;
  p.dtype = Dtype::kFp32;
  p.device = DeviceKind::kCpu;
  return p;
}

TEST(CpuShapes, UnfusedAndMathWithinThresholdForGqaDecodeAndWindow) {
  for (const Problem& p : {cpu_shape(2, 128, 0), cpu_shape(1, 1, 0), cpu_shape(2, 32, 0),
                           cpu_shape(4, 128, 16), cpu_shape(2, 1, 16)}) {
    for (Variant v : {Variant::kNaive, Variant::kInplace, Variant::kSdpaMath, Variant::kSdpaAuto}) {
      SCOPED_TRACE(std::string(name(v)) + " on " + describe(p));
      const VariantMeasurement m = run_variant(v, p, quick_settings(), {});
      ASSERT_EQ(m.status, VariantStatus::kOk) << m.reason;
      EXPECT_LE(m.correctness->output_error, error_threshold(p.dtype));
    }
    // PyTorch's CPU flash kernel: runs the shape or refuses it with a reason, never a wrong answer.
    const VariantMeasurement flash = run_variant(Variant::kSdpaFlash, p, quick_settings(), {});
    if (flash.status == VariantStatus::kOk)
      EXPECT_LE(flash.correctness->output_error, error_threshold(p.dtype)) << describe(p);
    else
      EXPECT_EQ(flash.status, VariantStatus::kUnsupported) << flash.reason;
  }
}

TEST(CpuShapes, TheCommandWritesTheShapeIntoSummaryJson) {
  const auto folder = testing::test_folder();
  const CliRun run = run_cli(
      "bench --device cpu --dtype fp32 --batch 1 --heads 4 --kv-heads 2 --seq 128 --q-seq 1 "
      "--window 32 --head-dim 32 --variants naive,sdpa-math --time-budget 0.02 --min-reps 3 "
      "--trace-regions 0 --seed 5 --quiet --out " +
      folder.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("4 heads (2 KV), 1 query against 128 keys"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("window 32"), std::string::npos) << run.output;
  auto summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  const RunPoint& point = summary->points.at(0);
  EXPECT_EQ(point.problem.kv_heads, 2);
  EXPECT_EQ(point.problem.q_seq, 1);
  EXPECT_EQ(point.problem.window, 32);
  // One query sees the 32 keys of its window: 4·H·32·D FLOPs.
  EXPECT_DOUBLE_EQ(point.flops_per_call, 4.0 * 4 * 32 * 32);
  ASSERT_EQ(point.variants.size(), 2u);
  EXPECT_EQ(point.variants[0].status, RunStatus::kOk);

  // A sweep over the keys: the queries follow them unless --q-seq is given.
  const CliRun sweep = run_cli(
      "bench --device cpu --dtype fp32 --batch 1 --heads 2 --seq 64 --head-dim 16 "
      "--variants sdpa-math --sweep seq=32,64 --time-budget 0.02 --min-reps 3 --trace-regions 0 "
      "--quiet --out " +
      (folder / "sweep").string());
  ASSERT_EQ(sweep.exit_code, 0) << sweep.output;
  auto swept = read_run_summary((folder / "sweep" / "summary.json").string());
  ASSERT_TRUE(swept.ok()) << swept.error().message;
  ASSERT_EQ(swept->points.size(), 2u);
  EXPECT_EQ(swept->points[0].problem.q_seq, 32);
  EXPECT_EQ(swept->points[1].problem.q_seq, 64);
  testing::remove_tree(folder);
}

TEST(CpuShapes, BadShapesGetOneLineAndExitTwo) {
  for (const std::string& flags :
       {std::string("--heads 4 --kv-heads 3"), std::string("--seq 64 --q-seq 65"),
        std::string("--no-causal --window 8"), std::string("--sweep kv-heads=3 --heads 4")}) {
    const CliRun run = run_cli("bench --device cpu " + flags + " --out /nonexistent/x");
    EXPECT_EQ(run.exit_code, 2) << flags << ": " << run.output;
    EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << flags << ": " << run.output;
  }
}

}  // namespace
}  // namespace attnprof::bench
