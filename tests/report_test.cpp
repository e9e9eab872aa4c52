// `attnprof report`: the region timeline as data, the run summary read back, and the HTML and
// Markdown of the shipped H200 study (examples/h200-study) and of plain traces. The page in a real
// browser is tests/browser/report_in_chromium.sh (CTest label `browser`).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "analysis/regions/region_timeline.h"
#include "analysis/regions/regions.h"
#include "analysis/summarize.h"
#include "base/format_units.h"
#include "pipeline/report_inputs.h"
#include "reader/read_trace.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "report_support.h"
#include "study/render/report.h"
#include "study/render/report_svg.h"
#include "study/run/run_summary.h"
#include "test_support.h"

namespace attnprof {
namespace {

const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";
const std::vector<std::string> kVariants = {
    "naive",      "inplace",    "sdpa-math",        "sdpa-efficient",
    "sdpa-flash", "sdpa-cudnn", "sdpa-auto (cudnn)"};

size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

// The text between `open` (first occurrence at or after `from`) and the next `close`.
std::string between(const std::string& text, const std::string& open, const std::string& close,
                    size_t from = 0) {
  size_t a = text.find(open, from);
  if (a == std::string::npos) return {};
  size_t b = text.find(close, a);
  return text.substr(a, b == std::string::npos ? std::string::npos : b - a);
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ReportData load(const std::vector<std::string>& inputs, const std::string& region = {}) {
  return testing::load_report_inputs(inputs, region);
}

// The typical `forward` region of a fixture, laid out.
RegionTimeline timeline_of(const std::string& fixture, const TimelineOptions& options = {}) {
  auto trace = read_trace(testing::fixture(fixture), Limits{});
  if (!trace.ok()) throw std::runtime_error(trace.error().message);
  AnalyzeOptions analyze;
  analyze.region_pattern = "forward";
  TraceAnalysis a = summarize_trace(*trace, analyze);
  RegionSet set = find_regions(*trace, "forward");
  RegionMembers members = assign_to_regions(*trace, set);
  const auto r = static_cast<size_t>(a.typical_region);
  return build_region_timeline(*trace, set.regions[r], members.activities(r),
                               a.regions[r].activities, options);
}

const TimelineLane* gpu_lane(const RegionTimeline& t) {
  for (const auto& lane : t.lanes)
    if (lane.gpu) return &lane;
  return nullptr;
}

TEST(RegionTimeline, NaiveForwardHasCpuLanesAboveGpuLanesAndALinkPerLaunch) {
  RegionTimeline t = timeline_of("study_naive.json.gz");
  ASSERT_GE(t.lanes.size(), 2u);
  EXPECT_FALSE(t.lanes.front().gpu);
  EXPECT_TRUE(t.lanes.back().gpu);
  // CPU lanes come first, then GPU lanes, never mixed.
  EXPECT_TRUE(std::is_partitioned(t.lanes.begin(), t.lanes.end(),
                                  [](const TimelineLane& l) { return !l.gpu; }));
  const TimelineLane* gpu = gpu_lane(t);
  ASSERT_NE(gpu, nullptr);
  // The study's naive forward: memset, GEMM, mul, the hidden DtoD copy, masked_fill, softmax, GEMM.
  ASSERT_EQ(gpu->spans.size(), 7u);
  EXPECT_EQ(t.activities.size(), 7u);
  EXPECT_EQ(t.links.size(), 7u);  // every GPU activity's launch is in the region
  int copies = 0;
  for (const auto& s : gpu->spans) {
    ASSERT_GE(s.activity, 0);
    EXPECT_EQ(s.name, t.activities[s.activity].short_name);
    if (s.kind == SpanKind::kMemcpy) {
      ++copies;
      EXPECT_EQ(s.kernel_class, KernelClass::kCopy);
      EXPECT_EQ(t.activities[s.activity].memcpy_kind, "DtoD");
    }
  }
  EXPECT_EQ(copies, 1);
  // Each link goes from a runtime or driver call on a CPU lane to a span on a GPU lane, and the
  // GPU work starts after its launch.
  for (const auto& link : t.links) {
    const TimelineSpan& from = t.lanes[link.from_lane].spans[link.from_span];
    const TimelineSpan& to = t.lanes[link.to_lane].spans[link.to_span];
    EXPECT_FALSE(t.lanes[link.from_lane].gpu);
    EXPECT_TRUE(t.lanes[link.to_lane].gpu);
    EXPECT_TRUE(from.kind == SpanKind::kRuntime || from.kind == SpanKind::kDriver) << from.name;
    EXPECT_GE(to.start_ns, from.start_ns);
  }
  // The region's annotation is the outermost CPU span; ops nest below it; the GPU runs on after
  // the CPU has left the region (the kernels are asynchronous).
  const TimelineLane& cpu = t.lanes.front();
  EXPECT_EQ(cpu.spans.front().name, "forward");
  EXPECT_EQ(cpu.spans.front().depth, 0);
  EXPECT_GE(cpu.levels, 3);
  EXPECT_GT(t.end_ns, t.region_duration_ns);
  EXPECT_FALSE(t.capped);
  for (const auto& lane : t.lanes)
    EXPECT_TRUE(std::is_sorted(
        lane.spans.begin(), lane.spans.end(),
        [](const TimelineSpan& a, const TimelineSpan& b) { return a.start_ns < b.start_ns; }));
}

TEST(RegionTimeline, CappedLanesKeepTheirLongestSpans) {
  TimelineOptions options;
  options.max_spans_per_lane = 3;
  RegionTimeline t = timeline_of("study_naive.json.gz", options);
  EXPECT_TRUE(t.capped);
  const TimelineLane* gpu = gpu_lane(t);
  ASSERT_NE(gpu, nullptr);
  ASSERT_EQ(gpu->spans.size(), 3u);
  EXPECT_EQ(gpu->spans_in_region, 7);
  RegionTimeline whole = timeline_of("study_naive.json.gz");
  std::vector<int64_t> durations;
  for (const auto& s : gpu_lane(whole)->spans) durations.push_back(s.duration_ns);
  std::sort(durations.rbegin(), durations.rend());
  for (const auto& s : gpu->spans) EXPECT_GE(s.duration_ns, durations[2]) << s.name;
  for (const auto& lane : t.lanes) EXPECT_LE(lane.spans.size(), 3u);
  // Links only join spans that were kept.
  for (const auto& link : t.links) {
    EXPECT_LT(static_cast<size_t>(link.from_span), t.lanes[link.from_lane].spans.size());
    EXPECT_LT(static_cast<size_t>(link.to_span), t.lanes[link.to_lane].spans.size());
  }
}

TEST(RegionTimeline, DepthCapLeavesDeepOpsOut) {
  TimelineOptions options;
  options.max_depth = 1;
  RegionTimeline t = timeline_of("study_sdpa-math.json.gz", options);
  EXPECT_TRUE(t.capped);
  for (const auto& lane : t.lanes)
    for (const auto& s : lane.spans) EXPECT_EQ(s.depth, 0) << s.name;
}

TEST(Svg, TicksLabelsAndFitting) {
  // Steps of 1, 2 or 5 times a power of ten, at least max / target apart.
  EXPECT_EQ(svg::linear_ticks(5.13e6, 5), (std::vector<double>{0, 2e6, 4e6}));
  EXPECT_EQ(svg::linear_ticks(5.13e6, 5, true), (std::vector<double>{0, 2e6, 4e6, 6e6}));
  EXPECT_EQ(svg::linear_ticks(190e3, 8), (std::vector<double>{0, 50e3, 100e3, 150e3}));
  EXPECT_EQ(svg::log_ticks(30e3, 3e6), (std::vector<double>{50e3, 100e3, 200e3, 500e3, 1e6, 2e6}));
  EXPECT_EQ(svg::log_ticks(30e3, 120e6), (std::vector<double>{100e3, 1e6, 10e6, 100e6}));
  EXPECT_EQ(svg::log2_ticks(3 << 20, 20 << 20), (std::vector<double>{4 << 20, 8 << 20, 16 << 20}));
  EXPECT_EQ(format_tick_duration(0), "0");
  EXPECT_EQ(format_tick_duration(500e3), "500 µs");
  EXPECT_EQ(format_tick_duration(1.5e6), "1.5 ms");
  EXPECT_EQ(format_tick_bytes(16 << 20), "16 MiB");
  EXPECT_EQ(format_duration(2259615.9), "2.26 ms");
  EXPECT_EQ(svg::fit("aten::masked_fill", 8), "aten::m…");
  EXPECT_EQ(svg::fit("µs µs", 5), "µs µs");  // code points, not bytes
  EXPECT_EQ(svg::fit("abc", 1), "");
  // Widths erring wide (DejaVu Sans): a label fit_width keeps whole draws within its room, a cut
  // one too, ellipsis included; "m" is wider than "i".
  EXPECT_DOUBLE_EQ(svg::text_width("mi", 10), 13.0);
  EXPECT_EQ(svg::fit_width("naive", 40, 11), "naive");
  const std::string cut = svg::fit_width("sm80_xmma_gemm_f32f32_f32f32_f32_tn_n", 120, 11);
  EXPECT_EQ(cut, "sm80_xmma_gem…");  // 104.3 px, and 11 for the ellipsis
  EXPECT_LE(svg::text_width(cut, 11), 120.0);
  EXPECT_EQ(svg::fit_width("µs", 5, 11), "");  // not even one glyph and the ellipsis
  EXPECT_EQ(svg::escape(R"(<a href="x">&'</a>)"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;");
  EXPECT_EQ(svg::text_on("#fdba74"), "#0f172a");
  EXPECT_EQ(svg::text_on("#2563eb"), "#ffffff");
}

TEST(RunSummary, ReadsTheShippedStudy) {
  auto run = read_run_summary(kStudy + "/summary.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->device, "NVIDIA H200");
  EXPECT_EQ(run->sm_count, 132);
  EXPECT_TRUE(run->sweep.empty());
  ASSERT_EQ(run->points.size(), 1u);
  const RunPoint& p = run->points[0];
  EXPECT_EQ(p.problem.seq, 2048);
  EXPECT_EQ(p.problem.dtype, "bf16");
  // Recorded before --kv-heads, --q-seq and --window: the defaults.
  EXPECT_EQ(p.problem.kv_heads, 16);
  EXPECT_EQ(p.problem.q_seq, 2048);
  EXPECT_EQ(p.problem.window, 0);
  ASSERT_EQ(p.variants.size(), 7u);
  const RunVariant& naive = p.variants[0];
  EXPECT_EQ(naive.variant, "naive");
  ASSERT_TRUE(naive.median_ms.has_value());
  EXPECT_NEAR(*naive.median_ms, 2.2820, 1e-3);
  ASSERT_TRUE(naive.forward.has_value());
  EXPECT_EQ(naive.forward->facts.memcpy_by_kind.at("DtoD").median, 1);
  // The findings as the bench ranked them, by the time each explains: the unfused passes (1.99 ms)
  // before the hidden copy (258 µs).
  ASSERT_GE(naive.forward->findings.size(), 2u);
  EXPECT_EQ(naive.forward->findings[0].id, "not-fused");
  EXPECT_EQ(naive.forward->findings[1].id, "hidden-copy");
  EXPECT_EQ(p.variants[6].chosen_backend, "cudnn");
  EXPECT_FALSE(naive.grad_error.has_value());  // null in the file
}

TEST(RunSummary, SweepCsvAgreesWithSweepSummary) {
  auto summary = read_run_summary(kStudy + "/sweep/summary.json");
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  ASSERT_EQ(summary->sweep.size(), 1u);
  EXPECT_EQ(summary->sweep[0].key, SweepKey::kSeq);
  EXPECT_EQ(summary->sweep[0].values, (std::vector<int64_t>{512, 1024, 2048, 4096, 8192}));
  std::vector<SweepRow> from_json = sweep_rows(*summary);
  auto from_csv = read_sweep_csv(kStudy + "/sweep/sweep.csv");
  ASSERT_TRUE(from_csv.ok()) << from_csv.error().message;
  ASSERT_EQ(from_csv->size(), from_json.size());
  ASSERT_EQ(from_json.size(), 35u);
  for (size_t i = 0; i < from_json.size(); ++i) {
    const SweepRow& a = from_json[i];
    const SweepRow& b = (*from_csv)[i];
    EXPECT_EQ(a.variant, b.variant);
    EXPECT_EQ(a.problem.seq, b.problem.seq);
    ASSERT_TRUE(a.median_ms && b.median_ms);
    EXPECT_NEAR(*a.median_ms, *b.median_ms, *a.median_ms * 1e-5);  // the CSV keeps 6 digits
    ASSERT_TRUE(a.peak_allocated_bytes && b.peak_allocated_bytes);
    EXPECT_NEAR(static_cast<double>(*a.peak_allocated_bytes),
                static_cast<double>(*b.peak_allocated_bytes),
                static_cast<double>(*a.peak_allocated_bytes) * 1e-5);
  }
}

TEST(RunSummary, ReadsKvHeadsQueriesAndWindow) {
  testing::TempFile file("summary.json", R"({"schemaVersion": 2, "points": [{"problem": {
    "batch": 8, "heads": 32, "kv_heads": 8, "q_seq": 1, "seq": 16384, "head_dim": 128,
    "window": 4096, "dtype": "bf16", "mask": "causal", "backward": false, "device": "cuda"},
    "variants": []}]})");
  auto run = read_run_summary(file.path());
  ASSERT_TRUE(run.ok()) << run.error().message;
  const RunProblem& p = run->points.at(0).problem;
  EXPECT_EQ(p.heads, 32);
  EXPECT_EQ(p.kv_heads, 8);
  EXPECT_EQ(p.q_seq, 1);
  EXPECT_EQ(p.seq, 16384);
  EXPECT_EQ(p.window, 4096);

  // sweep.csv: the new columns when present, the defaults when not (files before them).
  testing::TempFile with("sweep.csv",
                         "batch,heads,kv_heads,q_seq,seq,head_dim,window,variant,gpu_median_ms,"
                         "peak_allocated_bytes\n8,32,8,1,16384,128,4096,sdpa-flash,0.5,10\n");
  auto a = read_sweep_csv(with.path());
  ASSERT_TRUE(a.ok()) << a.error().message;
  EXPECT_EQ(a->at(0).problem.kv_heads, 8);
  EXPECT_EQ(a->at(0).problem.q_seq, 1);
  EXPECT_EQ(a->at(0).problem.window, 4096);
  testing::TempFile without("sweep.csv",
                            "heads,seq,variant,gpu_median_ms,peak_allocated_bytes\n16,512,x,1,1\n");
  auto b = read_sweep_csv(without.path());
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_EQ(b->at(0).problem.kv_heads, 16);
  EXPECT_EQ(b->at(0).problem.q_seq, 512);
  EXPECT_EQ(b->at(0).problem.window, 0);
}

TEST(RunSummary, BadFilesGetOneLineNamingThem) {
  testing::TempFile not_json("summary.json", "{\"schemaVersion\": 1, ");
  auto a = read_run_summary(not_json.path());
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find(not_json.path()), std::string::npos);
  EXPECT_EQ(a.error().message.find('\n'), std::string::npos);

