// `attnprof bench --counters` end to end on the GPU: the CLI runs the study under Nsight Compute
// and its summary.json must hold plausible counters (docs/counters.md); without ncu the study goes
// on.

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
using testing::find_row;
using testing::run_cli;
using testing::test_folder;

// The study's problem, three variants: naive (many kernels), flash and cuDNN (one fused kernel).
TEST(Counters, StudyCountersArePlausible) {
  ATTNPROF_REQUIRE_CUDA();
  const auto folder = test_folder();
  const CliRun run = run_cli(
      "bench --counters --variants naive,sdpa-flash,sdpa-cudnn --time-budget "
      "0.05 --trace-regions 1 --seed 7 --quiet --out " +
      folder.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  auto summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  ASSERT_TRUE(summary->counters);
  const RunCounters& counters = *summary->counters;
  if (!counters.unavailable.empty()) GTEST_SKIP() << "no counters here: " << counters.unavailable;
  // The copy kernel reaches some of the HBM's bandwidth, never more than the datasheet's.
  ASSERT_TRUE(counters.bandwidth_bytes_per_s);
  ASSERT_TRUE(counters.datasheet_bandwidth_bytes_per_s);
  EXPECT_GT(*counters.bandwidth_bytes_per_s, 0.5 * *counters.datasheet_bandwidth_bytes_per_s);
  EXPECT_LE(*counters.bandwidth_bytes_per_s, *counters.datasheet_bandwidth_bytes_per_s);

  const RunPoint& point = summary->points.at(0);
  const double tensor_bytes = 4.0 * 16 * 2048 * 64 * 2;  // q, k, v or out: bf16
  for (const RunVariant& v : point.variants) {
    SCOPED_TRACE(v.variant);
    ASSERT_TRUE(v.counters) << v.counters_error;
    ASSERT_FALSE(v.kernel_counters.empty());
    for (const KernelCounters& k : v.kernel_counters) {
      SCOPED_TRACE(k.name);
      ASSERT_TRUE(k.achieved_occupancy_pct);
      EXPECT_GT(*k.achieved_occupancy_pct, 0);
      EXPECT_LE(*k.achieved_occupancy_pct, 100);
      ASSERT_TRUE(k.duration_ns);
      EXPECT_GT(*k.duration_ns, 0);
    }
    ASSERT_TRUE(v.intensity);
    ASSERT_TRUE(v.percent_of_roof);
    EXPECT_GT(*v.percent_of_roof, 0);
    EXPECT_LE(*v.percent_of_roof, 100);
  }
  for (const char* fused : {"sdpa-flash", "sdpa-cudnn"}) {
    SCOPED_TRACE(fused);
    const RunVariant* v = find_row(point, fused);
    ASSERT_NE(v, nullptr);
    ASSERT_EQ(v->kernel_counters.size(), 1u);
    // The L2 is flushed before the kernel: q, k and v all come from DRAM. Of the output, what
    // the L2 still holds when the kernel ends is written back after ncu stopped counting.
    EXPECT_GE(*v->counters->dram_read_bytes, 3 * tensor_bytes);
    EXPECT_GE(*v->counters->dram_read_bytes + *v->counters->dram_write_bytes + 60e6,
              4 * tensor_bytes);
    EXPECT_GT(*v->counters->tensor_pipe_pct, 10);  // the tensor cores do the work
  }
  // Naive's unfused chain: many kernels, several of them memory-bound element-wise passes.
  const RunVariant* naive = find_row(point, "naive");
  ASSERT_NE(naive, nullptr);
  EXPECT_GE(naive->kernel_counters.size(), 4u);
  EXPECT_GT(*naive->counters->dram_bytes(), 4 * 256.0 * (1 << 20));  // the 512 MiB scores, passes
}

// Without ncu the study goes on, and says why in one line.
TEST(Counters, WithoutNcuTheStudyGoesOn) {
  ATTNPROF_REQUIRE_CUDA();
  const auto folder = test_folder();
  const CliRun off = [&] {
    ::setenv("ATTNPROF_NCU", "/nonexistent/ncu", 1);
    CliRun r = run_cli(
        "bench --counters --variants sdpa-flash --seq 256 --time-budget 0.02 "
        "--trace-regions 1 --quiet --out " +
        folder.string());
    ::unsetenv("ATTNPROF_NCU");
    return r;
  }();
  EXPECT_EQ(off.exit_code, 0) << off.output;
  EXPECT_NE(off.output.find("no hardware counters: ATTNPROF_NCU=/nonexistent/ncu is not an "
                            "executable file; the study goes on without them"),
            std::string::npos)
      << off.output;
  auto summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  ASSERT_TRUE(summary->counters);
  EXPECT_NE(summary->counters->unavailable.find("ATTNPROF_NCU"), std::string::npos);
  ASSERT_EQ(summary->points.at(0).variants.at(0).status, RunStatus::kOk);
  EXPECT_FALSE(summary->points.at(0).variants.at(0).counters);
}

}  // namespace
}  // namespace attnprof::bench
