// The trace summary (include/attnprof/trace_summary.h, docs/DISTRIBUTED.md): written and read back
// on every real trace of tests/data, it keeps each region's numbers and the facts exactly; merged,
// it compares the ranks as analyze does with the traces themselves; anything else is refused
// with one line naming the line and byte.

#include "attnprof/trace_summary.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "attnprof/cross_trace.h"
#include "render/analyze/analyze_output.h"
#include "render/json_writer.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::run_cli;
using testing::TempFile;

std::vector<std::string> every_fixture() {
  std::vector<std::string> names;
  for (const char* folder : {"", "ranks/", "foreign/", "odd/"})
    for (const auto& e : std::filesystem::directory_iterator(fixture(folder))) {
      const std::string name = e.path().filename().string();
      if (name.ends_with(".json.gz") || name.ends_with(".json")) names.push_back(folder + name);
    }
  std::sort(names.begin(), names.end());
  return names;
}

TraceAnalysis read_back(const TraceAnalysis& t) {
  auto read = read_trace_summaries(write_trace_summary(t), "test");
  EXPECT_TRUE(read.ok()) << (read.ok() ? "" : read.error().message);
  EXPECT_EQ(read->size(), 1u);
  EXPECT_TRUE(read->front().outcome.ok());
  return std::move(read->front().outcome).value();
}

TEST(TraceSummary, EveryFixtureReadsBackWithTheSameRegionsAndFacts) {
  const auto names = every_fixture();
  ASSERT_GE(names.size(), 30u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const TraceAnalysis t = analyze_fixture(name, "", false);
    const TraceAnalysis back = read_back(t);
    EXPECT_EQ(back.path, t.path);
    EXPECT_EQ(back.json_bytes, t.json_bytes);
    EXPECT_EQ(back.events, t.events);
    EXPECT_EQ(back.rank, t.rank);
    EXPECT_EQ(back.world_size, t.world_size);
    EXPECT_EQ(back.distributed_backend, t.distributed_backend);
    EXPECT_EQ(back.typical_region, t.typical_region);
    ASSERT_EQ(back.devices.size(), t.devices.size());
    for (size_t i = 0; i < t.devices.size(); ++i) {
      EXPECT_EQ(back.devices[i].name, t.devices[i].name);
      EXPECT_EQ(back.devices[i].sm_count, t.devices[i].sm_count);
      EXPECT_EQ(back.devices[i].description, t.devices[i].description);
    }
    ASSERT_EQ(back.regions.size(), t.regions.size());
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary &a = t.regions[i], &b = back.regions[i];
      EXPECT_EQ(b.name, a.name);
      EXPECT_EQ(b.pid, a.pid);
      EXPECT_EQ(b.start_ns, a.start_ns);
      EXPECT_EQ(b.wall_ns, a.wall_ns);
      EXPECT_EQ(b.cpu_ns, a.cpu_ns);
      EXPECT_EQ(b.gpu_busy_ns, a.gpu_busy_ns);
      EXPECT_EQ(b.kernels, a.kernels);
      EXPECT_EQ(b.memcpy, a.memcpy);
      EXPECT_EQ(b.memcpy_by_kind, a.memcpy_by_kind);
      EXPECT_EQ(b.memset, a.memset);
      EXPECT_EQ(b.gpu_syncs, a.gpu_syncs);
      ASSERT_EQ(b.collective_visits.size(), a.collective_visits.size());
      for (size_t v = 0; v < a.collective_visits.size(); ++v) {
        EXPECT_EQ(b.collective_visits[v].name, a.collective_visits[v].name);
        EXPECT_EQ(b.collective_visits[v].group, a.collective_visits[v].group);
        EXPECT_EQ(b.collective_visits[v].start_ns, a.collective_visits[v].start_ns);
        EXPECT_EQ(b.collective_visits[v].end_ns, a.collective_visits[v].end_ns);
        EXPECT_EQ(b.collective_visits[v].held_by, a.collective_visits[v].held_by);
      }
      EXPECT_EQ(b.held_after_collectives, a.held_after_collectives);
    }
    EXPECT_EQ(back.facts.regions, t.facts.regions);
    EXPECT_EQ(back.facts.wall_ns.median, t.facts.wall_ns.median);
    EXPECT_EQ(back.facts.gpu_busy_ns.median, t.facts.gpu_busy_ns.median);
    EXPECT_EQ(back.facts.kernels.median, t.facts.kernels.median);
    EXPECT_EQ(back.facts.cpu_ns.max, t.facts.cpu_ns.max);
  }
}

std::string across_json(const std::vector<TraceAnalysis>& traces) {
  JsonWriter w;
  write_cross_trace_json(w, summarize_across_traces(traces), traces);
  return w.take();
}

TEST(TraceSummary, MergedRanksCompareAsTheTracesThemselves) {
  const std::vector<TraceAnalysis> direct = {analyze_fixture("ranks/ddp_rank0.json.gz"),
                                             analyze_fixture("ranks/ddp_rank1.json.gz")};
  ASSERT_TRUE(are_ranks_of_one_run(direct));
  const std::vector<TraceAnalysis> merged = {read_back(direct[0]), read_back(direct[1])};
  ASSERT_TRUE(are_ranks_of_one_run(merged));
  const std::string expected = across_json(direct);
  EXPECT_EQ(across_json(merged), expected);
  // Rank 1 trains on a longer sequence: it is the slower in GPU busy time in every step, and the
  // job's path through the merged summaries says it holds every step, as through the traces.
  EXPECT_NE(expected.find("\"slowest\": 1"), std::string::npos);
  EXPECT_NE(expected.find("\"held_by\": 1"), std::string::npos);
  EXPECT_EQ(expected.find("\"held_by\": 0"), std::string::npos);
}

