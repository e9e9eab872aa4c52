// analyze's JSON written as each trace is analyzed (docs/PERFORMANCE.md): the same bytes as the
// rendering of analyses made first, the traces in input order whatever finishes first, and a writer
// that hands its text to a file as it goes.

#include <gtest/gtest.h>

#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "render/analyze/analyze_output.h"
#include "render/json_writer.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;

// What analyze --format json printed before it streamed: every analysis made first, with every
// region's activities, then rendered whole.
std::string rendered_in_memory(const std::vector<std::string>& paths,
                               const std::vector<std::string>& unread_paths) {
  AnalyzeOptions options;
  options.activities_of_every_region = true;
  options.explain = true;
  std::vector<TraceAnalysis> traces;
  for (const auto& path : paths) {
    auto analysis = analyze_file(path, options);
    if (analysis.ok()) traces.push_back(std::move(analysis).value());
  }
  std::vector<UnreadTrace> unread;
  for (const auto& path : unread_paths) unread.push_back({path, "x"});
  std::optional<CrossTraceSummary> across;
  if (traces.size() >= 2 && are_ranks_of_one_run(traces)) across = summarize_across_traces(traces);
  return render_analyze_json({traces, across ? &*across : nullptr, unread});
}

TEST(JsonStream, TheCliWritesTheBytesOfTheInMemoryRendering) {
  const std::vector<std::string> paths = {fixture("study_naive.json.gz"),
                                          fixture("train_step.json.gz"),
                                          fixture("small_launch_bound.json.gz")};
  const auto cli = testing::run_command(std::string(ATTNPROF_CLI) +
                                        " analyze --explain --format json --jobs 3 " + paths[0] +
                                        " " + paths[1] + " " + paths[2] + " 2>/dev/null");
  ASSERT_EQ(cli.exit_code, 0);
  const std::string expected = rendered_in_memory(paths, {});
  EXPECT_GT(expected.size(), size_t{100} << 10);  // more than one of the writer's chunks
  EXPECT_EQ(cli.output, expected);
}

TEST(JsonStream, AnalyzedInOrderGoesByInputOrderAndSkipsFailures) {
  // The large trace first, so that the small ones finish before it with several jobs.
  const std::vector<std::string> paths = {fixture("train_step.json.gz"), "/nonexistent.json",
                                          fixture("study_naive.json.gz"),
                                          fixture("study_inplace.json.gz")};
  std::mutex mutex;
  std::vector<size_t> order;
  std::vector<size_t> activities;
  ManyTracesOptions many;
  many.jobs = 3;
  many.analyzed_in_order = [&](size_t trace, const TraceAnalysis& analysis,
                               const RegionActivities& list, const RegionTablesOf&) {
    std::lock_guard lock(mutex);
    order.push_back(trace);
    size_t n = 0;
    for (size_t r = 0; r < analysis.regions.size(); ++r) n += list(r).size();
    activities.push_back(n);
  };
  AnalyzeOptions options;
  auto outcomes = analyze_files(paths, options, many);
  ASSERT_EQ(outcomes.size(), 4u);
  EXPECT_FALSE(outcomes[1].ok());
  EXPECT_EQ(order, (std::vector<size_t>{0, 2, 3}));
  // The lister gives every region's activities, though the analysis keeps the typical one's.
  ASSERT_EQ(activities.size(), 3u);
  const TraceAnalysis& naive = *outcomes[2];
  size_t in_regions = 0;
  for (const RegionSummary& r : naive.regions)
    in_regions += static_cast<size_t>(r.kernels + r.memcpy + r.memset);
  EXPECT_GT(in_regions, 0u);
  EXPECT_EQ(activities[1], in_regions);
  for (size_t r = 0; r < naive.regions.size(); ++r) {
    if (static_cast<int>(r) != naive.typical_region) {
      EXPECT_TRUE(naive.regions[r].activities.empty());
    }
  }
}

TEST(JsonStream, AWriterIntoAFileWritesWhatItWouldKeepInMemory) {
  auto write = [](JsonWriter& w) {
    w.begin_object();
    w.key("rows").begin_array();
    for (int i = 0; i < 20000; ++i) {
      w.begin_object();
      w.key("name").string("row \"" + std::to_string(i) + "\"");
      w.key("value").number(i / 7.0);
      w.end_object();
    }
    w.end_array();
    w.end_object();
    w.text("\n");
  };
  JsonWriter in_memory;
  write(in_memory);
  const std::string expected = in_memory.take();
  ASSERT_GT(expected.size(), size_t{256} << 10);

  std::FILE* file = std::tmpfile();
  ASSERT_NE(file, nullptr);
  JsonWriter to_file(file);
  write(to_file);
  ASSERT_TRUE(to_file.flush());
  std::rewind(file);
  std::string written(expected.size() + 1, '\0');
  written.resize(std::fread(written.data(), 1, written.size(), file));
  std::fclose(file);
  EXPECT_EQ(written, expected);
}

TEST(JsonStream, AFullDiskIsAnError) {
  std::FILE* full = std::fopen("/dev/full", "w");
  if (!full) GTEST_SKIP() << "no /dev/full";
  JsonWriter w(full);
  w.begin_array();
  for (int i = 0; i < 100000; ++i) w.string("padding padding padding");
  w.end_array();
  EXPECT_FALSE(w.flush());
  std::fclose(full);
}

}  // namespace
}  // namespace attnprof
