// Old and odd traces (docs/FUZZING.md): each fixture of tests/data/odd imitates one older Kineto
// version or one oddity of real files (tests/data/README.md says which, and make_odd_fixtures.py
// how it was cut from study_naive.json.gz). Each is either read right, and checked against the real
// trace it came from, or reported: a warning saying what was seen, how often, and what attnprof
// did about it. Small inline traces pin the rules the fixtures rest on.

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::TempFile;

Trace read_ok(const std::string& path) {
  auto t = read_trace(path, Limits{});
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

Trace read_text(const std::string& json) {
  TempFile file("inline.json", json);
  return read_ok(file.path());
}

TraceAnalysis analyze_text(const std::string& json, const std::string& region = {}) {
  TempFile file("inline.json", json);
  AnalyzeOptions options;
  options.region_pattern = region;
  options.activities_of_every_region = true;
  auto t = analyze_file(file.path(), options);
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

// The first kept detail of a kind, or "".
std::string detail_of(const Diagnostics& d, DiagnosticKind kind) {
  for (const auto& e : d.first())
    if (e.kind == kind) return e.detail;
  return {};
}

std::string all_details(const Diagnostics& d) {
  std::string out;
  for (const auto& e : d.first())
    out += std::string(diagnostic_name(e.kind)) + ": " + e.detail + "\n";
  return out;
}

// The real region a fixture was cut from: study_naive's ProfilerStep#N.
const RegionSummary& real_step(const TraceAnalysis& real, const std::string& name) {
  for (const auto& r : real.regions)
    if (r.name == name) return r;
  throw std::runtime_error("no " + name);
}

// The same GPU work, in order, with the same launches and op chains; durations within `slack_ns`
// (the old versions wrote whole microseconds).
void expect_same_activities(const RegionSummary& got, const RegionSummary& want, int64_t slack_ns) {
  EXPECT_EQ(got.kernels, want.kernels);
  EXPECT_EQ(got.memcpy, want.memcpy);
  EXPECT_EQ(got.memset, want.memset);
  ASSERT_EQ(got.activities.size(), want.activities.size());
  for (size_t i = 0; i < got.activities.size(); ++i) {
    SCOPED_TRACE(i);
    const ActivityRow& a = got.activities[i];
    const ActivityRow& b = want.activities[i];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.launch_api, b.launch_api);
    EXPECT_EQ(a.op_chain, b.op_chain);
    EXPECT_EQ(a.grid, b.grid);
    EXPECT_EQ(a.block, b.block);
    EXPECT_EQ(a.registers_per_thread, b.registers_per_thread);
    EXPECT_EQ(a.bytes, b.bytes);
    EXPECT_NEAR(a.duration_ns, b.duration_ns, slack_ns);
  }
  EXPECT_NEAR(got.gpu_busy_ns, want.gpu_busy_ns, 4 * slack_ns);
  EXPECT_NEAR(got.wall_ns, want.wall_ns, slack_ns);
}

// --- Older Kineto versions ----------------------------------------------------------------------

TEST(OddTraces, PyTorch18ReadsLikeToday) {
  // PyTorch 1.8 (libkineto 2020-12..2021-04): a bare array, "Operator"/"Runtime"/"Kernel"/
  // "Memcpy"/"Memset", "external id" in lower case, "async" launch flows, string tids, whole
  // microseconds, no deviceProperties. ProfilerStep#3 is an "Operator" and still a step; "forward"
  // is an op too, and --region forward finds it among the ops.
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz", "forward");
  TraceAnalysis steps = analyze_fixture("odd/pytorch_1_8.json");
  ASSERT_EQ(steps.regions.size(), 1u);
  EXPECT_EQ(steps.regions[0].name, "ProfilerStep#3");
  EXPECT_TRUE(steps.devices.empty());
  // Every spelling understood: the one warning is that scopes are ops in this format.
  EXPECT_EQ(steps.diagnostics.total(), 1u);
  EXPECT_EQ(steps.diagnostics.count(DiagnosticKind::kScopesAsOps), 1u);

  TraceAnalysis forward = analyze_fixture("odd/pytorch_1_8.json", "forward");
  ASSERT_EQ(forward.regions.size(), 1u);
  expect_same_activities(forward.regions[0], real.regions[1], 1000);
  EXPECT_NE(detail_of(forward.diagnostics, DiagnosticKind::kScopesAsOps).find("1 op(s)"),
            std::string::npos);
  // CPU time is that of the ops under the scope, as under an annotation (whole microseconds here).
  EXPECT_NEAR(forward.regions[0].cpu_ns, real.regions[1].cpu_ns, 3000);
  // Without deviceProperties there is no occupancy estimate, and no "est. achieved occupancy %".
  for (const auto& a : forward.regions[0].activities) {
    EXPECT_FALSE(a.occupancy_pct);
    EXPECT_FALSE(a.kineto_occupancy_pct);
  }
}

TEST(OddTraces, PyTorch111ReadsLikeToday) {
  // PyTorch 1.11 (libkineto 2021-11..2022-04): cuda_runtime but "Kernel"/"Memcpy"/"Memset", no
  // External id on GPU work (linked by correlation alone), "gpu_user_Annotation", launch flows
  // "async_cpu_to_gpu".
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz");
  TraceAnalysis t = analyze_fixture("odd/pytorch_1_11.json");
  ASSERT_EQ(t.regions.size(), 1u);
  expect_same_activities(t.regions[0], real_step(real, "ProfilerStep#3"), 1000);
  EXPECT_EQ(t.diagnostics.total(), 0u) << all_details(t.diagnostics);
  Trace trace = read_ok(testing::fixture("odd/pytorch_1_11.json"));
  EXPECT_EQ(std::count_if(trace.gpu_activities.begin(), trace.gpu_activities.end(),
                          [](const GpuActivity& a) { return a.kind == GpuKind::kUserAnnotation; }),
            1);
  EXPECT_TRUE(trace.flows.empty());  // launch flows repeat the correlation ids: not kept
}

TEST(OddTraces, PyTorch21ExternalIdThatIsACorrelationNamesNoOp) {
  // PyTorch 1.12-2.2 (libkineto 2022-10..2024-02) wrote a runtime call's and a GPU activity's
  // own correlation id as "External id". The DtoD copy of ProfilerStep#2 lost its runtime call;
  // an op of ProfilerStep#4 has External id 117, the copy's correlation id: taking it would move
  // the copy to the wrong step.
  Trace trace = read_ok(testing::fixture("odd/pytorch_2_1.json"));
  auto stranger = std::find_if(
      trace.host_events.begin(), trace.host_events.end(),
      [](const HostEvent& e) { return e.kind == HostKind::kCpuOp && e.external_id == 117; });
  ASSERT_NE(stranger, trace.host_events.end());

  TraceAnalysis t = analyze_fixture("odd/pytorch_2_1.json");
  ASSERT_EQ(t.regions.size(), 2u);
  EXPECT_EQ(t.regions[0].name, "ProfilerStep#2");
  EXPECT_GT(stranger->start_ns, t.regions[0].start_ns + t.regions[0].wall_ns);
  // The copy whose call was lost is in no step: a reading by launch has nothing to place it by,
  // and its GPU time is no launch (it once made ProfilerStep#2 hold it).
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 5);
    EXPECT_EQ(r.memset, 1);
  }
  EXPECT_EQ(t.regions[0].memcpy, 0);
  EXPECT_EQ(t.regions[1].memcpy, 1);
  EXPECT_EQ(t.outside_regions.activities, 1);
  EXPECT_EQ(t.outside_regions.carried_in, 0);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kWorkOutsideRegions), 1u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kActivityWithoutLaunch), 1u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kExternalIdIsCorrelation), 1u);
  EXPECT_NE(
      detail_of(t.diagnostics, DiagnosticKind::kExternalIdIsCorrelation).find("correlation 117"),
      std::string::npos);
  // Every activity in a region has its launch and op, whatever its External id says.
  for (const auto& r : t.regions)
    for (const auto& a : r.activities) {
      EXPECT_FALSE(a.op_chain.empty()) << a.name;
      EXPECT_FALSE(a.launch_api.empty()) << a.name;
    }
}

