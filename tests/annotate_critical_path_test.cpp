// `attnprof annotate --critical-path` (docs/CRITICAL_PATH.md, "In Perfetto"): on real traces, the
// marks of each region's path add up to its length in analyze's JSON less its kernel gaps, and
// every flow attnprof adds is a pair Perfetto can draw.

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <simdjson.h>

#include "test_support.h"
#include "trace_set.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::run_cli;
using testing::TraceSet;

struct Span {
  double start = 0, end = 0;
};

using Track = std::pair<std::string, std::string>;  // pid, tid as JSON spells them

Track track_of(simdjson::dom::element e) {
  return {simdjson::to_string(e["pid"]), simdjson::to_string(e["tid"])};
}

class AnnotateCriticalPath : public ::testing::TestWithParam<const char*> {};

TEST_P(AnnotateCriticalPath, MarksAddUpToThePathLessItsGapsAndFlowsPair) {
  TraceSet set;
  const std::string trace = fixture(GetParam());
  const std::string annotated = set.path("annotated.json");
  auto r = run_cli("annotate --critical-path " + trace + " -o " + annotated);
  ASSERT_EQ(r.exit_code, 0) << r.output;

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(annotated).get(doc), simdjson::SUCCESS);
  std::map<int64_t, double> marked_us;  // per region index
  std::map<Track, std::vector<Span>> mark_tracks;
  std::map<Track, std::vector<Span>> original_slices;
  std::set<int64_t> original_flow_ids;
  struct Endpoint {
    Track track;
    double ts = 0;
  };
  std::map<int64_t, std::vector<Endpoint>> starts, finishes;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view cat, ph;
    if (e["ph"].get(ph) != simdjson::SUCCESS) continue;
    const bool ours = e["cat"].get(cat) == simdjson::SUCCESS && cat == "attnprof";
    if (!ours) {
      if (ph == "X") {
        double dur = 0;
        if (e["dur"].get(dur) != simdjson::SUCCESS) dur = 0;
        const double ts = double(e["ts"]);
        original_slices[track_of(e)].push_back({ts, ts + dur});
      }
      int64_t id = 0;
      if ((ph == "s" || ph == "f") && e["id"].get(id) == simdjson::SUCCESS)
        original_flow_ids.insert(id);
      continue;
    }
    if (ph == "X") {
      bool on_path = false;
      if (e["args"]["critical_path"].get(on_path) != simdjson::SUCCESS || !on_path) continue;
      marked_us[int64_t(e["args"]["region"])] += double(e["dur"]);
      const double ts = double(e["ts"]);
      mark_tracks[track_of(e)].push_back({ts, ts + double(e["dur"])});
    }
    if ((ph == "s" || ph == "f") && std::string_view(e["name"]) == "critical path") {
      if (ph == "f") {
        EXPECT_EQ(std::string_view(e["bp"]), "e");
      }
      (ph == "s" ? starts : finishes)[int64_t(e["id"])].push_back({track_of(e), double(e["ts"])});
    }
  }

  // The marks of one track never overlap: Perfetto would nest them.
  for (auto& [track, marks] : mark_tracks) {
    std::sort(marks.begin(), marks.end(),
              [](const Span& a, const Span& b) { return a.start < b.start; });
    for (size_t i = 1; i < marks.size(); ++i)
      EXPECT_GE(marks[i].start, marks[i - 1].end - 0.0005) << track.first << "/" << track.second;
  }

  // Every flow: one start and one finish, in time order, each inside a slice of the trace on its
  // track (Perfetto binds both ends to the slice around them), its id none of the trace's.
  ASSERT_FALSE(starts.empty());
  EXPECT_EQ(starts.size(), finishes.size());
  for (const auto& [id, s] : starts) {
    EXPECT_FALSE(original_flow_ids.count(id)) << id;
    ASSERT_EQ(s.size(), 1u) << id;
    ASSERT_EQ(finishes[id].size(), 1u) << id;
    const Endpoint& f = finishes[id].front();
    EXPECT_LE(s.front().ts, f.ts) << id;
    for (const Endpoint* end : {&s.front(), &f}) {
      bool inside = false;
      for (const Span& slice : original_slices[end->track])
        inside = inside || (slice.start <= end->ts && end->ts <= slice.end);
      EXPECT_TRUE(inside) << "flow " << id << " at " << end->ts << " on " << end->track.first << "/"
                          << end->track.second;
    }
  }

  // The marks of each region against its path in analyze's JSON: its length less the GPU's idle
  // time between dependent work, which the track leaves as gaps.
  auto json = run_cli("analyze --format json " + trace);
  ASSERT_EQ(json.exit_code, 0) << json.output;
  simdjson::dom::parser jp;
  simdjson::dom::array regions =
      jp.parse(simdjson::padded_string(json.output))["traces"].at(0)["regions"];
  ASSERT_FALSE(marked_us.empty());
  int64_t index = 0;
  std::vector<std::string> paths_marked;
  for (simdjson::dom::element region : regions) {
    simdjson::dom::element path = region["critical_path"];
    const double expected = double(path["length_us"]) - double(path["categories"]["kernel_gap_us"]);
    auto it = marked_us.find(index);
    if (it != marked_us.end()) {
      EXPECT_NEAR(it->second, expected, 1.0) << std::string_view(region["name"]) << " #" << index;
      paths_marked.push_back(simdjson::to_string(path));
    } else {
      // Unmarked: it holds the same work as a region marked before it, and shares its path.
      bool shared = false;
      for (const std::string& p : paths_marked) shared = shared || p == simdjson::to_string(path);
      EXPECT_TRUE(shared) << "region #" << index << " has no marks";
    }
    ++index;
  }
  EXPECT_LT(marked_us.rbegin()->first, index);
}