  testing::TempFile future("summary.json", R"({"schemaVersion": 3, "points": []})");
  auto b = read_run_summary(future.path());
  ASSERT_FALSE(b.ok());
  EXPECT_NE(b.error().message.find("schemaVersion"), std::string::npos);

  // Version 1 (camelCase): the error says how to convert it.
  testing::TempFile camel("summary.json", R"({"schemaVersion": 1, "points": []})");
  auto v1 = read_run_summary(camel.path());
  ASSERT_FALSE(v1.ok());
  EXPECT_NE(v1.error().message.find("tools/summary_json_v2.py"), std::string::npos)
      << v1.error().message;

  testing::TempFile csv("sweep.csv", "batch,heads\n4,16\n");
  auto c = read_sweep_csv(csv.path());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("seq"), std::string::npos);

  EXPECT_FALSE(read_run_summary("/nonexistent/summary.json").ok());
}

TEST(RunSummary, NumbersOutOfRangeAndTracesOutsideTheFolderAreRefused) {
  // 1e300 wrapped silently to INT64_MIN when read as an integer.
  testing::TempFile huge("summary.json", R"({"schemaVersion": 2, "environment": {"sm_count": 1e300},
    "points": []})");
  auto a = read_run_summary(huge.path());
  ASSERT_FALSE(a.ok());
  EXPECT_NE(a.error().message.find("number out of range at $.environment.sm_count"),
            std::string::npos)
      << a.error().message;
  testing::TempFile big_int("summary.json",
                            R"({"schemaVersion": 2, "points": [{"variants": [
                               {"variant": "x", "peak_allocated_bytes": 18446744073709551615}]}]})");
  EXPECT_FALSE(read_run_summary(big_int.path()).ok());
  testing::TempFile csv("sweep.csv",
                        "seq,variant,gpu_median_ms,peak_allocated_bytes\n1,x,1,1e300\n");
  auto c = read_sweep_csv(csv.path());
  ASSERT_FALSE(c.ok());
  EXPECT_NE(c.error().message.find("out of range"), std::string::npos) << c.error().message;

  // A trace named outside the run's folder was opened and quoted in the page.
  for (const char* file : {"../../etc/passwd", "/etc/passwd", "traces/../../x.json"}) {
    testing::TempFile escape("summary.json",
                             fmt::format(R"({{"schemaVersion": 2, "points": [{{"variants": [
                      {{"variant": "naive", "status": "ok", "trace": {{"file": "{}"}}}}]}}]}})",
                                         file));
    auto d = read_run_summary(escape.path());
    ASSERT_FALSE(d.ok()) << file;
    EXPECT_NE(d.error().message.find("outside the run's folder"), std::string::npos)
        << d.error().message;
    auto r = testing::run_cli("report " + escape.dir() + " -o " + escape.dir() + "/r.html");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_EQ(r.output.find("root:"), std::string::npos);
  }
  testing::TempFile inside("summary.json", R"({"schemaVersion": 2, "points": [{"variants": [
                             {"variant": "naive", "trace": {"file": "traces/a..b.json"}}]}]})");
  EXPECT_TRUE(read_run_summary(inside.path()).ok());
}