// --- Several processes in one file --------------------------------------------------------------

TEST(OddTraces, TwoRanksInOneFileStayApart) {
  // Ranks 0 and 1 merged into one file; rank 1's correlation ids run 80 ahead, so its step 3 has
  // exactly the ids of rank 0's step 4.
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz");
  TraceAnalysis t = analyze_fixture("odd/two_ranks.json");
  ASSERT_EQ(t.regions.size(), 4u);
  const std::vector<std::pair<std::string, int32_t>> want = {{"ProfilerStep#3", 469},
                                                             {"ProfilerStep#3", 5207},
                                                             {"ProfilerStep#4", 469},
                                                             {"ProfilerStep#4", 5207}};
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(t.regions[i].name, want[i].first);
    EXPECT_EQ(t.regions[i].pid, want[i].second);
    expect_same_activities(t.regions[i], real_step(real, want[i].first), 0);
    for (const auto& a : t.regions[i].activities) EXPECT_EQ(a.stream, 7);
  }
  EXPECT_EQ(t.region_pids, (std::vector<int32_t>{469, 5207}));
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kSeveralProcesses), 1u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kDuplicateCorrelation), 8u);
  const std::string shared = detail_of(t.diagnostics, DiagnosticKind::kDuplicateCorrelation);
  EXPECT_NE(shared.find("2 processes (469, 5207)"), std::string::npos) << shared;
  EXPECT_NE(shared.find("drives its device"), std::string::npos) << shared;

  // Each GPU activity's launch is in the process of its GPU, and starts before it.
  Trace trace = read_ok(testing::fixture("odd/two_ranks.json"));
  for (size_t g = 0; g < trace.gpu_activities.size(); ++g) {
    const GpuActivity& a = trace.gpu_activities[g];
    if (a.kind == GpuKind::kUserAnnotation) continue;
    HostEventId launch = trace.activity_launch[g];
    ASSERT_NE(launch, kNoId);
    EXPECT_EQ(trace.host_events[launch].pid, a.device == 0 ? 469 : 5207);
    EXPECT_LE(trace.host_events[launch].start_ns, a.start_ns);
  }

  // Text and JSON name each region's process.
  auto text = testing::run_cli("analyze " + testing::fixture("odd/two_ranks.json"));
  EXPECT_NE(text.output.find("pid"), std::string::npos);
  EXPECT_NE(text.output.find(fmt::format("{:<24} {:>8}", "ProfilerStep#3", 5207)),
            std::string::npos)
      << text.output;
  auto json = testing::run_cli("analyze --format json " + testing::fixture("odd/two_ranks.json"));
  EXPECT_NE(json.output.find("\"pid\": 5207"), std::string::npos);
  EXPECT_NE(json.output.find("\"several_processes\": 1"), std::string::npos);
  auto md = testing::run_cli("analyze --format md " + testing::fixture("odd/two_ranks.json"));
  EXPECT_NE(md.output.find("regions of several processes"), std::string::npos) << md.output;
}

