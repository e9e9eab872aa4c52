// The bench's plain-C++ half, without a GPU: problem arithmetic, sweeps, peaks, formats, the
// table, summary.json and the gzip writer.

#include <gtest/gtest.h>
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "base/format_units.h"
#include "gpu_peaks.h"
#include "gpu_test_support.h"
#include "gzip_file.h"
#include "pipeline/report_inputs.h"
#include "problem.h"
#include "render/fact_cells.h"
#include "study/render/report.h"
#include "study/run/run_summary.h"
#include "study/run/run_summary_json.h"
#include "study_expectations.h"
#include "study_table.h"
#include "summary_json.h"
#include "sweep.h"

namespace attnprof::bench {
namespace {

TEST(Problem, FlopsOfTheStudysDefaultProblem) {
  Problem p;  // bf16, 4 x 16 heads, seq 2048, head dim 64, causal
  // The causal square counted exactly: 2048·2049/2 visible pairs (tests/problem_shapes_test.cpp
  // checks the other masks).
  const double causal = 2048.0 * 2049.0 / 2;
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * causal * 64);
  p.mask = MaskKind::kNone;
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * 2048.0 * 2048.0 * 64);
  p.mask = MaskKind::kExplicit;  // the causal pattern, given as a tensor: the same useful work
  EXPECT_DOUBLE_EQ(attention_flops(p), 4.0 * 4 * 16 * causal * 64);
  p.backward = true;
  EXPECT_DOUBLE_EQ(attention_flops(p), 3.5 * 4.0 * 4 * 16 * causal * 64);
}

TEST(Problem, NamesRoundTrip) {
  for (Variant v : kAllVariants) EXPECT_EQ(parse_variant(name(v)), v);
  EXPECT_EQ(parse_dtype("fp16"), Dtype::kFp16);
  EXPECT_FALSE(parse_dtype("float16").has_value());
  EXPECT_EQ(parse_mask("explicit"), MaskKind::kExplicit);
  EXPECT_FALSE(runs_on_cpu(Variant::kSdpaCudnn));
  EXPECT_TRUE(runs_on_cpu(Variant::kSdpaFlash));
  EXPECT_EQ(input_set_bytes(Problem{}), 3 * 4 * 16 * 2048 * 64 * 2);
}

TEST(Sweep, ParsesAndExpandsFirstAxisSlowest) {
  Result<SweepAxis> seq = parse_sweep("seq=512,1024");
  ASSERT_TRUE(seq.ok()) << seq.error().message;
  Result<SweepAxis> dim = parse_sweep("head-dim=64,128");
  ASSERT_TRUE(dim.ok());
  const auto problems = expand_sweep(Problem{}, {*seq, *dim});
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].seq, 512);
  EXPECT_EQ(problems[0].head_dim, 64);
  EXPECT_EQ(problems[1].head_dim, 128);
  EXPECT_EQ(problems[3].seq, 1024);
  EXPECT_EQ(point_label(problems[3]), "b4_h16_s1024_d128");
}

TEST(Sweep, RejectsWhatItCannotRead) {
  for (const char* bad :
       {"seq", "seq=", "seq=1,,2", "seq=1,", "seq=0", "seq=-4", "seq=12x", "width=1,2"}) {
    EXPECT_FALSE(parse_sweep(bad).ok()) << bad;
  }
}

TEST(Peaks, KnownGpusByExactNameOnly) {
  const auto h200 = dense_peak("NVIDIA H200", Dtype::kBf16, false);
  ASSERT_TRUE(h200.has_value());
  EXPECT_DOUBLE_EQ(h200->tflops, 989.4);
  EXPECT_EQ(dense_peak("NVIDIA H200", Dtype::kFp32, false)->tflops, 66.9);
  EXPECT_EQ(dense_peak("NVIDIA H200", Dtype::kFp32, true)->precision, "tf32");
  EXPECT_FALSE(dense_peak("NVIDIA H200 NVL", Dtype::kBf16, false).has_value());
  EXPECT_FALSE(dense_peak("NVIDIA GeForce RTX 4090", Dtype::kBf16, false).has_value());
}