INSTANTIATE_TEST_SUITE_P(RealTraces, AnnotateCriticalPath,
                         ::testing::Values("train_step.json.gz", "models/llama-decode-sdpa.json.gz",
                                           "comm/comm-overlap.json.gz", "ranks/ddp_rank0.json.gz",
                                           // Clocks that disagree with dependencies: the path's
                                           // times move off the recorded ones.
                                           "odd/clock_skew.json",
                                           "foreign/hta_trace_diff_test_cut.json.gz"));

TEST(AnnotateCriticalPathFlag, WithoutItNothingOfThePathIsWritten) {
  TraceSet set;
  const std::string annotated = set.path("annotated.json");
  auto r = run_cli("annotate " + fixture("train_step.json.gz") + " -o " + annotated);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("critical path"), std::string::npos) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(annotated).get(doc), simdjson::SUCCESS);
  int ours = 0;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view cat;
    if (e["cat"].get(cat) != simdjson::SUCCESS || cat != "attnprof") continue;
    ++ours;
    EXPECT_NE(std::string_view(e["name"]), "critical path");
    bool on_path = false;
    EXPECT_NE(e["args"]["critical_path"].get(on_path), simdjson::SUCCESS);
  }
  EXPECT_GT(ours, 0);
}

// The first start of a CPU op whose name starts with `prefix`, per pid.
std::map<std::string, double> first_op_starts(simdjson::dom::element doc, std::string_view prefix) {
  std::map<std::string, double> first;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view ph, cat, name;
    if (e["ph"].get(ph) != simdjson::SUCCESS || ph != "X") continue;
    if (e["cat"].get(cat) != simdjson::SUCCESS || cat != "cpu_op") continue;
    if (e["name"].get(name) != simdjson::SUCCESS || !name.starts_with(prefix)) continue;
    const std::string pid = simdjson::to_string(e["pid"]);
    const double ts = double(e["ts"]);
    if (!first.count(pid) || ts < first[pid]) first[pid] = ts;
  }
  return first;
}

// The two DDP ranks (gloo: their collectives are CPU ops, c10d::allreduce_ first) merged: one
// process per rank, named after it; every slice of both ranks kept; the first collectives start
// together; the flows of the two ranks keep apart.
TEST(AnnotateCriticalPathRanks, OneProcessPerRankAlignedOnTheFirstCollective) {
  TraceSet set;
  const std::string merged = set.path("merged.json");
  auto r = run_cli("annotate --critical-path " + fixture("ranks") + " -o " + merged);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("warning"), std::string::npos) << r.output;

  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(merged).get(doc), simdjson::SUCCESS);
  std::map<std::string, std::string> process_names;
  std::set<std::string> pids;
  size_t original_slices = 0, marks = 0;
  std::map<std::pair<std::string, int64_t>, std::set<std::string>> flow_pids;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view ph, cat;
    if (e["ph"].get(ph) != simdjson::SUCCESS) continue;
    const std::string pid = simdjson::to_string(e["pid"]);
    if (ph == "M") {
      if (std::string_view(e["name"]) == "process_name")
        process_names[pid] = std::string(std::string_view(e["args"]["name"]));
      continue;
    }
    pids.insert(pid);
    const bool ours = e["cat"].get(cat) == simdjson::SUCCESS && cat == "attnprof";
    if (ph == "X") ++(ours ? marks : original_slices);
    int64_t id = 0;
    if (ph == "s" && e["id"].get(id) == simdjson::SUCCESS)
      flow_pids[{std::string(cat), id}].insert(pid);
  }
  EXPECT_EQ(pids, (std::set<std::string>{"1", "2"}));
  EXPECT_EQ(process_names["1"], "rank 0");
  EXPECT_EQ(process_names["2"], "rank 1");
  EXPECT_GT(marks, 0u);
  for (const auto& [flow, where] : flow_pids)
    EXPECT_EQ(where.size(), 1u) << flow.first << " flow " << flow.second << " on both ranks";

  // Every slice of the ranks, counted in the originals.
  size_t expected_slices = 0;
  std::vector<std::map<std::string, double>> original_first;
  for (const char* rank : {"ranks/ddp_rank0.json.gz", "ranks/ddp_rank1.json.gz"}) {
    const std::string plain = set.path("rank.json");
    ASSERT_EQ(testing::run_command("gzip -dc " + fixture(rank) + " > " + plain).exit_code, 0);
    simdjson::dom::parser p;
    simdjson::dom::element original;
    ASSERT_EQ(p.load(plain).get(original), simdjson::SUCCESS);
    for (simdjson::dom::element e : simdjson::dom::array(original["traceEvents"])) {
      std::string_view ph;
      if (e["ph"].get(ph) == simdjson::SUCCESS && ph == "X") ++expected_slices;
    }
    original_first.push_back(first_op_starts(original, "c10d::"));
  }
  EXPECT_EQ(original_slices, expected_slices);

  // Apart before, together after (to the nanosecond Kineto prints).
  ASSERT_EQ(original_first[0].size(), 1u);
  ASSERT_EQ(original_first[1].size(), 1u);
  EXPECT_GT(std::abs(original_first[0].begin()->second - original_first[1].begin()->second), 1.0);
  const std::map<std::string, double> first = first_op_starts(doc, "c10d::");
  ASSERT_EQ(first.size(), 2u);
  EXPECT_NEAR(first.at("1"), first.at("2"), 0.0015);
  EXPECT_NEAR(first.at("1"), original_first[0].begin()->second, 0.0015);  // rank 0 stays
}

