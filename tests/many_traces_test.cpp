// Several traces at once (docs/ARCHITECTURE.md), through the core: analyze_files (parallel, order,
// errors), the cross-trace summary against the same numbers computed here from each trace read on
// its own, trace names (rank or file), and the order of a folder's traces.

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "attnprof/cross_trace.h"
#include "io/trace_directory.h"
#include "trace_set.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::TraceSet;

std::vector<TraceAnalysis> read_all(const std::vector<std::string>& paths, size_t jobs,
                                    const std::string& region = {}) {
  AnalyzeOptions options;
  options.region_pattern = region;
  ManyTracesOptions many;
  many.jobs = jobs;
  std::vector<TraceAnalysis> out;
  for (auto& outcome : analyze_files(paths, options, many)) {
    if (!outcome.ok()) throw std::runtime_error(outcome.error().message);
    out.push_back(std::move(outcome).value());
  }
  return out;
}

const std::vector<std::string> kVariants = {
    "study_naive.json.gz",      "study_inplace.json.gz",        "study_sdpa-math.json.gz",
    "study_sdpa-flash.json.gz", "study_sdpa-efficient.json.gz", "study_sdpa-cudnn.json.gz"};

std::vector<std::string> variant_paths() {
  std::vector<std::string> paths;
  for (const auto& v : kVariants) paths.push_back(fixture(v));
  return paths;
}

TEST(AnalyzeFiles, ResultsComeInInputOrderWhateverTheJobs) {
  const auto paths = variant_paths();
  for (size_t jobs : {1, 2, 4, 6}) {
    SCOPED_TRACE(jobs);
    const auto traces = read_all(paths, jobs, "forward");
    ASSERT_EQ(traces.size(), paths.size());
    for (size_t i = 0; i < paths.size(); ++i) {
      const TraceAnalysis alone = analyze_fixture(kVariants[i], "forward", false);
      EXPECT_EQ(traces[i].path, paths[i]);
      EXPECT_EQ(traces[i].events, alone.events);
      ASSERT_EQ(traces[i].regions.size(), alone.regions.size());
      for (size_t r = 0; r < alone.regions.size(); ++r) {
        EXPECT_EQ(traces[i].regions[r].wall_ns, alone.regions[r].wall_ns);
        EXPECT_EQ(traces[i].regions[r].gpu_busy_ns, alone.regions[r].gpu_busy_ns);
        EXPECT_EQ(traces[i].regions[r].kernels, alone.regions[r].kernels);
      }
    }
  }
}

TEST(AnalyzeFiles, AFailingTraceDoesNotStopTheOthers) {
  TraceSet set;
  std::vector<std::string> paths = {set.copy("study_naive.json.gz", "a.json.gz"),
                                    set.truncated("study_inplace.json.gz", "b.json"),
                                    set.path("missing.json"),
                                    set.copy("study_sdpa-flash.json.gz", "d.json.gz")};
  std::vector<int> finished(paths.size(), 0);
  std::mutex mutex;
  ManyTracesOptions many;
  many.jobs = 3;
  many.finished = [&](size_t i, const Result<TraceAnalysis>&) {
    std::lock_guard lock(mutex);
    ++finished[i];
  };
  auto outcomes = analyze_files(paths, AnalyzeOptions{}, many);
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_TRUE(outcomes[0].ok());
  ASSERT_FALSE(outcomes[1].ok());
  EXPECT_NE(outcomes[1].error().message.find(paths[1]), std::string::npos)
      << outcomes[1].error().message;
  EXPECT_NE(outcomes[1].error().message.find("truncated"), std::string::npos)
      << outcomes[1].error().message;
  ASSERT_FALSE(outcomes[2].ok());
  EXPECT_NE(outcomes[2].error().message.find("missing.json"), std::string::npos);
  ASSERT_TRUE(outcomes[3].ok());
  EXPECT_EQ(outcomes[3]->path, paths[3]);
  EXPECT_EQ(finished, std::vector<int>(4, 1));
}

TEST(AnalyzeFiles, ProgressReachesEveryTraceWithItsEvents) {
  const auto paths = variant_paths();
  std::mutex mutex;
  std::vector<uint64_t> last_events(paths.size(), 0);
  ManyTracesOptions many;
  many.jobs = 2;
  many.progress = [&](size_t i, uint64_t, uint64_t events) {
    std::lock_guard lock(mutex);
    EXPECT_GE(events, last_events[i]);  // never goes back
    last_events[i] = events;
  };
  auto outcomes = analyze_files(paths, AnalyzeOptions{}, many);
  for (size_t i = 0; i < paths.size(); ++i) {
    ASSERT_TRUE(outcomes[i].ok());
    // Reported after each chunk: the last report, after the whole file, has every event but the
    // batch still being parsed; these small traces are one batch, reported before it is parsed.
    EXPECT_LE(last_events[i], outcomes[i]->events);
  }
}

// The cross-trace numbers of one region, computed here from each trace's own analysis.
struct Expected {
  double min, median, max, spread;
  int slowest;
};

