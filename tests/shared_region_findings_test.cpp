// Findings over regions that hold the same work (docs/SECURITY.md, "Limits and costs"): the rules
// work out each distinct member set once and count the regions that hold it
// (analysis/findings/finding_context.h). What they say must be what they said when every region
// was read anew, and their cost must not grow with the number of regions.

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "analysis/regions/regions.h"
#include "analysis/summarize.h"
#include "reader/read_trace.h"
#include "test_support.h"
#include "trace_set.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::TraceSet;

// The findings of `trace`'s regions, each region found `copies` times (the copies hold the same
// work as their original, so they share its member set).
std::vector<Finding> findings_with_copies(const Trace& trace, const std::string& pattern,
                                          size_t copies, size_t& regions) {
  const RegionSet found = find_regions(trace, pattern);
  RegionSet set = found;
  set.regions.clear();
  for (const Region& region : found.regions)
    for (size_t i = 0; i < copies; ++i) set.regions.push_back(region);
  const RegionMembers members = assign_to_regions(trace, set);
  EXPECT_EQ(members.sets.size(), found.regions.size());
  AnalyzeOptions options;
  options.explain = true;
  options.reading_workers = 1;  // the findings in this thread
  regions = set.regions.size();
  return summarize_regions(trace, set, members, options).findings;
}

// "3 of 9 regions" -> "N of N regions", and the evidence's region labels ("forward #4:")
// without their number: the parts that depend on how many regions there are.
std::string without_counts(const std::string& text) {
  static const std::regex counts(R"(\d+ of \d+ regions)"), label(R"( #\d+:)");
  return std::regex_replace(std::regex_replace(text, counts, "N of N regions"), label, " #:");
}

// Real traces with many findings between them: a hidden copy, not fused, an FP32 upcast, a mask
// rebuilt per call, a cold start on the CPU, launch-bound steps, graph replays, K/V repeated
// and split-KV in a decode step. Each region tripled: the same findings, each in three times
// the regions.
TEST(HostileScale, FindingsOfRegionsThatHoldTheSameWorkAreTheirOriginalsFindings) {
  struct Case {
    const char* fixture;
    const char* pattern;
  };
  const Case cases[] = {{"study_naive.json.gz", "forward"},
                        {"study_sdpa-math.json.gz", "forward"},
                        {"cudnn_cold_start.json.gz", "forward"},
                        {"small_launch_bound.json.gz", ""},
                        {"cuda_graph.json.gz", ""},
                        {"models/llama-decode-sdpa.json.gz", ""},
                        {"train_step.json.gz", ""}};
  size_t kinds_seen = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.fixture);
    auto trace = read_trace(fixture(c.fixture), Limits{});
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    size_t once_regions = 0, thrice_regions = 0;
    const std::vector<Finding> once = findings_with_copies(*trace, c.pattern, 1, once_regions);
    const std::vector<Finding> thrice = findings_with_copies(*trace, c.pattern, 3, thrice_regions);
    ASSERT_GT(once_regions, 0u);
    EXPECT_EQ(thrice_regions, 3 * once_regions);
    ASSERT_EQ(once.size(), thrice.size());
    kinds_seen += once.size();
    for (size_t i = 0; i < once.size(); ++i) {
      SCOPED_TRACE(std::string(finding_id(once[i].kind)));
      EXPECT_EQ(once[i].kind, thrice[i].kind);
      EXPECT_EQ(3 * once[i].regions_affected, thrice[i].regions_affected);
      // The CPU-side cost compares the first region with the median of the others and lists the
      // first four: tripled, the first's copies are among the others, so its numbers move.
      if (once[i].kind == FindingKind::kCpuSideCost) continue;
      EXPECT_EQ(without_counts(once[i].summary), without_counts(thrice[i].summary));
      EXPECT_EQ(once[i].suggestion, thrice[i].suggestion);
      ASSERT_EQ(once[i].evidence.size(), thrice[i].evidence.size());
      for (size_t e = 0; e < once[i].evidence.size(); ++e)
        EXPECT_EQ(without_counts(once[i].evidence[e]), without_counts(thrice[i].evidence[e]));
    }
  }
  EXPECT_GE(kinds_seen, 10u);
}

// The CPU seconds (user and system) that `attnprof ARGS` took, or -1 when it did not exit 0.
double cli_cpu_seconds(const std::vector<std::string>& args) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    std::vector<char*> argv;
    const char* cli = ATTNPROF_CLI;
    argv.push_back(const_cast<char*>(cli));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    ::execv(cli, argv.data());
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1;
  auto seconds = [](const timeval& t) { return double(t.tv_sec) + double(t.tv_usec) * 1e-6; };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

// `steps` ProfilerSteps that all span the whole trace, around 8,000 kernel launches.
std::string shared_steps(TraceSet& set, int steps) {
  std::string json = "{\"traceEvents\":[";
  for (int i = 0; i < steps; ++i)
    json += "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" +
            std::to_string(i) + "\",\"pid\":1,\"tid\":1,\"ts\":0,\"dur\":200000},";
  for (int i = 0; i < 8'000; ++i) {
    const std::string t = std::to_string(10 + 20 * i), id = std::to_string(i + 1);
    json +=
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":" +
        t + ",\"dur\":1,\"args\":{\"correlation\":" + id +
        "}},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" + t +
        ".5,\"dur\":2,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + id + "}},";
  }
  json.back() = ']';
  return set.write("steps-" + std::to_string(steps) + ".json", json + "}");
}

// Rules that read every step's activities anew take 21 s for 16,000 shared steps with --explain.
// 8,000 steps around 8,000 kernels (64 million region x activity pairs per pass, several passes
// per rule) cost what one step does, plus a little per step; the bound is loose for the
// sanitizers and a shared VM.
TEST(HostileScale, FindingsOverSharedStepsCostWhatOneStepsDo) {
  TraceSet set;
  const std::string one = shared_steps(set, 1), many = shared_steps(set, 8'000);
  for (const char* command : {"analyze", "annotate", "report"}) {
    SCOPED_TRACE(command);
    std::vector<std::string> args = {command};
    if (std::string(command) == "analyze") args.push_back("--explain");
    auto run = [&](const std::string& trace) {
      std::vector<std::string> a = args;
      a.push_back(trace);
      if (std::string(command) != "analyze") {
        a.push_back("-o");
        a.push_back(set.path(std::string(command) + ".out"));
      }
      return cli_cpu_seconds(a);
    };
    const double one_step = run(one), steps = run(many);
    ASSERT_GE(one_step, 0);
    ASSERT_GE(steps, 0) << "the 8,000 steps failed";
    EXPECT_LT(steps, 4 * one_step + 1.0) << steps << " s against " << one_step << " s";
  }
}

}  // namespace
}  // namespace attnprof