TEST(RunSummary, SideFilesAreBounded) {
  Limits small;
  small.max_side_file_bytes = 1 << 20;
  auto zero = read_run_summary("/dev/zero", small);
  ASSERT_FALSE(zero.ok());
  EXPECT_NE(zero.error().message.find("larger than 1048576 bytes"), std::string::npos)
      << zero.error().message;
  EXPECT_NE(zero.error().message.find("--max-side-file-bytes"), std::string::npos);
  testing::TempFile dir("x");
  auto folder = read_sweep_csv(dir.dir());
  ASSERT_FALSE(folder.ok());
  EXPECT_NE(folder.error().message.find("is a directory"), std::string::npos)
      << folder.error().message;
}

// A run recorded before summary.json version 2 (camelCase) reads the same once converted.
TEST(RunSummary, AVersionOneFileConvertsToVersionTwo) {
  const std::string v1 = R"({
  "schemaVersion": 1,
  "tool": "attnprof bench",
  "environment": {
    "device": "NVIDIA H200",
    "smCount": 132,
    "computeCapability": "9.0",
    "cudaRuntime": "13.0"
  },
  "points": [
    {
      "problem": {
        "seq": 2048,
        "headDim": 64
      },
      "flopsPerCall": 68719476736,
      "variants": [
        {
          "variant": "naive",
          "status": "ok",
          "chosenBackend": "",
          "timing": {
            "medianMs": 2.2596
          },
          "peakAllocatedBytes": 2684354560,
          "trace": {
            "file": "naive.json.gz",
            "forward": {
              "regions": 5,
              "kernels": 5,
              "memcpy": 1,
              "memcpyByKind": {
                "DtoD": 1
              },
              "cpuUs": 220.5,
              "mainKernel": "softmax_warp_forward<...>",
              "launchApi": "cudaLaunchKernel",
              "occupancyPct": 37.5,
              "expectations": [
                {
                  "text": "kernels == 5",
                  "holds": true
                }
              ]
            }
          }
        }
      ]
    }
  ]
}
)";
  testing::TempFile file("summary.json", v1);
  ASSERT_FALSE(read_run_summary(file.path()).ok());
  const auto converted = testing::run_command("python3 " + std::string(ATTNPROF_SOURCE_DIR) +
                                              "/tools/summary_json_v2.py " + file.path());
  ASSERT_EQ(converted.exit_code, 0) << converted.output;
  const std::string text = read_file(file.path());
  EXPECT_NE(text.find("\"expression\": \"kernels == 5\""), std::string::npos) << text;
  EXPECT_NE(text.find("\"DtoD\": 1"), std::string::npos) << text;
  auto run = read_run_summary(file.path());
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->sm_count, 132);
  EXPECT_EQ(run->cuda_runtime, "13.0");
  ASSERT_EQ(run->points.size(), 1u);
  EXPECT_EQ(run->points[0].problem.head_dim, 64);
  EXPECT_EQ(run->points[0].flops_per_call, 68719476736.0);
  const RunVariant& naive = run->points[0].variants[0];
  EXPECT_EQ(naive.median_ms, 2.2596);
  EXPECT_EQ(naive.peak_allocated_bytes, int64_t{2684354560});
  ASSERT_TRUE(naive.forward.has_value());
  const RegionFacts& f = naive.forward->facts;
  EXPECT_EQ(f.memcpy_by_kind.at("DtoD").median, 1);
  EXPECT_DOUBLE_EQ(f.cpu_ns.median, 220.5e3);
  ASSERT_TRUE(f.main_kernel.has_value());
  EXPECT_EQ(f.main_kernel->launch_api, "cudaLaunchKernel");
  EXPECT_EQ(f.main_kernel->occupancy_pct, 37.5);

  // Converting again changes nothing.
  const auto again = testing::run_command("python3 " + std::string(ATTNPROF_SOURCE_DIR) +
                                          "/tools/summary_json_v2.py " + file.path());
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_EQ(read_file(file.path()), text);
}