TEST(OddTraces, AWholeTraceRegionOverSeveralProcessesIsSaidSo) {
  const std::string op = R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "tid": 1, "dur": 5)";
  TraceAnalysis t = analyze_text(R"({"traceEvents": [)" + op + R"(, "pid": 10, "ts": 1},)" + op +
                                 R"(, "pid": 20, "ts": 2}]})");
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kSeveralProcesses), 1u);
  EXPECT_NE(
      detail_of(t.diagnostics, DiagnosticKind::kSeveralProcesses).find("2 processes (pids 10, 20)"),
      std::string::npos);
}

// --- Events out of order ------------------------------------------------------------------------

TEST(OddTraces, UnsortedEventsReadAsSorted) {
  // ProfilerStep#2 and #3 with every event shuffled: the same regions, ops, links and times as
  // the real trace, to the nanosecond.
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz");
  TraceAnalysis t = analyze_fixture("odd/unsorted.json");
  ASSERT_EQ(t.regions.size(), 2u);
  for (const auto& r : t.regions) {
    SCOPED_TRACE(r.name);
    const RegionSummary& want = real_step(real, r.name);
    expect_same_activities(r, want, 0);
    EXPECT_EQ(r.start_ns, want.start_ns);
    EXPECT_EQ(r.cpu_ns, want.cpu_ns);
    for (size_t i = 0; i < r.activities.size(); ++i)
      EXPECT_EQ(r.activities[i].start_ns, want.activities[i].start_ns);
  }
  EXPECT_EQ(t.diagnostics.total(), 0u);
}

