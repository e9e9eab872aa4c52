// The time breakdown across ranks (include/attnprof/cross_trace.h): each part's spread, and the
// rank that starts its collectives last. On two real ranks of a 128-rank NCCL job (HTA's traces,
// tests/data/foreign/README.md), and on inline ranks whose collective starts are set by hand.

#include <gtest/gtest.h>

#include "attnprof/cross_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

// Rank 1 starts its 5 SendRecv kernels of step 551 a median 35.5 ms after rank 0's, and rank 0's
// take 38 ms longer: rank 0 waits in them for rank 1.
TEST(CrossRankBreakdown, NcclRanks) {
  std::vector<TraceAnalysis> ranks = {analyze_fixture("foreign/hta_nccl_rank0.json.gz"),
                                      analyze_fixture("foreign/hta_nccl_rank1.json.gz")};
  ASSERT_TRUE(are_ranks_of_one_run(ranks));
  CrossTraceSummary across = summarize_across_traces(ranks);
  ASSERT_EQ(across.regions.size(), 2u);
  const RegionAcrossTraces& step = across.regions[0];
  EXPECT_EQ(step.name, "ProfilerStep#551");
  EXPECT_EQ(step.communication_ns.by_trace, (std::vector<double>{172259e3, 134336e3}));
  EXPECT_EQ(step.communication_ns.slowest, 0);
  EXPECT_EQ(step.idle_ns.by_trace, (std::vector<double>{321378e3, 328671e3}));
  EXPECT_EQ(step.collectives_compared, 5);
  EXPECT_EQ(step.collective_lag_ns.slowest, 1);
  EXPECT_EQ(step.collective_lag_ns.by_trace[0], 0);
  EXPECT_EQ(step.collective_lag_ns.by_trace[1], 35534e3);
  EXPECT_EQ(across.latest_collectives, (std::vector<int>{0, 2}));
  EXPECT_EQ(across.max_collective_lag_ns[1], 35534e3);
  // The median region has no collectives of its own to match.
  EXPECT_EQ(across.median_region.collectives_compared, 0);

  const std::string text =
      testing::run_cli("analyze " + testing::fixture("foreign/hta_nccl_rank0.json.gz") + " " +
                       testing::fixture("foreign/hta_nccl_rank1.json.gz") + " --wide")
          .output;
  EXPECT_NE(text.find("starts its collectives last (a straggler the others wait for): rank 1 in 2 "
                      "of 2 regions with collectives, its median lag up to 35.53 ms"),
            std::string::npos)
      << text;
}

TraceAnalysis rank_with_collectives(int32_t rank, std::vector<int64_t> starts) {
  TraceAnalysis t;
  t.path = "rank" + std::to_string(rank);
  t.distributed_backend = "nccl";
  t.rank = rank;
  t.world_size = 3;
  RegionSummary step;
  step.name = "ProfilerStep#1";
  step.communication_starts_ns = std::move(starts);
  t.regions.push_back(step);
  return t;
}

// The n-th collective of each rank against the n-th of the others; a rank that ran fewer is
// compared over the ones every rank ran; the lag is each rank's median.
TEST(CrossRankBreakdown, LagOfTheNthCollective) {
  CrossTraceSummary across = summarize_across_traces({
      rank_with_collectives(0, {1000, 5000, 9000}),
      rank_with_collectives(1, {1000, 8000, 9500, 20000}),  // late by 0, 3000, 500
      rank_with_collectives(2, {1200, 5000, 9000}),         // late by 200, 0, 0
  });
  const RegionAcrossTraces& step = across.regions[0];
  EXPECT_EQ(step.collectives_compared, 3);
  EXPECT_EQ(step.collective_lag_ns.by_trace, (std::vector<double>{0, 500, 0}));
  EXPECT_EQ(step.collective_lag_ns.slowest, 1);
  // A rank with no collective: nothing to compare.
  CrossTraceSummary none =
      summarize_across_traces({rank_with_collectives(0, {}), rank_with_collectives(1, {1, 2})});
  EXPECT_EQ(none.regions[0].collectives_compared, 0);
  EXPECT_EQ(none.latest_collectives, (std::vector<int>{0, 0}));
}

}  // namespace
}  // namespace attnprof
