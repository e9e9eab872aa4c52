// `attnprof analyze` on several traces (docs/ARCHITECTURE.md), end to end: folders, --jobs, the
// cross-trace section checked against the per-trace numbers of the same output, an error in one
// file, and the progress line: silent into a pipe, drawn and erased on a terminal.

#include <fcntl.h>
#include <pty.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <thread>

#include "trace_set.h"

extern char** environ;

namespace attnprof {
namespace {

using testing::fixture;
using testing::run_command;
using testing::TraceSet;

struct SplitOutput {
  int exit_code = -1;  // -1: the CLI could not be started (or no pseudo-terminal)
  std::string out, err;
};

enum class Stderr { kPipe, kTerminal };

// Runs the CLI with `arguments` (split at spaces) and its stdout and stderr apart: stdout into a
// file, stderr into a pipe or onto a pseudo-terminal.
SplitOutput run_cli_split(const std::string& arguments, Stderr to = Stderr::kPipe) {
  SplitOutput run;
  TraceSet scratch;
  const std::string out_file = scratch.path("stdout");
  int read_end = -1, write_end = -1;
  if (to == Stderr::kPipe) {
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) return run;
    read_end = fds[0];
    write_end = fds[1];
  } else if (::openpty(&read_end, &write_end, nullptr, nullptr, nullptr) != 0) {
    return run;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_end, STDERR_FILENO);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_file.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addclose(&actions, read_end);
  std::vector<std::string> words = {ATTNPROF_CLI};
  for (size_t at = 0; at < arguments.size();) {
    size_t end = arguments.find(' ', at);
    if (end == std::string::npos) end = arguments.size();
    if (end > at) words.push_back(arguments.substr(at, end - at));
    at = end + 1;
  }
  std::vector<char*> argv;
  for (auto& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int spawned = posix_spawn(&pid, ATTNPROF_CLI, &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(write_end);
  if (spawned == 0) {
    char buffer[4096];
    // A pipe ends with 0; a pseudo-terminal with EIO once the CLI has exited.
    for (ssize_t n; (n = ::read(read_end, buffer, sizeof buffer)) > 0;)
      run.err.append(buffer, size_t(n));
  }
  ::close(read_end);
  if (spawned != 0) return run;
  int status = 0;
  ::waitpid(pid, &status, 0);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  run.out = run_command("cat " + out_file).output;
  return run;
}

size_t count_lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

TEST(AnalyzeMany, AFolderIsReadInNaturalOrder) {
  TraceSet set;
  set.copy("study_sdpa-flash.json.gz", "rank_10.json.gz");
  set.copy("study_naive.json.gz", "rank_2.json.gz");
  set.copy("study_inplace.json.gz", "rank_1.pt.trace.json.gz");
  set.write("README.txt", "not a trace");
  auto r = run_cli_split("analyze --region forward --jobs 2 " + set.dir());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  const size_t first = r.out.find(set.path("rank_1.pt.trace.json.gz") + "\n");
  const size_t second = r.out.find(set.path("rank_2.json.gz") + "\n");
  const size_t third = r.out.find(set.path("rank_10.json.gz") + "\n");
  ASSERT_NE(first, std::string::npos) << r.out;
  ASSERT_NE(second, std::string::npos) << r.out;
  ASSERT_NE(third, std::string::npos) << r.out;
  EXPECT_LT(first, second);
  EXPECT_LT(second, third);
  // Three attention variants, not the ranks of one run (include/attnprof/cross_trace.h): not
  // compared, and said so.
  EXPECT_EQ(r.out.find("across 3 traces"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Not compared across traces: they are not the ranks of one distributed run"),
            std::string::npos)
      << r.out;
}

// The main job's old output: "spread 1541.6 %, slowest sdpa-math" across seven variants, which
// means nothing (include/attnprof/cross_trace.h). Ranks of one run are compared; anything else is
// not.
TEST(AnalyzeMany, OnlyRanksOfOneRunAreCompared) {
  TraceSet set;
  const std::string rank0 = set.rank_copy(0, 2, "r0.json"), rank1 = set.rank_copy(1, 2, "r1.json");
  const std::string other_world = set.rank_copy(1, 4, "w4.json");
  const std::string same_rank = set.rank_copy(0, 2, "again_r0.json");
  const auto across = [](const std::string& paths) {
    return run_cli_split("analyze " + paths).out.find("across 2 traces") != std::string::npos;
  };
  EXPECT_TRUE(across(rank0 + " " + rank1));
  EXPECT_FALSE(across(rank0 + " " + other_world)) << "two world sizes: two runs";
  EXPECT_FALSE(across(rank0 + " " + same_rank)) << "rank 0 twice: two runs";
  EXPECT_FALSE(across(fixture("study_naive.json.gz") + " " + fixture("study_inplace.json.gz")))
      << "no distributedInfo";
  auto json = run_cli_split("analyze --format json " + fixture("study_naive.json.gz") + " " +
                            fixture("study_sdpa-math.json.gz"));
  ASSERT_EQ(json.exit_code, 0) << json.err;
  EXPECT_EQ(json.out.find("\"across_traces\""), std::string::npos);
  EXPECT_EQ(json.out.find("1541"), std::string::npos);
}

TEST(AnalyzeMany, OutputIsTheSameWithOneJobOrFour) {
  std::string args = "analyze --format json --region forward";
  for (const char* v :
       {"study_naive", "study_inplace", "study_sdpa-math", "study_sdpa-flash",
        "study_sdpa-efficient", "study_sdpa-cudnn", "cpp_sdpa_cudnn", "cudnn_cold_start"}) {
    args += ' ';  // not " " + string, on which g++ 12 warns (-Wrestrict, falsely)
    args += fixture(std::string(v) + ".json.gz");
  }
  const auto one = run_cli_split(args + " --jobs 1");
  const auto four = run_cli_split(args + " --jobs 4");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  ASSERT_EQ(four.exit_code, 0) << four.err;
  EXPECT_GT(one.out.size(), 10000u);
  EXPECT_EQ(one.out, four.out);
  for (const char* format : {"text", "md"}) {
    const std::string a = run_cli_split(args + " --jobs 1 --format " + format).out;
    EXPECT_EQ(a, run_cli_split(args + " --jobs 4 --format " + format).out) << format;
  }
}

// The across_traces object of a JSON output, checked against the per-trace regions of the same
// document: the traces of each region, the slowest trace, min, median, max and spread computed
// here. Region names must be unique within each trace (the default regions are).
void expect_across_traces_agree_with_each_trace(simdjson::dom::element doc) {
  simdjson::dom::array traces = doc["traces"];
  simdjson::dom::element across = doc["across_traces"];

  // Per trace: region name -> wall us, GPU busy us, kernels.
  std::vector<std::map<std::string, std::array<double, 3>>> per_trace;
  for (simdjson::dom::element t : traces) {
    std::map<std::string, std::array<double, 3>> regions;
    for (simdjson::dom::element region : simdjson::dom::array(t["regions"]))
      regions[std::string(std::string_view(region["name"]))] = {double(region["wall_us"]),
                                                                double(region["gpu_busy_us"]),
                                                                double(int64_t(region["kernels"]))};
    per_trace.push_back(std::move(regions));
  }
  size_t rows = 0, compared = 0;
  for (simdjson::dom::element row : simdjson::dom::array(across["regions"])) {
    const std::string name{std::string_view(row["name"])};
    SCOPED_TRACE(name);
    std::vector<int64_t> having;
    for (size_t i = 0; i < per_trace.size(); ++i)
      if (per_trace[i].count(name)) having.push_back(static_cast<int64_t>(i));
    std::vector<int64_t> listed;
    for (int64_t i : simdjson::dom::array(row["traces"])) listed.push_back(i);
    EXPECT_EQ(listed, having);
    const char* keys[] = {"wall_us", "gpu_busy_us", "kernels"};
    for (size_t q = 0; q < 3; ++q) {
      std::vector<double> values;
      for (int64_t i : having) values.push_back(per_trace[size_t(i)].at(name)[q]);
      std::vector<double> sorted = values;
      std::sort(sorted.begin(), sorted.end());
      const size_t n = sorted.size();
      const double median = n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
      const int64_t slowest =
          sorted.front() == sorted.back()
              ? -1
              : having[size_t(std::max_element(values.begin(), values.end()) - values.begin())];
      simdjson::dom::element got = row[keys[q]];
      EXPECT_NEAR(double(got["min"]), sorted.front(), 1e-6) << keys[q];
      EXPECT_NEAR(double(got["max"]), sorted.back(), 1e-6) << keys[q];
      EXPECT_NEAR(double(got["median"]), median, 1e-6) << keys[q];
      EXPECT_NEAR(double(got["spread"]), median ? (sorted.back() - sorted.front()) / median : 0,
                  1e-9)
          << keys[q];
      if (q == 2) {
        EXPECT_EQ(bool(row["kernel_counts_differ"]), sorted.front() != sorted.back());
      } else if (slowest < 0) {
        EXPECT_TRUE(got["slowest"].is_null()) << keys[q];
      } else {
        EXPECT_EQ(int64_t(got["slowest"]), slowest) << keys[q];
      }
    }
    ++rows;
    compared += having.size() >= 2;
  }
  EXPECT_GT(compared, 0u);
  EXPECT_EQ(uint64_t(across["compared_regions"]), compared);
  std::set<std::string> names;
  for (const auto& t : per_trace)
    for (const auto& [name, values] : t) names.insert(name);
  EXPECT_EQ(rows, names.size());  // every region of every trace, once
}

TEST(AnalyzeMany, JsonAcrossTracesAgreesWithEachTrace) {
  TraceSet set;
  auto r = run_cli_split("analyze --format json --jobs 3 " + set.rank_copy(0, 3, "a.json") + " " +
                         set.rank_copy(2, 3, "b.json") + " " + set.rank_copy(1, 3, "c.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(simdjson::padded_string(r.out));
  EXPECT_EQ(std::string_view(doc["across_traces"]["labelled_by"]), "rank");
  EXPECT_EQ(simdjson::dom::array(doc["errors"]).size(), 0u);
  expect_across_traces_agree_with_each_trace(doc);
}

// The two ranks of a real DDP run (tests/data/ranks, README there), read as a folder: rank 1
// trains on 768 tokens to rank 0's 512, so it is the slower on the GPU in every step; cuBLAS
// picks other GEMM kernels for the other shapes, and the kernel counts differ (43 on rank 0).
TEST(AnalyzeMany, RecordedRanksOfADistributedRun) {
  auto r =
      run_cli_split("analyze --format json --jobs 2 " + std::string(ATTNPROF_TEST_DATA) + "/ranks");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(simdjson::padded_string(r.out));
  simdjson::dom::element across = doc["across_traces"];
  EXPECT_EQ(std::string_view(across["labelled_by"]), "rank");
  int64_t rank = 0;
  for (simdjson::dom::element label : simdjson::dom::array(across["traces"])) {
    EXPECT_EQ(std::string_view(label["label"]), "rank " + std::to_string(rank));
    EXPECT_EQ(int64_t(label["rank"]), rank);
    ++rank;
  }
  EXPECT_EQ(rank, 2);
  for (simdjson::dom::element t : simdjson::dom::array(doc["traces"]))
    EXPECT_EQ(int64_t(t["distributed"]["world_size"]), 2);
  EXPECT_EQ(int64_t(across["compared_regions"]), 3);
  for (simdjson::dom::element row : simdjson::dom::array(across["regions"])) {
    SCOPED_TRACE(std::string_view(row["name"]));
    EXPECT_EQ(int64_t(row["gpu_busy_us"]["slowest"]), 1);
    EXPECT_TRUE(bool(row["kernel_counts_differ"]));
    EXPECT_EQ(double(simdjson::dom::array(row["kernels"]["by_trace"]).at(0)), 43);
  }
  expect_across_traces_agree_with_each_trace(doc);

  auto text = run_cli_split("analyze " + std::string(ATTNPROF_TEST_DATA) + "/ranks");
  EXPECT_NE(text.out.find("across 2 traces (named by rank;"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("43 on rank 0"), std::string::npos) << text.out;
}

TEST(AnalyzeMany, AnErrorInOneFileStillReportsTheOthers) {
  TraceSet set;
  set.copy("study_naive.json.gz", "a.json.gz");
  const std::string bad = set.truncated("study_inplace.json.gz", "b.json");
  set.copy("study_sdpa-flash.json.gz", "c.json.gz");
  for (const char* jobs : {"1", "3"}) {
    SCOPED_TRACE(jobs);
    auto r =
        run_cli_split(std::string("analyze --region forward --jobs ") + jobs + " " + set.dir());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(count_lines(r.err), 1u) << r.err;
    EXPECT_NE(r.err.find(bad), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find(set.path("a.json.gz") + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(set.path("c.json.gz") + "\n"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("not read (1 of 3 traces"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  " + bad + "\n"), std::string::npos) << r.out;
  }
  auto json = run_cli_split("analyze --format json " + set.dir());
  EXPECT_EQ(json.exit_code, 2);
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(simdjson::padded_string(json.out));
  EXPECT_EQ(simdjson::dom::array(doc["traces"]).size(), 2u);
  simdjson::dom::array errors = doc["errors"];
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(std::string_view((*errors.begin())["path"]), bad);
}

TEST(AnalyzeMany, AFolderWithoutTracesBesideAGoodTrace) {
  TraceSet empty;
  empty.write("notes.txt", "");
  auto r = run_cli_split("analyze " + fixture("study_naive.json.gz") + " " + empty.dir());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(count_lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(empty.dir() + ": a directory with no trace"), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(fixture("study_naive.json.gz")), std::string::npos);
  EXPECT_EQ(r.out.find("across"), std::string::npos) << "one trace read: nothing to compare";
}

TEST(AnalyzeMany, JobsMustBePositive) {
  EXPECT_EQ(run_cli_split("analyze --jobs 0 " + fixture("study_naive.json.gz")).exit_code, 2);
}

// Feeds `bytes` into the FIFO at `path` in pieces over about `seconds`: a trace that takes that
// long to read, however fast the machine.
std::jthread slow_feed(std::string path, std::string bytes, double seconds) {
  return std::jthread([path = std::move(path), bytes = std::move(bytes), seconds] {
    int fd = -1;
    // Opening for writing blocks until a reader opens; poll so that a reader that never comes
    // (the CLI failed early) cannot hang the test.
    for (int tries = 0; fd < 0 && tries < 1000; ++tries) {
      fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
      if (fd < 0) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    if (fd < 0) return;
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    constexpr int kPieces = 20;
    const size_t piece = bytes.size() / kPieces + 1;
    for (size_t at = 0; at < bytes.size(); at += piece) {
      if (::write(fd, bytes.data() + at, std::min(piece, bytes.size() - at)) < 0) break;
      std::this_thread::sleep_for(std::chrono::duration<double>(seconds / kPieces));
    }
    ::close(fd);
  });
}

class SlowTrace : public ::testing::Test {
 protected:
  void SetUp() override {
    std::signal(SIGPIPE, SIG_IGN);  // the CLI may close the FIFO before the feeder is done
    ASSERT_EQ(::mkfifo(set_.path("slow.json.gz").c_str(), 0600), 0);
    gz_ = run_command("cat " + fixture("study_naive.json.gz")).output;
  }
  TraceSet set_;
  std::string gz_;
};

TEST_F(SlowTrace, NothingButResultsWhenStderrIsAPipe) {
  auto feeder = slow_feed(set_.path("slow.json.gz"), gz_, 0.8);
  auto r = run_cli_split("analyze " + set_.path("slow.json.gz") + " " +
                         fixture("study_inplace.json.gz"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  EXPECT_NE(r.out.find(set_.path("slow.json.gz") + "\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(fixture("study_inplace.json.gz") + "\n"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("reading"), std::string::npos);
  EXPECT_EQ(r.out.find('\r'), std::string::npos);
}

TEST_F(SlowTrace, OnATerminalTheLineIsDrawnThenErased) {
  auto feeder = slow_feed(set_.path("slow.json.gz"), gz_, 1.2);
  // Two at once, so that the quick trace is done while the slow one is still read: "1/2".
  auto r = run_cli_split(
      "analyze --jobs 2 " + set_.path("slow.json.gz") + " " + fixture("study_inplace.json.gz"),
      Stderr::kTerminal);
  if (r.exit_code == -1) GTEST_SKIP() << "no pseudo-terminal here";
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("\r\033[Kreading 1/2 traces  "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" MB/s  "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" events/s"), std::string::npos) << r.err;
  // Erased at the end: the last thing on the terminal clears the line, and no line was ended.
  ASSERT_GE(r.err.size(), 4u);
  EXPECT_EQ(r.err.substr(r.err.size() - 4), "\r\033[K");
  EXPECT_EQ(r.err.find('\n'), std::string::npos) << r.err;
  EXPECT_NE(r.out.find(fixture("study_inplace.json.gz") + "\n"), std::string::npos) << r.out;
}

TEST(AnalyzeMany, ASmallTraceDrawsNothingOnATerminal) {
  auto r = run_cli_split("analyze " + fixture("study_naive.json.gz"), Stderr::kTerminal);
  if (r.exit_code == -1) GTEST_SKIP() << "no pseudo-terminal here";
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.err, "");  // read in well under 0.3 s: no line, no flicker
  EXPECT_NE(r.out.find("study_naive.json.gz"), std::string::npos);
}

}  // namespace
}  // namespace attnprof
