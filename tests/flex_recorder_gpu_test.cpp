// scripts/gpu/record_flex.py on a tiny shape, on the GPU (label gpu): its folder must read back
// through the core like the bench's (summary.json by read_run_summary, the report in text), flex
// must run, pass the float64 check and leave a trace whose main kernel is FlexAttention's Triton
// template, classed as fused attention; FA3/FA4 run or say why not.

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "analysis/kernels/kernel_class.h"
#include "study/run/run_summary.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::run_cli;
using testing::run_command;
using testing::TempFile;

const RunVariant* find_variant(const RunPoint& point, const std::string& name) {
  for (const RunVariant& v : point.variants)
    if (v.variant == name) return &v;
  return nullptr;
}

TEST(FlexRecorder, TinyGqaWindowFolderReadsLikeTheBenchs) {
  TempFile marker("unused");
  const std::string out = marker.dir() + "/flex";
  // 4 query heads on 2 KV heads, the last 128 of 256 positions, a window of 64.
  const testing::CommandResult recorded = run_command(
      "PYTHONDONTWRITEBYTECODE=1 " + std::string(ATTNPROF_PYTHON) + " " + ATTNPROF_SOURCE_DIR +
      "/scripts/gpu/record_flex.py " + out +
      " --batch 1 --heads 4 --kv-heads 2 --seq 256 --q-seq 128 --head-dim 64 --window 64"
      " --time-budget 0.05 --min-reps 5 --trace-regions 3 --attnprof " +
      ATTNPROF_CLI);
  ASSERT_EQ(recorded.exit_code, 0) << recorded.output;

  Result<RunSummary> run = read_run_summary(out + "/summary.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 1u);
  const RunPoint& point = run->points[0];
  EXPECT_EQ(point.problem.batch, 1);
  EXPECT_EQ(point.problem.heads, 4);
  EXPECT_EQ(point.problem.seq, 256);
  // Every query (positions 128..255) sees its window of 64 keys: 4·D per pair and query head.
  EXPECT_DOUBLE_EQ(point.flops_per_call, 4.0 * 1 * 4 * (128 * 64) * 64);
  ASSERT_EQ(point.variants.size(), 5u);

  const RunVariant* flex = find_variant(point, "flex");
  ASSERT_NE(flex, nullptr);
  EXPECT_EQ(flex->status, RunStatus::kOk) << flex->reason;
  ASSERT_TRUE(flex->output_error.has_value());
  EXPECT_LE(*flex->output_error, 0.02);
  ASSERT_TRUE(flex->median_ms.has_value());
  EXPECT_GT(*flex->median_ms, 0);
  EXPECT_TRUE(std::filesystem::exists(out + "/" + flex->trace_file)) << flex->trace_file;
  ASSERT_TRUE(flex->forward.has_value()) << flex->trace_error;
  EXPECT_EQ(flex->forward->facts.regions, 3);
  ASSERT_TRUE(flex->forward->facts.main_kernel.has_value());
  const std::string& main = flex->forward->facts.main_kernel->short_name;
  EXPECT_NE(main.find("flex"), std::string::npos) << main;
  EXPECT_EQ(classify_kernel(main, main), KernelClass::kFusedAttention) << main;

  for (const char* name : {"sdpa-fa3", "sdpa-fa4"}) {
    const RunVariant* fa = find_variant(point, name);
    ASSERT_NE(fa, nullptr) << name;
    EXPECT_TRUE(fa->status == RunStatus::kOk ||
                (fa->status == RunStatus::kUnsupported && !fa->reason.empty()))
        << name << ": " << name_in(kRunStatusNames, fa->status) << " " << fa->reason;
  }

  // The renders record_flex.py asked attnprof for, and the report reading the folder again.
  EXPECT_TRUE(std::filesystem::exists(out + "/summary.md"));
  EXPECT_TRUE(std::filesystem::exists(out + "/table.txt"));
  const testing::CommandResult text = run_cli("report " + out + " --format text -o -");
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find(main.substr(0, 20)), std::string::npos) << text.output;
}

}  // namespace
}  // namespace attnprof