Expected expected_of(const std::vector<double>& values) {
  std::vector<double> sorted = values;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  const int slowest =
      sorted.front() == sorted.back()
          ? -1
          : static_cast<int>(std::max_element(values.begin(), values.end()) - values.begin());
  return {sorted.front(), median, sorted.back(), (sorted.back() - sorted.front()) / median,
          slowest};
}

void expect_quantity(const QuantityAcrossTraces& q, const std::vector<double>& values) {
  const Expected e = expected_of(values);
  EXPECT_EQ(q.by_trace, values);
  EXPECT_DOUBLE_EQ(q.min, e.min);
  EXPECT_DOUBLE_EQ(q.median, e.median);
  EXPECT_DOUBLE_EQ(q.max, e.max);
  EXPECT_DOUBLE_EQ(q.spread, e.spread);
  EXPECT_EQ(q.slowest, e.slowest);
}

TEST(CrossTrace, SlowestAndSpreadPerRegionMatchTheTracesReadAlone) {
  const auto traces = read_all(variant_paths(), 3, "forward");
  const CrossTraceSummary across = summarize_across_traces(traces);

  std::vector<TraceAnalysis> alone;
  for (const auto& v : kVariants) alone.push_back(analyze_fixture(v, "forward", false));
  // Each variant has three `forward`s: the k-th of each trace is compared with the k-th of the
  // others.
  ASSERT_EQ(across.regions.size(), 3u);
  for (size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const RegionAcrossTraces& row = across.regions[k];
    EXPECT_EQ(row.name, "forward[" + std::to_string(k + 1) + "]");
    EXPECT_EQ(row.traces, (std::vector<int>{0, 1, 2, 3, 4, 5}));
    std::vector<double> wall, gpu, kernels;
    for (const auto& t : alone) {
      ASSERT_EQ(t.regions.size(), 3u);
      wall.push_back(static_cast<double>(t.regions[k].wall_ns));
      gpu.push_back(static_cast<double>(t.regions[k].gpu_busy_ns));
      kernels.push_back(static_cast<double>(t.regions[k].kernels));
    }
    expect_quantity(row.wall_ns, wall);
    expect_quantity(row.gpu_busy_ns, gpu);
    expect_quantity(row.kernels, kernels);
    // The math backend's FP32 path is the slowest on the GPU in every forward (docs/STUDY.md),
    // and its 20 kernels against the fused backends' one are a mismatch.
    EXPECT_EQ(row.gpu_busy_ns.slowest, 2);
    EXPECT_TRUE(row.kernel_counts_differ());
    EXPECT_EQ(row.kernels.min, 1);
    EXPECT_EQ(row.kernels.max, 20);
  }
  std::vector<double> median_wall;
  for (const auto& t : alone) median_wall.push_back(t.facts.wall_ns.median);
  expect_quantity(across.median_region.wall_ns, median_wall);

  EXPECT_EQ(across.compared_regions, 3);
  std::vector<int> slowest_by_wall(6, 0);
  for (const auto& row : across.regions)
    if (int slowest = expected_of(row.wall_ns.by_trace).slowest; slowest >= 0)
      ++slowest_by_wall[size_t(slowest)];
  EXPECT_EQ(across.slowest_by_wall, slowest_by_wall);
}

TEST(CrossTrace, CopiesOfOneTraceHaveNoSpread) {
  TraceSet set;
  std::vector<std::string> paths;
  for (int i = 0; i < 4; ++i)
    paths.push_back(set.copy("study_naive.json.gz", "copy" + std::to_string(i) + ".json.gz"));
  const CrossTraceSummary across = summarize_across_traces(read_all(paths, 2));
  ASSERT_FALSE(across.regions.empty());
  for (const auto& row : across.regions) {
    EXPECT_EQ(row.traces.size(), 4u) << row.name;
    EXPECT_EQ(row.wall_ns.spread, 0) << row.name;
    EXPECT_EQ(row.gpu_busy_ns.min, row.gpu_busy_ns.max) << row.name;
    EXPECT_FALSE(row.kernel_counts_differ()) << row.name;
    EXPECT_EQ(row.wall_ns.slowest, -1) << row.name;  // all tie: none is slower
  }
  EXPECT_EQ(across.slowest_by_wall, std::vector<int>(4, 0));
  EXPECT_EQ(across.labels[2].text, "copy2.json.gz");
  EXPECT_FALSE(across.labelled_by_rank);
}

TEST(CrossTrace, TracesAreNamedByRankWhenEachHasItsOwn) {
  TraceSet set;
  // Given out of rank order: the labels follow the traces, not the ranks.
  const auto traces =
      read_all({set.rank_copy(1, 2, "worker_b.json"), set.rank_copy(0, 2, "worker_a.json")}, 2);
  const CrossTraceSummary across = summarize_across_traces(traces);
  EXPECT_TRUE(across.labelled_by_rank);
  ASSERT_EQ(across.labels.size(), 2u);
  EXPECT_EQ(across.labels[0].text, "rank 1");
  EXPECT_EQ(across.labels[1].text, "rank 0");
  EXPECT_TRUE(across.labels[0].has_rank);
  EXPECT_EQ(across.labels[0].rank, 1);
}