// bench --report hands the report the traces it read as it ran: the page is the one the report
// makes by reading them from their files.
TEST(ReportData, TracesAlreadyReadGiveTheSamePage) {
  const ReportData from_files = load({kStudy});
  ReportOptions options;
  size_t known = 0;
  for (const RunVariant& v : from_files.run->points[from_files.focus_point].variants) {
    const std::string path = kStudy + "/traces/" + v.trace_file;
    if (v.trace_file.empty() || !std::filesystem::exists(path)) continue;
    auto trace = read_trace(path, Limits{});
    ASSERT_TRUE(trace.ok()) << trace.error().message;
    ReportVariant variant;
    variant.trace_path = path;
    describe_variant(variant, *trace, options, "forward");
    options.traces_read.emplace(v.trace_file, std::move(variant));
    ++known;
  }
  ASSERT_GT(known, 3u);
  auto given = load_report({kStudy}, options);
  ASSERT_TRUE(given.ok()) << given.error().message;
  EXPECT_EQ(render_report_html(*given), render_report_html(from_files));
}

class ShippedStudyReport : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    data_ = new ReportData(load({kStudy}));
    html_ = new std::string(render_report_html(*data_));
  }
  static void TearDownTestSuite() {
    delete data_;
    delete html_;
  }
  static ReportData* data_;
  static std::string* html_;
};
ReportData* ShippedStudyReport::data_ = nullptr;
std::string* ShippedStudyReport::html_ = nullptr;

TEST_F(ShippedStudyReport, DataHasEveryVariantWithATimelineAndTheSweep) {
  const ReportData& d = *data_;
  ASSERT_TRUE(d.run.has_value());
  EXPECT_EQ(d.region_pattern, "forward");
  EXPECT_EQ(d.focus_point, 0);
  ASSERT_EQ(d.variants.size(), kVariants.size());
  for (size_t i = 0; i < kVariants.size(); ++i) {
    const ReportVariant& v = d.variants[i];
    EXPECT_EQ(v.name, kVariants[i]);
    ASSERT_TRUE(v.timeline.has_value()) << v.name << ": " << v.missing;
    EXPECT_NE(v.trace_path.find("traces/"), std::string::npos);  // found under traces/
    ASSERT_TRUE(v.analysis.has_value());
  }
  // analyze --explain ran on each trace.
  ASSERT_FALSE(d.variants[0].analysis->findings.empty());
  // Ranked by the time they explain (docs/STUDY.md): naive's unfused passes (1.99 ms) before its
  // copy.
  EXPECT_EQ(d.variants[0].analysis->findings[0].kind, FindingKind::kNotFused);
  EXPECT_EQ(d.variants[0].analysis->findings[1].kind, FindingKind::kHiddenCopy);
  // GPU time by class: the naive forward's copy, the fused kernels' fused attention.
  EXPECT_GT(d.variants[0].class_ns[static_cast<size_t>(KernelClass::kCopy)], 0);
  EXPECT_EQ(d.variants[1].class_ns[static_cast<size_t>(KernelClass::kCopy)], 0);
  EXPECT_GT(d.variants[4].class_ns[static_cast<size_t>(KernelClass::kFusedAttention)], 0);
  EXPECT_EQ(d.variants[4].class_ns[static_cast<size_t>(KernelClass::kGemm)], 0);
  EXPECT_EQ(d.sweep.size(), 35u);
  EXPECT_NE(d.sweep_source.find("sweep/summary.json"), std::string::npos);
  EXPECT_TRUE(d.warnings.empty());
}

TEST_F(ShippedStudyReport, HtmlHasTheTableWithARowPerVariantAndTheNotes) {
  const std::string& html = *html_;
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  std::string table = between(html, R"(<table class="study-table" id="study-table">)", "</table>");
  ASSERT_FALSE(table.empty());
  EXPECT_EQ(count(table, "<tr data-variant="), kVariants.size());
  for (const std::string& v : kVariants)
    EXPECT_NE(table.find("data-variant=\"" + v + "\""), std::string::npos) << v;
  EXPECT_NE(table.find(">2282.0<"), std::string::npos);  // naive's GPU median, in µs
  EXPECT_NE(table.find("1 (DtoD)"), std::string::npos);  // naive's hidden copy
  EXPECT_NE(table.find("href=\"#note-0-1\""), std::string::npos);
  std::string notes = between(html, R"(<div class="notes">)", "</section>");
  EXPECT_NE(notes.find("id=\"note-0-1\""), std::string::npos);
  EXPECT_NE(notes.find("hidden-copy"), std::string::npos);
  EXPECT_NE(notes.find("aten::masked_fill copies its input"), std::string::npos);
  EXPECT_EQ(count(notes, "<li id=\"note-"), count(table, "<a class=\"note "));
}

