// The time breakdown (analysis/time_breakdown.h): hand-made intervals whose answer is worked out
// below, and every region of the real traces, where the parts must add up to the GPU busy time
// that regions already report, and the span and memory time follow from the activities' rows.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/region_fact_catalog.h"
#include "analysis/regions/region_metrics.h"
#include "analysis/time_breakdown.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

TEST(TimeBreakdown, OverlapsCountedOnce) {
  using K = WorkKind;
  // compute [0,20) (two kernels overlapping), communication [15,30), memory [25,40) and [50,60):
  // communication overlaps compute on [15,20), memory overlaps communication on [25,30).
  TimeBreakdown b = time_breakdown({{50, 60, K::kMemory},
                                    {5, 20, K::kCompute},
                                    {15, 30, K::kCommunication},
                                    {0, 10, K::kCompute},
                                    {25, 40, K::kMemory}});
  EXPECT_EQ(b.span_ns, 60);
  EXPECT_EQ(b.compute_ns, 20);
  EXPECT_EQ(b.communication_union_ns, 15);
  EXPECT_EQ(b.communication_overlap_ns, 5);
  EXPECT_EQ(b.communication_ns, 10);
  EXPECT_EQ(b.memory_ns, 20);
  EXPECT_EQ(b.busy_ns, 50);  // [0,40) and [50,60)
  EXPECT_EQ(b.idle_ns, 10);
  ASSERT_TRUE(b.communication_overlap_pct());
  EXPECT_NEAR(*b.communication_overlap_pct(), 100.0 / 3, 1e-9);
}

TEST(TimeBreakdown, CommunicationInsideComputeIsAllOverlap) {
  using K = WorkKind;
  TimeBreakdown b = time_breakdown({{0, 100, K::kCompute}, {10, 40, K::kCommunication}});
  EXPECT_EQ(b.communication_ns, 0);
  EXPECT_EQ(b.busy_ns, 100);
  EXPECT_DOUBLE_EQ(*b.communication_overlap_pct(), 100.0);
}

TEST(TimeBreakdown, TouchingIntervalsLeaveNoIdle) {
  using K = WorkKind;
  TimeBreakdown b = time_breakdown({{5, 10, K::kMemory}, {0, 5, K::kCompute}});
  EXPECT_EQ(b.span_ns, 10);
  EXPECT_EQ(b.idle_ns, 0);
  EXPECT_EQ(b.compute_ns + b.memory_ns, 10);
  EXPECT_FALSE(b.communication_overlap_pct());  // no communication: none, not 0
}

// A region without GPU work: every figure 0 and the overlap none, no division by zero.
TEST(TimeBreakdown, NoWorkIsZeros) {
  TimeBreakdown b = time_breakdown({});
  EXPECT_EQ(b.span_ns, 0);
  EXPECT_EQ(b.busy_ns, 0);
  EXPECT_EQ(b.idle_ns, 0);
  EXPECT_FALSE(b.communication_overlap_pct());
  EXPECT_EQ(testing::analyze_fixture("cpu_only.json.gz").breakdown.span_ns, 0);
}

// Every region of these traces: the parts add up to the busy time regions report, the span is the
// rows' first start to last end, and where no copy overlaps a kernel the memory time is the sum
// of the copies' and memsets' durations.
TEST(TimeBreakdown, RealTracesAddUp) {
  for (const char* file : {"train_step.json.gz", "study_naive.json.gz", "cuda_graph.json.gz",
                           "foreign/hta_rocm_mi250.json.gz", "foreign/cnn_train.json.gz"}) {
    TraceAnalysis t = analyze_fixture(file);
    ASSERT_FALSE(t.regions.empty()) << file;
    for (const RegionSummary& r : t.regions) {
      const TimeBreakdown& b = r.breakdown;
      EXPECT_EQ(b.compute_ns + b.communication_ns + b.memory_ns, b.busy_ns) << file;
      EXPECT_EQ(b.busy_ns, r.gpu_busy_ns) << file << " " << r.name;
      EXPECT_EQ(b.busy_ns + b.idle_ns, b.span_ns) << file;
      EXPECT_GE(b.idle_ns, 0) << file;
      int64_t first = INT64_MAX, last = INT64_MIN, copies = 0;
      for (const ActivityRow& a : r.activities) {
        first = std::min(first, a.start_ns);
        last = std::max(last, a.start_ns + a.duration_ns);
        if (a.kind != ActivityKind::kKernel) copies += a.duration_ns;
      }
      if (r.activities.empty()) continue;
      EXPECT_EQ(b.span_ns, last - first) << file << " " << r.name;
      EXPECT_LE(b.memory_ns, copies) << file;
    }
    EXPECT_EQ(t.breakdown.compute_ns + t.breakdown.communication_ns + t.breakdown.memory_ns,
              t.breakdown.busy_ns)
        << file;
  }
}