// HTA's two NCCL ranks: every rank ran NCCL kernels, so the clocks are aligned on the first one
// (35.5 ms apart before), and the command says so.
TEST(AnnotateCriticalPathRanks, NcclRanksAreAlignedOnTheirFirstCommunicationKernel) {
  TraceSet set;
  const std::string dir = set.path("nccl");
  std::filesystem::create_directories(dir);
  for (const char* rank : {"hta_nccl_rank0.json.gz", "hta_nccl_rank1.json.gz"})
    std::filesystem::copy_file(fixture(std::string("foreign/") + rank), dir + "/" + rank);
  const std::string merged = set.path("merged.json");
  auto r = run_cli("annotate --critical-path " + dir + " -o " + merged);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("to align ncclKernel_"), std::string::npos) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  ASSERT_EQ(parser.load(merged).get(doc), simdjson::SUCCESS);
  std::map<std::string, double> first;
  for (simdjson::dom::element e : simdjson::dom::array(doc["traceEvents"])) {
    std::string_view ph, cat, name;
    if (e["ph"].get(ph) != simdjson::SUCCESS || ph != "X") continue;
    if (e["cat"].get(cat) != simdjson::SUCCESS || cat != "kernel") continue;
    if (e["name"].get(name) != simdjson::SUCCESS || !name.starts_with("nccl")) continue;
    const std::string pid = simdjson::to_string(e["pid"]);
    const double ts = double(e["ts"]);
    if (!first.count(pid) || ts < first[pid]) first[pid] = ts;
  }
  ASSERT_EQ(first.size(), 2u);
  EXPECT_NEAR(first.at("1"), first.at("2"), 0.0015);
}

TEST(AnnotateCriticalPathRanks, RanksWithoutCollectivesAreAlignedOnTheirFirstEventWithAWarning) {
  TraceSet set;
  const std::string dir = set.path("two");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(fixture("study_naive.json.gz"), dir + "/a.json.gz");
  std::filesystem::copy_file(fixture("train_step.json.gz"), dir + "/b.json.gz");
  auto r = run_cli("annotate --critical-path " + dir + " -o " + set.path("merged.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("attnprof: warning: " + dir +
                          ": not every rank ran a collective (an NCCL kernel or a collective "
                          "op); the ranks are aligned on their first event\n"),
            std::string::npos)
      << r.output;
}

TEST(AnnotateCriticalPathRanks, BadFoldersGetOneLineAndExit2) {
  TraceSet set;
  const std::string empty = set.path("empty");
  std::filesystem::create_directories(empty);
  auto none = run_cli("annotate --critical-path " + empty + " -o " + set.path("out.json"));
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_EQ(none.output.rfind("attnprof: " + empty + ": ", 0), 0u) << none.output;
  EXPECT_EQ(std::count(none.output.begin(), none.output.end(), '\n'), 1) << none.output;

  const std::string broken = set.path("broken");
  std::filesystem::create_directories(broken);
  std::filesystem::copy_file(fixture("ranks/ddp_rank0.json.gz"), broken + "/rank0.json.gz");
  const std::string bad_rank = set.write("broken/rank1.json", "{\"traceEvents\": [ {\"ph\": ");
  auto unreadable = run_cli("annotate --critical-path " + broken + " -o " + set.path("out.json"));
  EXPECT_EQ(unreadable.exit_code, 2);
  EXPECT_EQ(unreadable.output.rfind("attnprof: " + bad_rank + ": ", 0), 0u) << unreadable.output;
  EXPECT_EQ(std::count(unreadable.output.begin(), unreadable.output.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(set.path("out.json")));

  auto no_flag = run_cli("annotate " + fixture("ranks") + " -o " + set.path("out.json"));
  EXPECT_EQ(no_flag.exit_code, 2);
  EXPECT_NE(no_flag.output.find("is a folder: annotate takes a trace, or a folder of ranks with "
                                "--critical-path"),
            std::string::npos)
      << no_flag.output;
}

}  // namespace
}  // namespace attnprof