TEST(CellFormat, Units) {
  EXPECT_EQ(format_duration(157.24e3), "157.2 µs");
  EXPECT_EQ(format_duration(7410e3), "7.41 ms");
  EXPECT_EQ(format_bytes(512ll << 20), "512.0 MiB");
  EXPECT_EQ(format_count(5), "5");
  EXPECT_EQ(format_count(2.5), "2.5");
  EXPECT_EQ(format_error(std::nan("")), "nan");
}

StudyReport sample_report() {
  StudyReport report;
  report.device.available = true;
  report.device.name = "NVIDIA H200";
  report.device.sm_count = 132;
  report.device.compute_major = 9;
  report.device.l2_bytes = 60 << 20;
  report.versions.torch = "2.11.0";
  StudyPoint point;
  point.flops = attention_flops(point.problem);
  point.peak = dense_peak("NVIDIA H200", Dtype::kBf16, false);

  VariantRow flash;
  flash.measurement.variant = Variant::kSdpaFlash;
  flash.measurement.correctness = Correctness{2e-2, 3.1e-3, std::nullopt, true};
  flash.measurement.timing = TimingStats{0.157, 0.150, 0.170, 0.158, 100, 3, 48 << 20};
  flash.measurement.peak_allocated_bytes = 16 << 20;
  flash.tflops = point.flops / 0.157e-3 / 1e12;
  flash.percent_of_peak = 100 * *flash.tflops / 989.4;
  TraceFacts facts;
  facts.facts.regions = 5;
  facts.facts.kernels = Spread{1, 1, 1, 5};
  facts.facts.memcpy = Spread{1, 1, 1, 5};
  facts.facts.memcpy_by_kind["DtoD"] = Spread{1, 1, 1, 5};
  facts.facts.cpu_ns = Spread{42e3, 40e3, 45e3, 5};
  MainKernel kernel;
  kernel.short_name = "pytorch_flash::flash_fwd_kernel<...>";
  kernel.launch_api = "cudaLaunchKernel";
  kernel.occupancy_pct = 12.5;
  kernel.duration_ns = 150000;
  facts.facts.main_kernel = kernel;
  flash.forward = facts;
  flash.trace_file = "sdpa-flash.json.gz";
  point.rows.push_back(flash);

  VariantRow unsupported;
  unsupported.measurement.variant = Variant::kSdpaCudnn;
  unsupported.measurement.status = VariantStatus::kUnsupported;
  unsupported.measurement.reason = "Expected query, key and value to all be of dtype | {Half}";
  point.rows.push_back(unsupported);

  VariantRow oom;
  oom.measurement.variant = Variant::kNaive;
  oom.measurement.status = VariantStatus::kOutOfMemory;
  oom.measurement.reason = "CUDA out of memory. Tried to allocate 2.00 TiB.";
  point.rows.push_back(oom);
  report.points.push_back(point);
  return report;
}

// What the bench prints and writes to summary.md: the report's renderers over the run as its
// summary.json says it (bench/src/study.cpp).
std::string rendered(const StudyReport& report, OutputFormat format) {
  const auto folder = testing::test_folder();
  std::ofstream((folder / "summary.json").string()) << summary_json(report);
  Result<ReportData> data = load_report({folder.string()}, ReportOptions{});
  testing::remove_tree(folder);
  if (!data.ok()) return "load_report failed: " + data.error().message;
  return format == OutputFormat::kText ? render_report_text(*data) : render_report_markdown(*data);
}

TEST(StudyTable, ShowsMeasurementsStatusesAndMethods) {
  const StudyReport report = sample_report();
  const std::string text = rendered(report, OutputFormat::kText);
  EXPECT_NE(text.find("sdpa-flash"), std::string::npos);
  EXPECT_NE(text.find("GPU median (µs)"), std::string::npos) << text;
  EXPECT_NE(text.find("157.0"), std::string::npos) << text;
  EXPECT_NE(text.find("unsupported: Expected query"), std::string::npos);
  EXPECT_NE(text.find("OOM"), std::string::npos);
  EXPECT_NE(text.find("CUDA events"), std::string::npos);
  EXPECT_NE(text.find("989.4 TFLOP/s"), std::string::npos);
  EXPECT_FALSE(has_failures(report));

  const std::string markdown = rendered(report, OutputFormat::kMarkdown);
  EXPECT_NE(markdown.find("dtype \\| {Half}"), std::string::npos) << markdown;  // escaped pipe
  EXPECT_NE(markdown.find("|---|"), std::string::npos);
}

