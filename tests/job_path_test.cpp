// The job's path across ranks (attnprof/cross_trace.h, JobPathAcrossRanks) on the two gloo ranks
// of tests/data/ranks, and ranks whose collectives do not match (tests/independent_job_path.py
// checks the numbers against the traces re-read).

#include <gtest/gtest.h>

#include <numeric>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

std::vector<TraceAnalysis> ranks() {
  std::vector<TraceAnalysis> out;
  for (const char* name : {"ranks/ddp_rank0.json.gz", "ranks/ddp_rank1.json.gz"}) {
    auto a = analyze_file(testing::fixture(name), AnalyzeOptions{});
    EXPECT_TRUE(a.ok());
    out.push_back(std::move(*a));
  }
  return out;
}

TEST(JobPath, RankOneHoldsEveryStepOfTheGlooRun) {
  const std::vector<TraceAnalysis> traces = ranks();
  // Each step runs two gloo all-reduces on each rank, on the CPU: the job's path is made of them.
  for (const TraceAnalysis& t : traces)
    for (const RegionSummary& r : t.regions) {
      ASSERT_EQ(r.collective_visits.size(), 2u) << r.name;
      EXPECT_EQ(r.collective_visits[0].name, "gloo:all_reduce");
      EXPECT_FALSE(r.collective_visits[0].held_by.empty());
    }
  const CrossTraceSummary across = summarize_across_traces(traces);
  ASSERT_EQ(across.regions.size(), 3u);
  for (const RegionAcrossTraces& r : across.regions) {
    SCOPED_TRACE(r.name);
    ASSERT_TRUE(r.job_path);
    const JobPathAcrossRanks& j = *r.job_path;
    EXPECT_EQ(j.collectives, 2);
    EXPECT_TRUE(r.unmatched_collectives.empty());
    // Rank 1 reaches both all-reduces about a millisecond after rank 0, which waits for it.
    EXPECT_EQ(j.held_by, 1);
    EXPECT_GT(j.waited_ns[0], 0.5e6);
    EXPECT_LT(j.waited_ns[1], j.waited_ns[0]);
    // The path tiles the job's span: the time the ranks held it and the collectives' own.
    const double held = std::accumulate(j.held_ns.begin(), j.held_ns.end(), 0.0);
    EXPECT_NEAR(held + j.communication_ns, j.length_ns, 1.0);
    EXPECT_FALSE(j.held_with.empty());
  }
  EXPECT_EQ(across.held_job, (std::vector<int>{0, 3}));
}

TEST(JobPath, CollectivesThatNeverMatchAreSaidAndMakeNoPath) {
  std::vector<TraceAnalysis> traces = ranks();
  // Rank 1 ran other collectives than rank 0 (a broadcast where rank 0 all-reduced).
  for (RegionSummary& r : traces[1].regions)
    for (CollectiveVisit& v : r.collective_visits) v.name = "gloo:broadcast";
  const CrossTraceSummary across = summarize_across_traces(traces);
  for (const RegionAcrossTraces& r : across.regions) {
    EXPECT_FALSE(r.job_path) << r.name;
    EXPECT_EQ(
        r.unmatched_collectives,
        (std::vector<std::string>{"gloo:all_reduce: rank 0 ran 2, rank 1 ran 0; not matched",
                                  "gloo:broadcast: rank 0 ran 0, rank 1 ran 2; not matched"}));
  }
  // One all-reduce too few on rank 0: the first is matched, and the line says so.
  traces = ranks();
  traces[0].regions[0].collective_visits.pop_back();
  const CrossTraceSummary fewer = summarize_across_traces(traces);
  ASSERT_TRUE(fewer.regions[0].job_path);
  EXPECT_EQ(fewer.regions[0].job_path->collectives, 1);
  EXPECT_EQ(fewer.regions[0].unmatched_collectives,
            (std::vector<std::string>{
                "gloo:all_reduce: rank 0 ran 1, rank 1 ran 2; the first 1 matched"}));
}

TEST(JobPath, TheTextSaysWhoHoldsTheJob) {
  auto r = testing::run_cli("analyze " + testing::fixture("ranks"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("  job's path µs                 length  collective  count  held by"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("holds the job's path (the others wait for it in their collectives): "
                          "rank 1 in 3 of 3 regions"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace attnprof