// --- Correlation ids shared by several launches -------------------------------------------------

TEST(OddTraces, RestartedIdsLinkEachActivityToItsOwnSession) {
  // Two sessions of one process, 50 ms apart, with the same correlation and External ids.
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz");
  TraceAnalysis t = analyze_fixture("odd/restarted_ids.json");
  ASSERT_EQ(t.regions.size(), 2u);
  for (const auto& r : t.regions) expect_same_activities(r, real_step(real, "ProfilerStep#3"), 0);
  EXPECT_EQ(t.regions[1].start_ns - t.regions[0].start_ns, 50'000'000);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kDuplicateCorrelation), 8u);
  EXPECT_NE(detail_of(t.diagnostics, DiagnosticKind::kDuplicateCorrelation)
                .find("in process 469: each GPU activity is linked to the one that started last "
                      "before it"),
            std::string::npos);
  Trace trace = read_ok(testing::fixture("odd/restarted_ids.json"));
  for (size_t g = 0; g < trace.gpu_activities.size(); ++g) {
    if (trace.gpu_activities[g].kind == GpuKind::kUserAnnotation) continue;
    const int64_t delay =
        trace.gpu_activities[g].start_ns - trace.host_events[trace.activity_launch[g]].start_ns;
    EXPECT_GE(delay, 0);
    EXPECT_LT(delay, 10'000'000);  // its own session's launch, not one 50 ms away
  }
}

// Two processes; pid 1 drives device 0 and pid 2 device 1 (ids 10 and 11 say so). Id 50 is both
// processes': pid 1's launch at 100 us, pid 2's at 200 us. Device 0's activity starts at 300 us,
// queued behind other work: the last launch before it is pid 2's, yet it is pid 1's.
std::string shared_id_trace(bool with_unshared_ids) {
  auto launch = [](int pid, int corr, int ts) {
    return fmt::format(
        R"({{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",)"
        R"("pid": {}, "tid": {}, "ts": {}, "dur": 5, "args": {{"correlation": {}}}}},)",
        pid, pid, ts, corr);
  };
  auto kernel = [](int device, int corr, int ts) {
    return fmt::format(R"({{"ph": "X", "cat": "kernel", "name": "k{}", "pid": {}, "tid": 7,)"
                       R"("ts": {}, "dur": 5, "args": {{"device": {}, "correlation": {}}}}},)",
                       corr, device, ts, device, corr);
  };
  std::string events;
  if (with_unshared_ids)
    events += launch(1, 10, 10) + kernel(0, 10, 20) + launch(2, 11, 12) + kernel(1, 11, 30);
  events += launch(1, 50, 100) + launch(2, 50, 200) + kernel(0, 50, 300) + kernel(1, 50, 250);
  events.pop_back();
  return "{\"traceEvents\": [" + events + "]}";
}

TEST(OddTraces, ASharedIdGoesToTheProcessThatDrivesTheDevice) {
  Trace t = read_text(shared_id_trace(true));
  for (size_t g = 0; g < t.gpu_activities.size(); ++g) {
    const GpuActivity& a = t.gpu_activities[g];
    ASSERT_NE(t.activity_launch[g], kNoId);
    EXPECT_EQ(t.host_events[t.activity_launch[g]].pid, a.device + 1) << g;
  }
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kDuplicateCorrelation), 1u);
  EXPECT_NE(detail_of(t.diagnostics, DiagnosticKind::kDuplicateCorrelation)
                .find("correlation 50 is shared by 2 launches (cudaLaunchKernel) in 2 processes "
                      "(1, 2): each GPU activity is linked to the launch of the process that "
                      "drives its device"),
            std::string::npos);
}

TEST(OddTraces, ASharedIdWithNoKnownProcessIsAGuessAndSaysSo) {
  Trace t = read_text(shared_id_trace(false));
  const std::string detail = detail_of(t.diagnostics, DiagnosticKind::kDuplicateCorrelation);
  EXPECT_NE(detail.find("2 GPU activities are linked to the launch that started last before "
                        "them, of any process"),
            std::string::npos)
      << detail;
  EXPECT_NE(detail.find("a guess"), std::string::npos);
}

// --- Clock skew ---------------------------------------------------------------------------------