// train_step's copies (3 DtoD memcpys, 3 memsets per step) run alone on the GPU: its memory time
// is exactly their summed duration, and a step holds no communication kernel (one GPU, no
// collective).
TEST(TimeBreakdown, TrainStepMemoryIsItsCopies) {
  TraceAnalysis t = analyze_fixture("train_step.json.gz");
  for (const RegionSummary& r : t.regions) {
    int64_t copies = 0;
    for (const ActivityRow& a : r.activities)
      if (a.kind != ActivityKind::kKernel) copies += a.duration_ns;
    EXPECT_EQ(r.breakdown.memory_ns, copies) << r.name;
    EXPECT_EQ(r.breakdown.communication_ns, 0);
    EXPECT_GT(r.breakdown.compute_ns, r.breakdown.memory_ns);
  }
}

// Rank 0 of a 128-rank NCCL job (HTA's test trace, tests/data/foreign/README.md): its first
// step's figures are HTA's temporal breakdown and overlap to the microsecond (docs/BREAKDOWN.md).
TEST(TimeBreakdown, NcclRankAsHtaHasIt) {
  TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  const TimeBreakdown& b = t.regions[0].breakdown;
  EXPECT_EQ(t.regions[0].name, "ProfilerStep#551");
  EXPECT_EQ(b.span_ns, 600058000);
  EXPECT_EQ(b.idle_ns, 321378000);
  EXPECT_EQ(b.compute_ns, 106252000);
  EXPECT_EQ(b.communication_ns, 172259000);  // ncclKernel_SendRecv, 5 a step
  EXPECT_EQ(b.memory_ns, 169000);
  ASSERT_TRUE(b.communication_overlap_pct());
  EXPECT_NEAR(*b.communication_overlap_pct(), 11.81, 0.005);
  // Communication that does not overlap compute is most of the step's busy time.
  EXPECT_GT(b.communication_ns, b.busy_ns / 2);
  EXPECT_EQ(t.facts.by_class[static_cast<size_t>(KernelClass::kCommunication)].count.median, 5);
}

// idle_pct is the idle time over the span, region by region, as HTA's temporal breakdown gives
// idle_time_pctg: rank 0's first step idles 321.378 ms of its 600.058 ms span. check reads the
// median over the two steps, and a trace without GPU work has none, and says why.
TEST(TimeBreakdown, IdlePctAsHtaHasIt) {
  TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  const RegionFact* idle_pct = find_region_fact("idle_pct");
  ASSERT_NE(idle_pct, nullptr);
  const MetricValue first = idle_pct->of_region(t.regions[0]);
  ASSERT_TRUE(first.available);
  EXPECT_NEAR(first.number.median, 100.0 * 321378 / 600058, 1e-9);
  const MetricValue second = idle_pct->of_region(t.regions[1]);
  ASSERT_TRUE(second.available);
  EXPECT_NEAR(second.number.median, 56.3068, 5e-5);
  const MetricValue median = metric_value(t, "idle_pct");
  ASSERT_TRUE(median.available);
  EXPECT_NEAR(median.number.median, (first.number.median + second.number.median) / 2, 1e-9);
  EXPECT_EQ(median.number.min, first.number.median);
  EXPECT_EQ(median.number.count, 2);

  auto none = testing::run_cli("check " + testing::fixture("cpu_only.json.gz") +
                               " --expect 'idle_pct < 50'");
  EXPECT_EQ(none.exit_code, 1) << none.output;
  EXPECT_NE(none.output.find("the region ran no GPU work"), std::string::npos) << none.output;
}