// The bench hands its run to the report in memory (bench/src/study.cpp); `attnprof report DIR`
// reads the summary.json it wrote. Both must give the same words, in every format.
TEST(StudyTable, TheRunInMemoryReportsAsItsSummaryJsonDoes) {
  const StudyReport report = sample_report();
  const auto folder = testing::test_folder();
  std::ofstream((folder / "summary.json").string()) << summary_json(report);
  RunSummary run = run_summary(report);
  run.path = (folder / "summary.json").string();
  Result<ReportData> memory = load_run_report(std::move(run), folder.string(), ReportOptions{});
  Result<ReportData> file = load_report({folder.string()}, ReportOptions{});
  testing::remove_tree(folder);
  ASSERT_TRUE(memory.ok()) << memory.error().message;
  ASSERT_TRUE(file.ok()) << file.error().message;
  EXPECT_EQ(render_report_text(*memory), render_report_text(*file));
  EXPECT_EQ(render_report_markdown(*memory), render_report_markdown(*file));
  EXPECT_EQ(render_report_html(*memory), render_report_html(*file));
}

TEST(StudyTable, ColumnsLineUp) {
  const StudyTable table = study_table(sample_report().points[0], CellWidth::kTerminal);
  for (const auto& row : table.rows) EXPECT_EQ(row.size(), table.header.size());
}

TEST(SummaryJson, HasSchemaVersionAndNullsForAbsentMeasurements) {
  StudyReport report = sample_report();
  report.points[0].rows[0].measurement.correctness->output_error = std::nan("");
  const std::string json = summary_json(report);
  EXPECT_NE(json.find("\"schemaVersion\": 2"), std::string::npos);
  EXPECT_NE(json.find("\"output_error\": null"), std::string::npos);
  EXPECT_NE(json.find("\"timing\": null"), std::string::npos);
  EXPECT_NE(json.find("\"status\": \"oom\""), std::string::npos);
}

// What the bench writes, the report reads: the facts of the table come back the same.
TEST(SummaryJson, ReadsBackAsTheReportsRunSummary) {
  const auto folder = testing::test_folder();
  const std::string path = (folder / "summary.json").string();
  std::ofstream(path) << summary_json(sample_report());
  Result<RunSummary> run = read_run_summary(path);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 1u);
  const RunVariant& flash = run->points[0].variants[0];
  ASSERT_TRUE(flash.forward.has_value());
  const RegionFacts& f = flash.forward->facts;
  EXPECT_EQ(f.regions, 5);
  EXPECT_EQ(f.kernels.median, 1);
  EXPECT_EQ(f.memcpy_by_kind.at("DtoD").median, 1);
  EXPECT_DOUBLE_EQ(f.cpu_ns.median, 42e3);
  ASSERT_TRUE(f.main_kernel.has_value());
  EXPECT_EQ(f.main_kernel->short_name, "pytorch_flash::flash_fwd_kernel<...>");
  EXPECT_EQ(f.main_kernel->launch_api, "cudaLaunchKernel");
  EXPECT_EQ(f.main_kernel->occupancy_pct, 12.5);
  EXPECT_EQ(f.main_kernel->duration_ns, 150000);
  EXPECT_EQ(memcpy_cell(f), "1 (DtoD)");
  EXPECT_FALSE(run->points[0].variants[1].forward.has_value());
  testing::remove_tree(folder);
}