TEST(OddTraces, ClockSkewIsMeasuredAndRegionsStayRight) {
  // ProfilerStep#3 with the GPU timeline 3 ms early: each activity still belongs to its step
  // (placed by its launch), its times within the GPU timeline are unchanged, and the warning
  // says by how much the GPU runs ahead of its launches.
  const TraceAnalysis real = analyze_fixture("study_naive.json.gz");
  TraceAnalysis t = analyze_fixture("odd/clock_skew.json");
  ASSERT_EQ(t.regions.size(), 1u);
  const RegionSummary& want = real_step(real, "ProfilerStep#3");
  expect_same_activities(t.regions[0], want, 0);
  for (size_t i = 0; i < want.activities.size(); ++i)
    EXPECT_EQ(t.regions[0].activities[i].start_ns, want.activities[i].start_ns - 3'000'000);

  // How early each activity is: 3 ms less its real launch delay, read off the real trace.
  Trace original = read_ok(testing::fixture("study_naive.json.gz"));
  int64_t least = INT64_MAX, most = 0;
  int early = 0;
  for (size_t g = 0; g < original.gpu_activities.size(); ++g) {
    const GpuActivity& a = original.gpu_activities[g];
    if (a.kind == GpuKind::kUserAnnotation || a.start_ns < want.start_ns ||
        a.start_ns >= want.start_ns + want.wall_ns)
      continue;
    const int64_t e =
        original.host_events[original.activity_launch[g]].start_ns - (a.start_ns - 3'000'000);
    ASSERT_GT(e, 0);
    ++early;
    least = std::min(least, e);
    most = std::max(most, e);
  }
  ASSERT_EQ(early, 7);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kGpuBeforeLaunch), 7u);
  const std::string expected = fmt::format(
      "7 of 7 GPU activities start before the call that launched them, by {:.1f} to "
      "{:.1f} µs: the trace's GPU clock runs behind its CPU clock",
      least / 1e3, most / 1e3);
  EXPECT_EQ(detail_of(t.diagnostics, DiagnosticKind::kGpuBeforeLaunch).rfind(expected, 0), 0u)
      << expected;
  EXPECT_EQ(real.diagnostics.count(DiagnosticKind::kGpuBeforeLaunch), 0u);
}

// --- The reader's rules for old spellings -------------------------------------------------------