// Each stream's idle time by cause in the same step: HTA's idle-time breakdown of its own trace,
// stream by stream (docs/BREAKDOWN.md): the compute stream 7 waits on the host for 213.8 ms and
// for something else (the collectives on stream 84) for 261.7 ms.
TEST(TimeBreakdown, IdleByStreamAsHtaHasIt) {
  TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  const std::vector<StreamIdle>& idle = t.regions[0].idle_by_stream;
  ASSERT_EQ(idle.size(), 5u);
  struct Expected {
    int32_t stream;
    int64_t host_wait_us, kernel_gap_us, other_us;
  };
  const Expected expected[] = {{7, 213825, 1985, 261740},
                               {23, 596037, 70, 34},
                               {25, 0, 9, 47865},
                               {84, 148934, 6, 0},
                               {203, 0, 0, 0}};
  for (size_t i = 0; i < idle.size(); ++i) {
    EXPECT_EQ(idle[i].stream, expected[i].stream);
    EXPECT_EQ(idle[i].host_wait_ns, expected[i].host_wait_us * 1000) << idle[i].stream;
    EXPECT_EQ(idle[i].kernel_gap_ns, expected[i].kernel_gap_us * 1000) << idle[i].stream;
    EXPECT_EQ(idle[i].other_ns, expected[i].other_us * 1000) << idle[i].stream;
  }
}

// A gap is the host's when the launch came after the stream went idle, a kernel gap when launched
// in time and under 30 µs, other when longer; without a launch, by its length alone.
TEST(TimeBreakdown, IdleCauses) {
  std::vector<StreamIdle> idle = idle_by_stream({
      {1, 0, 100, 0},             // first on stream 1: no gap before it
      {1, 150, 200, 120},         // launched at 120, after 100: host wait 50
      {1, 210, 300, 50},          // launched in time, gap 10 < 30 µs: kernel gap
      {1, 100'300, 100'400, 60},  // launched in time, gap 100 µs: other
      {2, 0, 10, -1},
      {2, 40'010, 40'020, -1},  // no launch, 40 µs: other
  });
  ASSERT_EQ(idle.size(), 2u);
  EXPECT_EQ(idle[0].host_wait_ns, 50);
  EXPECT_EQ(idle[0].kernel_gap_ns, 10);
  EXPECT_EQ(idle[0].other_ns, 100'000);
  EXPECT_EQ(idle[0].busy_ns, 100 + 50 + 90 + 100);
  EXPECT_EQ(idle[1].other_ns, 40'000);
  EXPECT_EQ(idle[1].idle_ns(), 40'000);
}

// check reads the breakdown as metrics: train_step's steps compute for 299.7 µs and 299.6 µs
// (their kernels' union) and communicate not at all, so the overlap is unavailable, not 0.
TEST(TimeBreakdown, CheckMetrics) {
  const std::string trace = testing::fixture("train_step.json.gz");
  auto holds = testing::run_cli(
      "check " + trace +
      " --expect 'compute_us > 299.5 and compute_us < 299.8 and communication_us == 0 and "
      "memory_us > 18 and memory_us < 18.6 and idle_us > 2150 and span_us > 2400'");
  EXPECT_EQ(holds.exit_code, 0) << holds.output;
  auto overlap = testing::run_cli("check " + trace + " --expect 'communication_overlap_pct >= 0'");
  EXPECT_EQ(overlap.exit_code, 1) << overlap.output;
  EXPECT_NE(overlap.output.find("no region ran a communication kernel"), std::string::npos);
}

// diff shows each part of the breakdown: naive attention's copy (253 µs of memory) is gone with
// flash attention, and its idle gaps between kernels with it.
TEST(TimeBreakdown, DiffShowsIt) {
  auto r = testing::run_cli("diff " + testing::fixture("study_naive.json.gz") + " " +
                            testing::fixture("study_sdpa-flash.json.gz") + " --region forward");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("memory µs               253.2 (253.0..253.5)    0.0  "),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("GPU idle µs             13.4 (12.9..15.6)       0.0  "),
            std::string::npos)
      << r.output;
}

// The report draws each trace's typical region as compute, communication, memory and idle, with
// the communication overlap beside it: for a folder of ranks, one bar per rank.
TEST(TimeBreakdown, ReportDrawsIt) {
  testing::TempFile page("report.html", "");
  auto r =
      testing::run_cli("report " + testing::fixture("foreign/hta_nccl_rank0.json.gz") + " " +
                       testing::fixture("foreign/hta_nccl_rank1.json.gz") + " -o " + page.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(page.path(), std::ios::binary);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t section = html.find(R"(<section class="card" id="breakdown">)");
  ASSERT_NE(section, std::string::npos);
  EXPECT_NE(html.find("600.06 ms · 12 % of communication overlaps compute", section),
            std::string::npos);
  EXPECT_NE(html.find("600.67 ms · 20 % of communication overlaps compute", section),
            std::string::npos);
  // Rank 0's typical step: idle 321.38 ms of its 600.06 ms span.
  EXPECT_NE(html.find("idle: 321.38 ms (53.6 % of the 600.06 ms span)", section),
            std::string::npos);
}

}  // namespace
}  // namespace attnprof