// The bench fills the run model and the core writes it (study/run/run_summary_json.h): what it
// writes, read by the core's reader and written again, is the same bytes, with --counters,
// --from-trace, an expectation and a finding in it; NaN errors are null and stay null.
TEST(SummaryJson, WrittenByTheCoreAndReadBackByteForByte) {
  StudyReport report = sample_report();
  report.settings.seed = 17396743651915150985ull;
  report.sweeps.push_back({"seq", {2048}});
  report.counters.requested = true;
  report.counters.tool = "ncu 2025.3.1.0";
  report.counters.copy = CopyBandwidth{int64_t{4} << 30, 1.0, 30};
  VariantRow& flash = report.points[0].rows[0];
  flash.measurement.correctness->output_error = std::nan("");
  flash.counters_file = "counters/sdpa-flash.csv.gz";
  KernelCounters kernel;
  kernel.name = "flash_fwd_kernel";
  kernel.duration_ns = 150000;
  kernel.dram_read_bytes = 5e7;
  flash.kernel_counters.push_back(kernel);
  flash.counters = CounterTotals{};
  flash.counters->kernels = 1;
  flash.counters->dram_read_bytes = 5e7;
  flash.counters->dram_write_bytes = 1e7;
  flash.intensity = 574.7;
  Finding finding{FindingKind::kLowOccupancy,
                  "12.5% estimated occupancy",
                  {"grid [16,4,16]"},
                  "a design choice",
                  5};
  flash.forward->findings.push_back(finding);
  ExpectationResult expectation;
  expectation.text = "kernels == 1";
  expectation.source = "study.expect:3";
  expectation.holds = true;
  expectation.values.push_back({"kernels", true, 1.0, 1, 1, 5, ""});
  expectation.values.push_back({"main_kernel", true, std::nullopt, 0, 0, 0, "flash"});
  expectation.values.push_back({"dram_bytes", false, std::nullopt, 0, 0, 0, ""});
  expectation.actual = "1";
  flash.forward->expectations.push_back(expectation);
  TraceProblems from;
  from.trace = "model.json.gz";
  from.region = "ProfilerStep#2";
  from.regions = 2;
  from.region_gpu_ns = 607070.5;
  TraceCall call;
  call.calls = 2;
  call.trace_ns = 103943.5;
  call.backend = "unfused";
  from.calls.push_back(call);
  report.from_trace = from;

  const std::string json = summary_json(report);
  for (const char* key :
       {"\"output_error\": null", "\"clock_control\": \"none\"", "\"custom_library\": \"\"",
        "\"dram_bytes\": 60000000", "\"region_gpu_ms\": 0.6070705", "\"main_kernel\": \"flash\"",
        "\"seed\": \"17396743651915150985\""})
    EXPECT_NE(json.find(key), std::string::npos) << key << "\n" << json;
  const auto folder = testing::test_folder();
  const std::string path = (folder / "summary.json").string();
  std::ofstream(path, std::ios::binary) << json;
  Result<RunSummary> run = read_run_summary(path);
  testing::remove_tree(folder);
  ASSERT_TRUE(run.ok()) << run.error().message;
  EXPECT_EQ(run->additions, kEveryAddition);
  EXPECT_EQ(write_run_summary(*run), json);
}

// A decode step (one query against 16384 keys, GQA 32/8, head dim 128) is memory-bound on an
// H200: its table's rate is the bandwidth of K and V, and summary.json says so for the report.
TEST(SummaryJson, ADecodeStepIsMemoryBoundAndReadsBackAsSuch) {
  StudyReport report = sample_report();
  StudyPoint& point = report.points[0];
  point.problem.batch = 8;
  point.problem.heads = 32;
  point.problem.kv_heads = 8;
  point.problem.head_dim = 128;
  point.problem.seq = 16384;
  point.problem.q_seq = 1;
  point.flops = attention_flops(point.problem);
  point.hbm = HbmBandwidth{4.8e12, "the NVIDIA datasheet"};
  point.intensity = point.flops / minimal_bytes(point.problem);
  point.ridge = 989.4e12 / 4.8e12;
  point.memory_bound = point.intensity < *point.ridge;
  ASSERT_TRUE(point.memory_bound) << point.intensity;
  VariantRow& flash = point.rows[0];
  flash.kv_gbps = kv_bytes(point.problem) / 0.157e-3 / 1e9;
  flash.percent_of_hbm = 100 * *flash.kv_gbps * 1e9 / 4.8e12;

  const std::string text = rendered(report, OutputFormat::kText);
  EXPECT_NE(text.find("K/V GB/s"), std::string::npos) << text;
  const auto header = study_table(point, CellWidth::kFull).header;
  EXPECT_EQ(std::find(header.begin(), header.end(), "TFLOP/s"), header.end());
  EXPECT_NE(std::find(header.begin(), header.end(), "% HBM"), header.end());
  EXPECT_NE(text.find("memory-bound"), std::string::npos) << text;
  EXPECT_NE(text.find("4.80 TB/s, the HBM bandwidth of the NVIDIA datasheet"), std::string::npos)
      << text;

  const auto folder = testing::test_folder();
  const std::string path = (folder / "summary.json").string();
  std::ofstream(path) << summary_json(report);
  Result<RunSummary> run = read_run_summary(path);
  ASSERT_TRUE(run.ok()) << run.error().message;
  const RunPoint& read = run->points.at(0);
  EXPECT_TRUE(read.memory_bound);
  EXPECT_EQ(read.problem.kv_heads, 8);
  EXPECT_EQ(read.problem.q_seq, 1);
  EXPECT_DOUBLE_EQ(*read.kv_bytes_per_call, 2.0 * 8 * 8 * 16384 * 128 * 2);
  EXPECT_EQ(read.hbm_source, "the NVIDIA datasheet");
  ASSERT_TRUE(read.variants[0].kv_gbps.has_value());
  EXPECT_NEAR(*read.variants[0].kv_gbps, *flash.kv_gbps, 1e-6 * *flash.kv_gbps);
  testing::remove_tree(folder);
}