TEST_F(ShippedStudyReport, HtmlHasATimelinePerVariantWithCpuAndGpuLanesAndLinks) {
  const std::string& html = *html_;
  EXPECT_EQ(count(html, "<svg class=\"timeline\""), kVariants.size());
  size_t from = 0;
  for (const std::string& v : kVariants) {
    from = html.find("<svg class=\"timeline\"", from);
    ASSERT_NE(from, std::string::npos);
    std::string svg = between(html, "<svg class=\"timeline\"", "</svg>", from);
    from += svg.size();
    EXPECT_NE(svg.find("data-variant=\"" + v + "\""), std::string::npos) << v;
    EXPECT_NE(svg.find("class=\"lane cpu-lane\""), std::string::npos) << v;
    EXPECT_NE(svg.find("class=\"lane gpu-lane\""), std::string::npos) << v;
    EXPECT_GT(count(svg, "class=\"span cpu-span\""), 0u) << v;
    EXPECT_GT(count(svg, "class=\"span gpu-span\""), 0u) << v;
    EXPECT_GE(count(svg, "class=\"launch-link\""), 1u) << v;
    // Hover text: grid, block and occupancy of the kernels.
    EXPECT_NE(svg.find("grid ["), std::string::npos) << v;
    EXPECT_NE(svg.find("occupancy"), std::string::npos) << v;
  }
  // Where the GPU runs long after the CPU is done (naive, inplace, math, efficient), the CPU side
  // again, zoomed: there the ops are wide enough to be named.
  EXPECT_GE(count(html, "<svg class=\"timeline-zoom\""), 3u);
  std::string zoom = between(html, "<svg class=\"timeline-zoom\"", "</svg>");
  EXPECT_NE(zoom.find(">aten::masked_fill<"), std::string::npos);
  // The naive forward's hidden copy, with the op chain that made it.
  EXPECT_NE(html.find("Memcpy DtoD"), std::string::npos);
  EXPECT_NE(html.find("aten::masked_fill → aten::clone → aten::copy_ → cudaMemcpyAsync"),
            std::string::npos);
}

TEST_F(ShippedStudyReport, HtmlHasTheBarChartAndTheSweepCharts) {
  const std::string& html = *html_;
  std::string bars = between(html, "<svg id=\"class-bars\"", "</svg>");
  ASSERT_FALSE(bars.empty());
  EXPECT_EQ(count(bars, "<g class=\"bar\""), kVariants.size());
  // The classes' legend is HTML above the chart, so that it wraps in a narrow window.
  const std::string legend = between(html, R"(<div class="legend class-legend">)", "</div>");
  for (const char* label : {"gemm", "softmax", "elementwise", "copy", "fused attention"})
    EXPECT_NE(legend.find(std::string("</i>") + label + "<"), std::string::npos) << label;
  EXPECT_EQ(count(html, "<svg class=\"sweep-chart\""), 2u);
  for (const char* id : {"sweep-time", "sweep-memory"}) {
    std::string chart = between(html, std::string("id=\"") + id + "\"", "</svg>");
    EXPECT_EQ(count(chart, "<polyline"), 7u) << id;
    EXPECT_EQ(count(chart, "<circle"), 35u) << id;
    EXPECT_NE(chart.find(">8192<"), std::string::npos) << id;
  }
}

// The breakdown section's waits are the typical region's, as analyze's JSON has them: the host
// wait summed over its streams' idle_by_stream, the longest of its streams' queues.
TEST_F(ShippedStudyReport, WaitsTableHasEachVariantsTypicalRegion) {
  size_t rows = 0;
  for (const ReportVariant& v : data_->variants) {
    if (!v.analysis || v.analysis->typical_region < 0) continue;
    const RegionSummary& r = v.analysis->regions[static_cast<size_t>(v.analysis->typical_region)];
    int64_t host_wait_ns = 0;
    for (const StreamIdle& s : r.idle_by_stream) host_wait_ns += s.host_wait_ns;
    int32_t longest = 0;
    for (const StreamQueue& q : r.queues) longest = std::max(longest, q.max_length);
    ASSERT_GT(r.launch_delays.launched, 0) << v.name;
    const std::string row = "<tr><td class=\"variant\">" + html_escape(v.name) +
                            "</td><td class=\"num\">" +
                            format_us(static_cast<double>(host_wait_ns)) + "</td>";
    const size_t at = html_->find(row, html_->find("id=\"waits\""));
    ASSERT_NE(at, std::string::npos) << row;
    const std::string line = html_->substr(at, html_->find("</tr>", at) - at);
    EXPECT_NE(line.find("<td class=\"num\">" + format_us(r.launch_delays.median_ns) + "</td>"),
              std::string::npos)
        << line;
    EXPECT_NE(line.find("<td class=\"num\">" + std::to_string(longest) + "</td>"),
              std::string::npos)
        << line;
    ++rows;
  }
  EXPECT_EQ(rows, kVariants.size());
}

TEST_F(ShippedStudyReport, HtmlIsSelfContainedAndSmall) {
  const std::string& html = *html_;
  for (const char* outside : {"http://", "https://", "src=", "<script", "<link", "@import", "<img"})
    EXPECT_EQ(html.find(outside), std::string::npos) << outside;
  // url(...) appears only as references inside the page (the timelines' arrowheads).
  for (size_t at = html.find("url("); at != std::string::npos; at = html.find("url(", at + 1))
    EXPECT_EQ(html[at + 4], '#');
  EXPECT_LT(html.size(), 600u * 1024);
  EXPECT_GT(html.size(), 50u * 1024);
}

TEST_F(ShippedStudyReport, MarkdownHasTheTableAndTheFindings) {
  std::string md = render_report_markdown(*data_);
  EXPECT_EQ(md.rfind("# attnprof study: NVIDIA H200", 0), 0u);
  EXPECT_NE(md.find("## bf16, batch 4, 16 heads, seq 2048"), std::string::npos);
  EXPECT_NE(md.find("| variant | kernels/fwd | main kernel |"), std::string::npos);
  for (const std::string& v : kVariants)
    EXPECT_NE(md.find("\n| " + markdown_cell(v) + " |"), std::string::npos) << v;
  EXPECT_NE(md.find("not-fused, hidden-copy"), std::string::npos);
  EXPECT_NE(md.find("- naive: **hidden-copy** aten::masked_fill copies its input"),
            std::string::npos);
  // Kernel names as code spans, where `<` is text.
  EXPECT_NE(md.find("| `softmax_warp_forward<...>` |"), std::string::npos);
  EXPECT_EQ(md.find("<svg"), std::string::npos);
}

