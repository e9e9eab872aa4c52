// Launch delays and queue lengths (attnprof/launch_queue.h) on real traces: HTA's NCCL rank 0,
// whose per-stream queue maxima HTA's queue-length summary gives (docs/BREAKDOWN.md), and the
// one-GPU training step.

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

TEST(LaunchQueue, NcclRankQueuesAsHtaHasThem) {
  TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  const RegionSummary& step = t.regions[0];
  // HTA's get_queue_length_summary, rank 0, the same step: max 76, 4, 8, 1, 1.
  std::vector<std::pair<int32_t, int32_t>> max_by_stream;
  for (const StreamQueue& q : step.queues) max_by_stream.emplace_back(q.stream, q.max_length);
  EXPECT_EQ(max_by_stream, (std::vector<std::pair<int32_t, int32_t>>{
                               {7, 76}, {23, 4}, {25, 8}, {84, 1}, {203, 1}}));
  for (const StreamQueue& q : step.queues) {
    EXPECT_LE(q.mean_length, q.max_length);
    EXPECT_EQ(q.full_ns, 0);  // far from CUDA's 1024 pending launches
  }
  // Every activity's launch is in the trace; the longest waits are the optimizer's kernels queued
  // behind the step's compute, 103.7 ms after their launch.
  const LaunchDelays& d = step.launch_delays;
  EXPECT_EQ(d.launched, step.kernels + step.memcpy + step.memset);
  EXPECT_EQ(d.max_ns, 103674000);
  ASSERT_EQ(d.longest.size(), 5u);
  EXPECT_EQ(d.longest[0].launch_to_start_ns, d.max_ns);
  EXPECT_EQ(d.longest[0].kernel, "elementwise_kernel<...> [addcmul_cuda_kernel]");
  for (size_t i = 1; i < d.longest.size(); ++i)
    EXPECT_GE(d.longest[i - 1].launch_to_start_ns, d.longest[i].launch_to_start_ns);
  EXPECT_LE(d.median_ns, d.p95_ns);
  EXPECT_LE(d.p95_ns, d.max_ns);
  EXPECT_EQ(d.median_ns, 10251500);
}

// A small model's step is launch-bound: its GPU waits for the CPU, so each kernel starts soon
// after its launch and the queue stays short.
TEST(LaunchQueue, LaunchBoundStepHasShortQueues) {
  TraceAnalysis t = analyze_fixture("train_step.json.gz");
  for (const RegionSummary& r : t.regions) {
    ASSERT_FALSE(r.queues.empty());
    for (const StreamQueue& q : r.queues) EXPECT_LE(q.max_length, 8) << q.stream;
    EXPECT_LT(r.launch_delays.median_ns, 50'000);  // under 50 µs from launch to start
    EXPECT_GT(r.launch_delays.op_to_launch_median_ns, 0);
  }
}

// No GPU work: nothing launched, no queue, no division by zero.
TEST(LaunchQueue, NoGpuWork) {
  TraceAnalysis t = analyze_fixture("cpu_only.json.gz");
  for (const RegionSummary& r : t.regions) {
    EXPECT_EQ(r.launch_delays.launched, 0);
    EXPECT_TRUE(r.launch_delays.longest.empty());
    EXPECT_TRUE(r.queues.empty());
  }
}

}  // namespace
}  // namespace attnprof