TEST(TraceSummary, TheCommandLineMapAndReduceEqualAnalyze) {
  TempFile lines("ranks.jsonl");
  const std::string ranks = fixture("ranks");
  auto map = run_cli("analyze --format summary " + ranks + " > " + lines.path());
  ASSERT_EQ(map.exit_code, 0) << map.output;
  auto merged = run_cli("merge --format json " + lines.path());
  ASSERT_EQ(merged.exit_code, 0) << merged.output;
  auto analyzed = run_cli("analyze --format json " + ranks);
  ASSERT_EQ(analyzed.exit_code, 0);
  auto across = [](const std::string& doc) {
    const size_t at = doc.find("\"across_traces\"");
    const size_t end = doc.find("\n  \"errors\"", at);
    return at == std::string::npos || end == std::string::npos ? std::string()
                                                               : doc.substr(at, end - at);
  };
  ASSERT_FALSE(across(analyzed.output).empty());
  EXPECT_EQ(across(merged.output), across(analyzed.output));
  auto text = run_cli("merge " + lines.path());
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("merged 2 trace summaries: ranks of one gloo run of world size 2"),
            std::string::npos)
      << text.output;
}

TEST(TraceSummary, AFailedMapIsAnErrorRowAndExitTwo) {
  TempFile bad("bad.json", "[1, 2, 3]");
  TempFile lines("all.jsonl");
  // Its error goes to stderr, not into the summaries (run_command adds 2>&1 at the end).
  std::string command = "(";  // appended, not "(" + string: g++ 12's false -Wrestrict
  command += ATTNPROF_CLI;
  command += " analyze --format summary " + fixture("ranks/ddp_rank0.json.gz") + " " + bad.path() +
             " 2>/dev/null) > " + lines.path();
  auto map = testing::run_command(command);
  EXPECT_EQ(map.exit_code, 2);
  std::ifstream in(lines.path());
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto read = read_trace_summaries(text, lines.path());
  ASSERT_TRUE(read.ok()) << read.error().message;
  ASSERT_EQ(read->size(), 2u);
  EXPECT_TRUE((*read)[0].outcome.ok());
  ASSERT_FALSE((*read)[1].outcome.ok());
  EXPECT_EQ((*read)[1].path, bad.path());
  EXPECT_EQ((*read)[1].outcome.error().kind, ErrorKind::kNotATrace);
  auto merged = run_cli("merge " + lines.path());
  EXPECT_EQ(merged.exit_code, 2);
  EXPECT_NE(merged.output.find("merged 2 trace summaries, 1 not read"), std::string::npos)
      << merged.output;
  EXPECT_NE(merged.output.find("not a trace"), std::string::npos);
}

TEST(TraceSummary, WhatIsNoSummaryIsRefusedWithItsLineAndByte) {
  const std::string good =
      write_trace_summary(analyze_fixture("study_sdpa-flash.json.gz", "forward", false));
  auto refused = [](const std::string& text) {
    auto read = read_trace_summaries(text, "f.jsonl");
    return read.ok() ? std::string("accepted") : read.error().message;
  };
  // Second line: its byte offset is the first line's length.
  const std::string second_at = fmt::format("f.jsonl: line 2 (byte {})", good.size());
  std::string wrong_type = good;
  const size_t value = wrong_type.find("\"wall_ns\":") + 10;
  wrong_type.replace(value, wrong_type.find(',', value) - value, "\"fast\"");
  EXPECT_EQ(refused(good + wrong_type).rfind(second_at, 0), 0u) << refused(good + wrong_type);
  EXPECT_NE(refused(wrong_type).find("regions[0].wall_ns is a string where an integer belongs"),
            std::string::npos)
      << refused(wrong_type);
  std::string missing = good;
  missing.erase(missing.find("\"kernels\":"), std::string("\"kernels\":").size() + 2);
  EXPECT_NE(refused(missing).find("is missing"), std::string::npos) << refused(missing);
  std::string later = good;
  later.replace(later.find("\"version\":2"), 11, "\"version\":3");
  EXPECT_NE(refused(later).find("version 3, written by a later attnprof"), std::string::npos);
  EXPECT_NE(refused("{\"traceEvents\": []}").find("not a trace summary: format"),
            std::string::npos);
  EXPECT_NE(refused("{\"format\"").find("not JSON"), std::string::npos);
  EXPECT_NE(refused("\n  \n").find("holds no trace summary"), std::string::npos);
  std::string bad_typical = good;
  bad_typical.replace(bad_typical.find("\"typical_region\":"), 18, "\"typical_region\":9");
  EXPECT_NE(refused(bad_typical).find("typical_region is not the index"), std::string::npos)
      << refused(bad_typical);
  EXPECT_EQ(refused(good + "\n" + good), "accepted");
}

TEST(TraceSummary, StandardInputIsReadOnce) {
  auto twice = run_cli("merge - - < /dev/null");
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.output.find("standard input (-) is named twice"), std::string::npos)
      << twice.output;
}

}  // namespace
}  // namespace attnprof