TEST(OddTraces, EveryOldSpellingIsKnown) {
  // One event per spelling (libkineto's output_json.cpp and ActivityType.cpp since 2020-09).
  const std::string json = R"({"traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "ProfilerStep#1", "pid": 1, "tid": "9", "ts": 0, "dur": 100},
    {"ph": "X", "cat": "Operator", "name": "aten::mm", "pid": 1, "tid": "9", "ts": 1, "dur": 50,
     "args": {"External id": 2}},
    {"ph": "X", "cat": "Runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": "9", "ts": 2, "dur": 5,
     "args": {"correlation": 5, "external id": 2}},
    {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 10, "dur": 5,
     "args": {"device": 0, "stream": 7, "correlation": 5, "external id": 2}},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 1,
     "args": {"device": 0, "stream": 7, "correlation": 6, "external id": 2}},
    {"ph": "X", "cat": "Memset", "name": "Memset", "pid": 0, "tid": "stream 7", "ts": 30, "dur": 1,
     "args": {"device": 0, "stream": 7, "correlation": 7, "external id": 0}},
    {"ph": "X", "cat": "User", "name": "fwd", "pid": 0, "tid": "stream 7 user", "ts": 9, "dur": 30},
    {"ph": "X", "cat": "gpu_user_Annotation", "name": "fwd", "pid": 0, "tid": 7, "ts": 9, "dur": 30},
    {"ph": "s", "cat": "async", "name": "launch", "id": 5, "pid": 1, "tid": 9, "ts": 2},
    {"ph": "f", "cat": "async_cpu_to_gpu", "name": "async_gpu", "id": 5, "pid": 0, "tid": 7, "ts": 10, "bp": "e"},
    {"ph": "s", "cat": "forward_backward", "name": "fwd_bwd", "id": 8, "pid": 1, "tid": 9, "ts": 1},
    {"ph": "f", "cat": "forward_backward", "name": "fwd_bwd", "id": 8, "pid": 1, "tid": 9, "ts": 60, "bp": "e"},
    {"ph": "s", "cat": "cpu_to_cuda", "name": "k", "id": 1, "pid": 1, "tid": 9, "ts": 2}
  ]})";
  Trace t = read_text(json);
  // Nothing unknown, no unpaired flow: only the copy and the memset, whose launches are not in
  // this trace.
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kActivityWithoutLaunch), 2u);
  EXPECT_EQ(t.diagnostics.total(), 2u) << all_details(t.diagnostics);
  EXPECT_TRUE(t.legacy_operators);
  ASSERT_EQ(t.host_events.size(), 3u);
  EXPECT_EQ(t.host_events[0].kind, HostKind::kUserAnnotation);  // ProfilerStep#1
  EXPECT_EQ(t.host_events[1].kind, HostKind::kCpuOp);
  EXPECT_EQ(t.host_events[2].kind, HostKind::kRuntime);
  EXPECT_EQ(t.host_events[2].external_id, 2);  // "external id", lower case
  ASSERT_EQ(t.gpu_activities.size(), 5u);
  int annotations = 0;
  for (size_t g = 0; g < t.gpu_activities.size(); ++g) {
    const GpuActivity& a = t.gpu_activities[g];
    if (a.kind == GpuKind::kUserAnnotation) {
      ++annotations;
      continue;
    }
    EXPECT_EQ(a.stream, 7);
    if (a.kind == GpuKind::kKernel || a.kind == GpuKind::kMemcpy) {
      // aten::mm: the kernel by nesting, the copy (no launch) by its "external id" 2
      EXPECT_EQ(t.activity_op[g], HostEventId(1));
    }
    if (a.kind == GpuKind::kMemset) {
      EXPECT_EQ(a.external_id, kNoValue);  // "external id": 0 meant none
      EXPECT_EQ(t.activity_op[g], kNoId);
    }
  }
  EXPECT_EQ(annotations, 2);
  // Launch flows are not kept (they repeat correlation ids); forward-backward ones are, paired.
  ASSERT_EQ(t.flows.size(), 2u);
  EXPECT_EQ(t.strings.view(t.flows[0].category), "forward_backward");
}

TEST(OddTraces, WideThreadIdsStayApart) {
  // PyTorch 1.8 wrote pthread ids cut to 32 bits, as strings on most events but as numbers on
  // launch flows; other tools write them whole. Two such threads must not merge (they would if
  // clamped to 32 bits), and the string and the number of one thread are one thread.
  const std::string json = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "outer", "pid": 1, "tid": 4093687616, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "other thread", "pid": 1, "tid": 4093687617, "ts": 10, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "inner", "pid": 1, "tid": "4093687616", "ts": 20, "dur": 10},
    {"ph": "X", "cat": "cpu_op", "name": "huge pid", "pid": 140737488355328, "tid": 1, "ts": 0, "dur": 1}
  ]})";
  Trace t = read_text(json);
  auto find = [&](std::string_view name) {
    for (size_t i = 0; i < t.host_events.size(); ++i)
      if (t.strings.view(t.host_events[i].name) == name) return static_cast<HostEventId>(i);
    return HostEventId();
  };
  const HostEventId outer = find("outer"), other = find("other thread"), inner = find("inner");
  EXPECT_NE(t.host_events[outer].tid, t.host_events[other].tid);
  EXPECT_EQ(t.host_events[outer].tid, t.host_events[inner].tid);
  EXPECT_EQ(t.host_parent[other], kNoId);
  EXPECT_EQ(t.host_parent[inner], outer);
  EXPECT_NE(t.host_events[find("huge pid")].pid, t.host_events[outer].pid);
}

TEST(OddTraces, AnEventWithoutCategoryIsNamedForWhatItIs) {
  // The autograd profiler before Kineto wrote X events without "cat".
  Trace t = read_text(R"({"traceEvents": [{"name": "mm", "ph": "X", "ts": 1, "dur": 2, "tid": 0,
                          "pid": "CPU functions", "args": {}}]})");
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kMissingField), 1u);
  EXPECT_NE(detail_of(t.diagnostics, DiagnosticKind::kMissingField).find("before Kineto"),
            std::string::npos);
}

}  // namespace
}  // namespace attnprof