// docs/STUDY.md: the other shapes shipped beside the study (gqa/, decode/, window/) each get a
// section with their headline and table; the decode step's rate is the bandwidth of K and V.
TEST_F(ShippedStudyReport, StudiesBesideTheRunEachGetASection) {
  std::vector<std::string> folders;
  for (const ReportBeside& b : data_->beside) folders.push_back(b.folder);
  for (const char* folder : {"decode", "gqa", "window"})
    EXPECT_NE(std::find(folders.begin(), folders.end(), folder), folders.end()) << folder;
  EXPECT_TRUE(std::is_sorted(folders.begin(), folders.end()));
  const std::string& html = *html_;
  const std::string decode =
      between(html, R"(<section class="card" id="beside-decode">)", "</section>");
  EXPECT_NE(decode.find("1 query against 16384 keys"), std::string::npos);
  EXPECT_NE(decode.find("memory-bound"), std::string::npos);
  EXPECT_NE(decode.find("<th class=\"num\">K/V GB/s</th>"), std::string::npos);
  EXPECT_EQ(decode.find("TFLOP/s</th>"), std::string::npos);
  EXPECT_NE(decode.find("split-kv"), std::string::npos);
  EXPECT_NE(decode.find("is the fastest"), std::string::npos);  // its own headline
  // Its findings as this attnprof tells them from its traces, not as decode/summary.json recorded
  // them ("0 softmax", "the S x S score matrix", "launch overhead dominates").
  EXPECT_NE(decode.find("the score rows (1 x 16384 per head"), std::string::npos);
  for (const char* stale : {"0 softmax", "S x S", "launch overhead dominates"})
    EXPECT_EQ(decode.find(stale), std::string::npos) << stale;
  EXPECT_NE(html.find(R"(<li><a href="#beside-gqa">gqa/</a></li>)"), std::string::npos);
  const std::string gqa = between(html, R"(<section class="card" id="beside-gqa">)", "</section>");
  EXPECT_NE(gqa.find("16 heads (4 KV)"), std::string::npos);
  EXPECT_NE(gqa.find("TFLOP/s</th>"), std::string::npos);
  const std::string md = render_report_markdown(*data_);
  EXPECT_NE(md.find("## Beside it: `window/`"), std::string::npos);
  EXPECT_NE(md.find("causal, window 1024, forward on cuda"), std::string::npos);
}

// Informational findings (how a kernel is built, docs/METRICS.md) come after those that explain
// time, folded into a <details>, in the page and in the Markdown.
TEST_F(ShippedStudyReport, InformationalFindingsComeLastAndFolded) {
  std::string notes = between(*html_, R"(<div class="notes">)", "</section>");
  std::string naive =
      between(notes, R"(<div class="v">naive</div>)", R"(<div class="note-group">)");
  ASSERT_FALSE(naive.empty());
  const size_t fold = naive.find(R"(<details class="info-notes">)");
  ASSERT_NE(fold, std::string::npos) << naive;
  for (const char* id : {"hidden-copy", "not-fused"})
    EXPECT_LT(naive.find(std::string(">") + id + "<"), fold) << id;
  for (const char* id : {"persistent-kernel", "cuLaunchKernelEx"})
    EXPECT_GT(naive.find(std::string(">") + id + "<"), fold) << id;
  // sdpa-flash's one finding (low occupancy by design) is folded whole.
  std::string flash =
      between(notes, R"(<div class="v">sdpa-flash</div>)", R"(<div class="note-group">)");
  EXPECT_NE(flash.find("<details class=\"info-notes\"><summary>1 informational finding "),
            std::string::npos)
      << flash;

  std::string md = render_report_markdown(*data_);
  const size_t details = md.find("<details><summary>Informational findings");
  ASSERT_NE(details, std::string::npos) << md;
  EXPECT_LT(md.find("- naive: **hidden-copy**"), details);
  EXPECT_LT(md.find("- sdpa-math: **precision-upcast**"), details);
  EXPECT_GT(md.find("- naive: **persistent-kernel**"), details);
  EXPECT_GT(md.find("- sdpa-cudnn: **cuLaunchKernelEx**"), details);
}

// sdpa-auto picks cuDNN (docs/STUDY.md), so its sweep line lay exactly on sdpa-cudnn's and hid it.
TEST_F(ShippedStudyReport, CoincidingSweepLinesAreDrawnApartAndNamed) {
  std::string chart = between(*html_, R"(id="sweep-time")", "</svg>");
  ASSERT_FALSE(chart.empty());
  EXPECT_NE(chart.find(R"(data-series="sdpa-auto" data-coincides-with="sdpa-cudnn")"),
            std::string::npos)
      << chart;
  // At seq 512 sdpa-auto was faster (0.035 ms to 0.049): the lines meet from 1024 on.
  // The note takes two lines where one would run past the chart's edge.
  EXPECT_NE(
      chart.find(
          R"(fill="#64748b">partly on</text><text class="coincides" x="447" y="174" font-size="10" fill="#64748b">sdpa-cudnn<)"),
      std::string::npos)
      << chart;
  // Peak memory: efficient, cuDNN and auto allocate the same at every size; each later line is
  // dashed its own way, so none hides another.
  std::string memory = between(*html_, R"(id="sweep-memory")", "</svg>");
  EXPECT_NE(memory.find(R"(data-series="sdpa-cudnn" data-coincides-with="sdpa-efficient")"),
            std::string::npos)
      << memory;
  EXPECT_NE(memory.find(R"(data-series="sdpa-auto" data-coincides-with="sdpa-efficient")"),
            std::string::npos);
  EXPECT_NE(memory.find(R"(stroke-dasharray="7 5")"), std::string::npos);
  EXPECT_NE(memory.find(R"(stroke-dasharray="2 4")"), std::string::npos);
  EXPECT_NE(memory.find(">= sdpa-efficient<"), std::string::npos);
}

// The timeline's critical path (docs/CRITICAL_PATH.md, "In the report"): its stretches tile the
// region from its start, as long as the path in analyze's numbers; the GPU work on it is drawn on
// the GPU lane, and the page draws it with its legend entry.
TEST(Report, EachTimelineCarriesItsRegionsCriticalPath) {
  ReportData d = load({testing::fixture("study_naive.json.gz")});
  ASSERT_EQ(d.variants.size(), 1u);
  const ReportVariant& v = d.variants[0];
  ASSERT_TRUE(v.timeline && v.analysis);
  const RegionTimeline& t = *v.timeline;
  ASSERT_FALSE(t.critical_path.empty());
  EXPECT_EQ(t.critical_path.front().start_ns, 0);
  int64_t on_gpu = 0;
  for (size_t i = 1; i < t.critical_path.size(); ++i)
    EXPECT_EQ(t.critical_path[i].start_ns, t.critical_path[i - 1].end_ns) << i;
  for (const TimelinePathStep& s : t.critical_path)
    if (s.lane >= 0 && t.lanes[static_cast<size_t>(s.lane)].gpu) on_gpu += s.end_ns - s.start_ns;
  const CriticalPath& path =
      v.analysis->regions[static_cast<size_t>(v.analysis->typical_region)].critical_path;
  EXPECT_EQ(t.critical_path.back().end_ns, path.length_ns);
  // The naive step is held by its GPU: its kernels and copies are the path's GPU time.
  EXPECT_EQ(on_gpu, path.categories.compute_ns + path.categories.memory_ns +
                        path.categories.communication_ns);
  EXPECT_GT(on_gpu, path.length_ns / 2);
  const std::string html = render_report_html(d);
  // One over each timeline, the zoomed view's too where there is one.
  EXPECT_EQ(count(html, "<g class=\"critical-path\""), count(html, "<svg class=\"timeline"));
  EXPECT_EQ(count(html, "<i class=\"path\"></i>critical path"), 1u);
}

TEST(Report, TracesGiveATableOfMediansAndATimelineEach) {
  ReportData d =
      load({testing::fixture("study_naive.json.gz"), testing::fixture("study_sdpa-flash.json.gz")},
           "forward");
  EXPECT_FALSE(d.run.has_value());
  ASSERT_EQ(d.variants.size(), 2u);
  EXPECT_EQ(d.variants[0].name, "study_naive");
  EXPECT_EQ(d.variants[1].name, "study_sdpa-flash");
  std::string html = render_report_html(d);
  std::string table = between(html, R"(<table class="study-table" id="study-table">)", "</table>");
  EXPECT_EQ(count(table, "<tr data-variant="), 2u);
  EXPECT_NE(table.find("<th>trace</th>"), std::string::npos);
  EXPECT_EQ(count(html, "<svg class=\"timeline\""), 2u);
  EXPECT_EQ(count(html, "<svg class=\"sweep-chart\""), 0u);
  EXPECT_NE(html.find("NVIDIA H200"), std::string::npos);
  std::string md = render_report_markdown(d);
  EXPECT_NE(md.find("| study_naive |"), std::string::npos);
  EXPECT_NE(md.find("**hidden-copy**"), std::string::npos);
}

TEST(Report, ARegionThatMatchesNothingIsBadInput) {
  // One rule for every command (docs/SECURITY.md): before, the page was written with zeros.
  ReportOptions options;
  options.region_pattern = "no-such-region";
  auto traces = load_report({testing::fixture("study_naive.json.gz")}, options);
  ASSERT_FALSE(traces.ok());
  EXPECT_NE(traces.error().message.find("no region matches \"no-such-region\"; the trace's "
                                        "annotations: ProfilerStep#* (3), forward (3)"),
            std::string::npos)
      << traces.error().message;
  // A bench run none of whose traces has the region fails alike.
  auto run = load_report({kStudy}, options);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.error().message.find("no region matches"), std::string::npos);
}

TEST(Report, ARunWhoseTracesAreMissingStillHasItsTableAndSweep) {
  // The shipped sweep has no traces: its variants say so, the table and the plots are there.
  ReportData d = load({kStudy + "/sweep"});
  ASSERT_TRUE(d.run.has_value());
  EXPECT_EQ(d.run->points.size(), 5u);
  EXPECT_EQ(d.focus_point, 2);  // the middle point: seq 2048
  ASSERT_EQ(d.variants.size(), 7u);
  for (const ReportVariant& v : d.variants) {
    EXPECT_FALSE(v.timeline.has_value());
    EXPECT_NE(v.missing.find("not found"), std::string::npos) << v.missing;
  }
  EXPECT_EQ(d.sweep.size(), 35u);
  std::string html = render_report_html(d);
  EXPECT_EQ(count(html, "<table class=\"study-table\""), 5u);
  EXPECT_EQ(count(html, "id=\"study-table\""), 1u);  // the focus point's
  EXPECT_EQ(count(html, "<svg class=\"sweep-chart\""), 2u);
  EXPECT_EQ(count(html, "<svg class=\"timeline\""), 0u);
  EXPECT_NE(html.find("No timeline: trace b4_h16_s2048_d64/naive.json.gz not found"),
            std::string::npos);
}

TEST(Report, SweepCsvIsTheFallbackWithoutASummary) {
  testing::TempFile run("summary.json", read_file(kStudy + "/summary.json"));
  std::filesystem::copy_file(kStudy + "/sweep/sweep.csv", run.dir() + "/sweep.csv");
  ReportData d = load({run.dir()});
  EXPECT_EQ(d.sweep.size(), 35u);
  EXPECT_NE(d.sweep_source.find("sweep.csv"), std::string::npos);
}

TEST(ReportCli, WritesHtmlAndMarkdownAndRefusesBadInputWithOneLine) {
  testing::TempFile out("report.html");
  auto html = testing::run_cli("report " + kStudy + " -o " + out.path());
  ASSERT_EQ(html.exit_code, 0) << html.output;
  EXPECT_EQ(read_file(out.path()).rfind("<!DOCTYPE html>", 0), 0u);
  // Written atomically: nothing but the report is left in the folder.
  size_t files = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(out.dir())) ++files;
  EXPECT_EQ(files, 1u);

  auto md = testing::run_cli("report --format md " + kStudy + " -o " + out.dir() + "/report.md");
  ASSERT_EQ(md.exit_code, 0) << md.output;
  EXPECT_NE(read_file(out.dir() + "/report.md").find("| naive |"), std::string::npos);

  for (const std::string& bad :
       {"report /nonexistent/folder -o " + out.path(),  // nothing there
        "report " + out.dir() + " -o " + out.path(),    // neither summary.json nor a trace
        "report " + kStudy + " " + testing::fixture("study_naive.json.gz") + " -o " + out.path(),
        "report " + kStudy + " -o /nonexistent/dir/report.html"}) {  // cannot write
    auto r = testing::run_cli(bad);
    EXPECT_EQ(r.exit_code, 2) << bad << "\n" << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << bad << "\n" << r.output;
  }
  // No -o: the text on standard output, as every command writes.
  const auto plain = testing::run_cli("report " + kStudy);
  EXPECT_EQ(plain.exit_code, 0);
  EXPECT_EQ(plain.output.rfind("attnprof study: NVIDIA H200", 0), 0u) << plain.output;
}

// A folder without a summary.json stands for its traces, as for `analyze DIR`.
TEST(ReportCli, AFolderOfTracesIsReportedAsItsTraces) {
  const std::string ranks = std::string(ATTNPROF_TEST_DATA) + "/ranks";
  const auto folder = testing::run_cli("report --format md " + ranks + " -o -");
  ASSERT_EQ(folder.exit_code, 0) << folder.output;
  const auto files = testing::run_cli("report --format md " + ranks + "/ddp_rank0.json.gz " +
                                      ranks + "/ddp_rank1.json.gz -o -");
  ASSERT_EQ(files.exit_code, 0) << files.output;
  EXPECT_EQ(folder.output, files.output);
  EXPECT_NE(folder.output.find("ddp_rank1"), std::string::npos) << folder.output;
}

// The table as text is the bench's table.txt, read back from summary.json: for the shipped study
// the bench printed, every line of its table comes out the same (the bench's own first line
// names the bench), then its findings and how each column is measured.
TEST(ReportCli, TextIsTheBenchsTableFromSummaryJson) {
  // --wide: the table whole, as the bench printed it, and no line wrapped.
  auto text = testing::run_cli("report --format text --wide " + kStudy + " -o -");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  const std::string bench = read_file(kStudy + "/table.txt");
  const size_t from = bench.find("\nbf16, batch 4");
  const size_t to = bench.find("\nWhat the traces show");
  ASSERT_NE(from, std::string::npos);
  ASSERT_NE(to, std::string::npos);
  const std::string table = bench.substr(from, to - from);
  EXPECT_NE(text.output.find(table), std::string::npos) << text.output;
  EXPECT_EQ(text.output.rfind("attnprof study: NVIDIA H200 (132 SMs, sm_90", 0), 0u);
  EXPECT_NE(text.output.find("  - naive: [hidden-copy] aten::masked_fill copies its input"),
            std::string::npos);
  EXPECT_NE(text.output.find("How each column is measured:\n  - GPU median: CUDA events"),
            std::string::npos);
  // The studies beside the run, flex's too, with their own tables.
  EXPECT_NE(text.output.find("Beside it: flex/ (its own summary.json):"), std::string::npos);
  EXPECT_NE(text.output.find("flex                  1  triton_tem_fused_flex_attention_0"),
            std::string::npos);
}

// Without --wide, text fits 120 columns when it goes to no terminal (the study's
// table ran to 211): the table in panels that each repeat the variant column, every header once,
// and the headlines wrapped under their own column.
size_t occurrences(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST(ReportCli, TextAndHeadlinesFit120Columns) {
  for (const std::string format : {"text", "headline"}) {
    SCOPED_TRACE(format);
    const auto r = testing::run_cli("report --format " + format + " " + kStudy);
    ASSERT_EQ(r.exit_code, 0) << r.output;
    std::istringstream lines(r.output);
    size_t count = 0;
    for (std::string line; std::getline(lines, line); ++count)
      EXPECT_LE(display_width(line), 120u) << line;
    EXPECT_GT(count, 10u);
  }
  const std::string text = testing::run_cli("report --format text " + kStudy).output;
  const std::string run = text.substr(0, text.find("\nWhat the traces show"));
  for (const char* header : {"kernels/fwd", "main kernel", "GPU median (µs)", "peak mem",
                             "launch API", "rel. error", "status"})
    EXPECT_EQ(occurrences(run, header), 1u) << header << "\n" << run;
  // Each panel starts with the variant column: each variant's row is in every panel.
  const size_t panels = occurrences(run, "\nvariant ");
  EXPECT_GE(panels, 2u) << run;
  EXPECT_EQ(occurrences(run, "\nnaive "), panels) << run;
  EXPECT_EQ(occurrences(run, "\nsdpa-auto (cudnn) "), panels) << run;
}

// What a terminal shows of a folder of studies (scripts/run-main.sh): the headline of the run and
// of each study beside it, one line each with --wide, the folders in one column.
TEST(ReportCli, HeadlineIsOneLinePerStudy) {
  auto r = testing::run_cli("report --format headline --wide " + kStudy + "/ -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::vector<std::string> lines;
  for (size_t at = 0, end; (end = r.output.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(r.output.substr(at, end - at));
  ReportOptions options;
  auto data = load_report({kStudy}, options);
  ASSERT_TRUE(data.ok()) << data.error().message;
  ASSERT_EQ(lines.size(), 2 + data->beside.size()) << r.output;  // the run, backward/, beside
  EXPECT_EQ(lines[0].rfind(kStudy + "  ", 0), 0u) << lines[0];   // its folder, no trailing /
  EXPECT_EQ(lines[1].rfind("backward/ ", 0), 0u) << lines[1];
  EXPECT_NE(lines[1].find("GPU median per call (forward and backward)"), std::string::npos);
  const size_t column = lines[0].find("  ") + 2;
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NE(lines[i].find(" is the fastest: "), std::string::npos) << lines[i];
    if (i > 1) {
      EXPECT_EQ(lines[i].rfind(data->beside[i - 2].folder + "/ ", 0), 0u) << lines[i];
    }
    EXPECT_NE(lines[i][column], ' ') << lines[i];  // the headlines start in one column
    EXPECT_EQ(lines[i][column - 1], ' ') << lines[i];
  }
  EXPECT_NE(r.output.find("gqa/ "), std::string::npos);
  EXPECT_NE(r.output.find("sdpa-cudnn is the fastest: 100.1 µs GPU median per call, 23.0× faster "
                          "than naive (2.30 ms). As fast (within 10 %): sdpa-auto (cudnn).\n"),
            std::string::npos)
      << r.output;  // gqa/
  EXPECT_NE(r.output.find("faster than the slowest, sdpa-flash (158.3 µs); the study has no naive "
                          "variant to compare with.\n"),
            std::string::npos)
      << r.output;  // flex/

  // Plain traces: one line (--wide: unwrapped), named as such; what bounds their steps comes
  // before their GPU time. Flash's step is 4.54 ms and the CPU holds it; naive's GPU holds its.
  auto traces =
      testing::run_cli("report --format headline --wide " + kStudy + "/traces/naive.json.gz " +
                       kStudy + "/traces/sdpa-flash.json.gz -o -");
  ASSERT_EQ(traces.exit_code, 0) << traces.output;
  EXPECT_EQ(traces.output.rfind("the traces  By the step (its critical path, the regions' "
                                "median): sdpa-flash is the shortest, 4.54 ms, bound by CPU; "
                                "naive 17.48 ms (3.85×, bound by GPU compute). sdpa-flash is the "
                                "fastest: 949.2 µs median GPU busy per region",
                                0),
            0u)
      << traces.output;
  EXPECT_EQ(std::count(traces.output.begin(), traces.output.end(), '\n'), 1);
}

}  // namespace
}  // namespace attnprof