TEST(CrossTrace, TwoTracesOfTheSameRankAreNamedByFile) {
  TraceSet set;
  const auto traces =
      read_all({set.rank_copy(0, 2, "run1.json"), set.rank_copy(0, 2, "run2.json")}, 1);
  const CrossTraceSummary across = summarize_across_traces(traces);
  EXPECT_FALSE(across.labelled_by_rank);
  EXPECT_EQ(across.labels[0].text, "run1.json");
  EXPECT_EQ(across.labels[1].text, "run2.json");
  EXPECT_TRUE(across.labels[1].has_rank);  // the rank is still known, only not a unique name
}

TEST(CrossTrace, SameFileNamesInTwoFoldersAreNamedByPath) {
  TraceSet a, b;
  const auto traces = read_all({a.copy("study_naive.json.gz", "trace.json.gz"),
                                b.copy("study_inplace.json.gz", "trace.json.gz")},
                               2);
  const CrossTraceSummary across = summarize_across_traces(traces);
  EXPECT_EQ(across.labels[0].text, a.path("trace.json.gz"));
  EXPECT_EQ(across.labels[1].text, b.path("trace.json.gz"));
}

TEST(CrossTrace, StepsMatchByNumberAndLoneStepsStayUncompared) {
  // train_step has ProfilerStep#N regions; naive has a different step window of its own.
  const TraceAnalysis train = analyze_fixture("train_step.json.gz", {}, false);
  const TraceAnalysis naive = analyze_fixture("study_naive.json.gz", {}, false);
  const CrossTraceSummary across = summarize_across_traces({train, naive});
  std::set<std::string> train_steps, naive_steps;
  for (const auto& r : train.regions) train_steps.insert(r.name);
  for (const auto& r : naive.regions) naive_steps.insert(r.name);
  int shared = 0;
  for (const auto& row : across.regions) {
    const bool in_train = train_steps.count(row.name) > 0,
               in_naive = naive_steps.count(row.name) > 0;
    ASSERT_TRUE(in_train || in_naive) << row.name;
    EXPECT_EQ(row.traces.size(), size_t{in_train} + size_t{in_naive}) << row.name;
    shared += in_train && in_naive;
  }
  EXPECT_EQ(across.compared_regions, shared);
  std::set<std::string> all = train_steps;
  all.insert(naive_steps.begin(), naive_steps.end());
  EXPECT_EQ(across.regions.size(), all.size());
}

TEST(CrossTrace, StepsOnlySomeTracesHaveKeepTheirOrder) {
  TraceAnalysis a, b;
  for (const char* name : {"ProfilerStep#3", "ProfilerStep#4"}) a.regions.push_back({.name = name});
  for (const char* name : {"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3", "ProfilerStep#5"})
    b.regions.push_back({.name = name});
  a.path = "a.json";
  b.path = "b.json";
  const CrossTraceSummary across = summarize_across_traces({a, b});
  std::vector<std::string> names;
  for (const auto& row : across.regions) names.push_back(row.name);
  EXPECT_EQ(names, (std::vector<std::string>{"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#3",
                                             "ProfilerStep#4", "ProfilerStep#5"}));
}

TEST(TraceDirectory, NaturalOrder) {
  EXPECT_TRUE(natural_less("rank_2.json", "rank_10.json"));
  EXPECT_FALSE(natural_less("rank_10.json", "rank_2.json"));
  EXPECT_TRUE(natural_less("a.json", "b.json"));
  EXPECT_TRUE(natural_less("rank_1", "rank_1.json"));
  EXPECT_TRUE(natural_less("rank_01", "rank_1"));  // equal as numbers: byte order decides
  EXPECT_FALSE(natural_less("rank_1", "rank_01"));
  EXPECT_FALSE(natural_less("x", "x"));
  EXPECT_TRUE(natural_less("node9_rank3", "node10_rank0"));
}

TEST(TraceDirectory, ListsTheTracesOfAFolderInNaturalOrder) {
  TraceSet set;
  set.write("rank_10.json", "{}");
  set.write("rank_2.json.gz", "");
  set.write("rank_1.pt.trace.json", "{}");
  set.write("notes.txt", "");
  set.write("trace.json.bak", "");
  std::filesystem::create_directories(set.path("nested.json"));
  auto listed = list_trace_directory(set.dir());
  ASSERT_TRUE(listed.ok()) << listed.error().message;
  EXPECT_EQ(*listed,
            (std::vector<std::string>{set.path("rank_1.pt.trace.json"), set.path("rank_2.json.gz"),
                                      set.path("rank_10.json")}));
}

TEST(TraceDirectory, AFolderWithoutTracesIsAnError) {
  TraceSet set;
  set.write("notes.txt", "");
  auto listed = list_trace_directory(set.dir());
  ASSERT_FALSE(listed.ok());
  EXPECT_NE(listed.error().message.find(set.dir()), std::string::npos);
  EXPECT_NE(listed.error().message.find("no trace"), std::string::npos);
}

}  // namespace
}  // namespace attnprof