TEST(SweepCsv, OneRowPerPointAndVariant) {
  const std::string csv = sweep_csv(sample_report());
  size_t lines = 0;
  for (char c : csv) lines += c == '\n';
  EXPECT_EQ(lines, 1u + 3u);
  EXPECT_NE(csv.find("\"Expected query, key and value to all be of dtype | {Half}\""),
            std::string::npos);
}

std::string inflate_gzip(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::string compressed((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  std::string out(1 << 20, '\0');
  inflate_state state;
  isal_inflate_init(&state);
  state.crc_flag = ISAL_GZIP;
  state.next_in = reinterpret_cast<uint8_t*>(compressed.data());
  state.avail_in = static_cast<uint32_t>(compressed.size());
  state.next_out = reinterpret_cast<uint8_t*>(out.data());
  state.avail_out = static_cast<uint32_t>(out.size());
  if (isal_inflate(&state) != ISAL_DECOMP_OK || state.block_state != ISAL_BLOCK_FINISH) return "";
  out.resize(out.size() - state.avail_out);
  return out;
}

TEST(GzipFile, RoundTripsThroughAGzipReader) {
  const auto folder = std::filesystem::temp_directory_path() / "attnprof_bench_gzip_test";
  std::filesystem::create_directories(folder);
  const std::string plain = (folder / "trace.json").string();
  std::string text;
  for (int i = 0; i < 20000; ++i)
    text += "{\"ph\": \"X\", \"name\": \"kernel " + std::to_string(i) + "\"},\n";
  std::ofstream(plain, std::ios::binary) << text;
  const Status status = gzip_file(plain, plain + ".gz");
  ASSERT_TRUE(status.ok()) << status.error().message;
  EXPECT_LT(std::filesystem::file_size(plain + ".gz"), text.size() / 4);
  EXPECT_EQ(inflate_gzip(plain + ".gz"), text);
  EXPECT_FALSE(gzip_file((folder / "missing.json").string(), plain + ".gz").ok());
  testing::remove_tree(folder);
}

TEST(StudyExpectations, ReadsVariantPrefixesAndTheShippedStudyFile) {
  auto shipped =
      load_study_expectations(std::string(ATTNPROF_SOURCE_DIR) + "/examples/study.expect");
  ASSERT_TRUE(shipped.ok()) << shipped.error().message;
  EXPECT_EQ(shipped->size(), 12u);
  EXPECT_EQ(expectations_for(*shipped, "naive").size(), 3u);      // two of its own and `*`
  EXPECT_EQ(expectations_for(*shipped, "sdpa-auto").size(), 1u);  // only `*`

  const auto folder = testing::test_folder();
  const std::string path = (folder / "bad.expect").string();
  std::ofstream(path) << "# comment\nnaive: kernels == 5\nflashy: kernels == 1\n";
  auto bad = load_study_expectations(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find(path + ":3:1: unknown variant 'flashy'"), std::string::npos)
      << bad.error().message;
  std::ofstream(path) << "naive: kernels = 5\n";
  bad = load_study_expectations(path);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("expected an operator"), std::string::npos)
      << bad.error().message;
  testing::remove_tree(folder);
}

}  // namespace
}  // namespace attnprof::bench
