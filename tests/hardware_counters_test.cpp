// Nsight Compute's CSV (reader/ncu_csv.h) on real CSVs recorded on the H200 (tests/data/ncu), a
// variant's kernels summed (analysis/counter_totals.h) and the roofline (analysis/roofline.h).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/counter_findings.h"
#include "analysis/counter_totals.h"
#include "analysis/region_metrics.h"
#include "analysis/roofline.h"
#include "reader/ncu_csv.h"
#include "study/run/run_summary.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;

constexpr uint64_t kMaxBytes = uint64_t{64} << 20;

std::vector<KernelCounters> read_fixture(const std::string& name) {
  auto kernels = read_ncu_csv(fixture("ncu/" + name), kMaxBytes);
  if (!kernels.ok()) ADD_FAILURE() << kernels.error().message;
  return kernels.ok() ? *kernels : std::vector<KernelCounters>{};
}

// The study's default problem (bf16, batch 4, 16 heads, seq 2048, head dim 64, causal), cuDNN then
// flash, one forward each between cudaProfilerStart and Stop.
TEST(NcuCsv, FusedKernelsOfTheDefaultProblem) {
  const auto kernels = read_fixture("cudnn_flash_default.csv.gz");
  ASSERT_EQ(kernels.size(), 2u);
  const KernelCounters& cudnn = kernels[0];
  EXPECT_EQ(cudnn.name.rfind("cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma", 0), 0u);
  EXPECT_EQ(cudnn.grid, "(132, 1, 1)");
  EXPECT_EQ(cudnn.block, "(384, 1, 1)");
  EXPECT_DOUBLE_EQ(*cudnn.duration_ns, 100352);  // "100,352": the separators are dropped
  EXPECT_DOUBLE_EQ(*cudnn.achieved_occupancy_pct, 14.08);
  EXPECT_DOUBLE_EQ(*cudnn.theoretical_occupancy_pct, 18.75);
  EXPECT_DOUBLE_EQ(*cudnn.tensor_pipe_pct, 44.97);
  EXPECT_DOUBLE_EQ(*cudnn.fp32_pipe_pct, 21.96);
  EXPECT_DOUBLE_EQ(*cudnn.dram_read_bytes, 50354944);
  EXPECT_DOUBLE_EQ(*cudnn.dram_write_bytes, 9704960);
  EXPECT_DOUBLE_EQ(*cudnn.dram_bytes(), 50354944.0 + 9704960.0);
  EXPECT_DOUBLE_EQ(*cudnn.l2_hit_rate_pct, 71.70);
  EXPECT_DOUBLE_EQ(*cudnn.sm_throughput_pct, 41.57);
  EXPECT_NEAR(*cudnn.sm_clock_hz, 1.7408e9, 1e6);
  // bf16 tensor ops, plus tf32's zero; the CSV has no fp16 column, which adds nothing.
  EXPECT_DOUBLE_EQ(*cudnn.tensor_flop, 36507222016);
  EXPECT_DOUBLE_EQ(*cudnn.fp32_flop, 2 * 4456448.0 + 290717696.0 + 226788352.0);
  // The useful FLOPs are 4*B*H*S^2*D/2 = 34.36 G; the kernel computes the diagonal's whole tiles.
  const double useful = 4.0 * 4 * 16 * 2048.0 * 2048 * 64 / 2;
  EXPECT_GT(*cudnn.tensor_flop, useful);
  EXPECT_LT(*cudnn.tensor_flop, 1.1 * useful);

  const KernelCounters& flash = kernels[1];
  EXPECT_NE(flash.name.find("pytorch_flash::flash_fwd_kernel"), std::string::npos);
  EXPECT_DOUBLE_EQ(*flash.duration_ns, 160896);
  EXPECT_DOUBLE_EQ(*flash.achieved_occupancy_pct, 11.90);
  EXPECT_DOUBLE_EQ(*flash.theoretical_occupancy_pct, 12.50);
  // Same tiles, same count of tensor operations as cuDNN's.
  EXPECT_DOUBLE_EQ(*flash.tensor_flop, *cudnn.tensor_flop);
  // q, k, v and out are 16 MiB each. ncu flushes the L2 before the kernel, so every byte of q, k
  // and v comes from DRAM at least once; of the output, what stays in the 60 MB L2 when the kernel
  // ends is written back after ncu stopped counting.
  const double tensor = 4.0 * 16 * 2048 * 64 * 2;
  for (const KernelCounters& k : kernels) {
    EXPECT_GE(*k.dram_read_bytes, 3 * tensor) << k.name;
    EXPECT_LT(*k.dram_read_bytes, 3.1 * tensor) << k.name;  // and hardly more: a fused kernel
    EXPECT_LT(*k.dram_write_bytes, tensor) << k.name;
  }
}

// The bench under ncu: naive and flash at seq 1024, the first 12 kernels matching the filter.
TEST(NcuCsv, NaiveKernelsMatchTheirUsefulFlops) {
  const auto kernels = read_fixture("naive_flash_s1024.csv.gz");
  ASSERT_EQ(kernels.size(), 12u);
  const KernelCounters& qk = kernels[4];
  EXPECT_EQ(qk.name, "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT");
  // q @ k^T: 2*B*H*S*S*D multiply-adds, counted exactly by the tensor pipe.
  EXPECT_DOUBLE_EQ(*qk.tensor_flop, 2.0 * 4 * 16 * 1024 * 1024 * 64);
  EXPECT_DOUBLE_EQ(*qk.fp32_flop, 0);
  const KernelCounters& softmax = kernels[7];
  EXPECT_NE(softmax.name.find("softmax_warp_forward"), std::string::npos);
  // The scores (B*H*S*S bf16 = 128 MiB) are read once and written once.
  EXPECT_NEAR(*softmax.dram_read_bytes, 128.0 * (1 << 20), 0.01 * 128 * (1 << 20));
  EXPECT_GT(*softmax.dram_throughput_pct, 30);
  EXPECT_DOUBLE_EQ(*softmax.tensor_pipe_pct, 1.56);
}

// The same kernels exported without --print-units base (Mbyte, us, Ghz) read back the same.
TEST(NcuCsv, ScaledUnitsConvertBack) {
  const auto base = read_fixture("naive_flash_s1024.csv.gz");
  const auto scaled = read_fixture("naive_flash_s1024_units.csv.gz");
  ASSERT_EQ(base.size(), scaled.size());
  for (size_t i = 0; i < base.size(); ++i) {
    SCOPED_TRACE(base[i].name);
    EXPECT_EQ(base[i].name, scaled[i].name);
    EXPECT_NEAR(*base[i].duration_ns, *scaled[i].duration_ns, 0.5);
    EXPECT_NEAR(*base[i].dram_read_bytes, *scaled[i].dram_read_bytes, 1);
    EXPECT_NEAR(*base[i].sm_clock_hz, *scaled[i].sm_clock_hz, 1e3);
    EXPECT_NEAR(*base[i].achieved_occupancy_pct, *scaled[i].achieved_occupancy_pct, 0.005);
  }
}

constexpr const char* kHeader =
    "\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\",\"dram__bytes_read.sum\"\n";

TEST(NcuCsv, UnitsRowLogLinesAndQuotes) {
  const std::string csv = std::string("==PROF== Disconnected from process 12\n") + kHeader +
                          "\"\",\"\",\"us\",\"Kbyte\"\n"
                          "\"0\",\"a \"\"quoted\"\"\nname\",\"1.5\",\"2,000\"\n"
                          "\"1\",\"b\",\"n/a\",\"\"\n";
  auto kernels = parse_ncu_csv(csv, "t.csv");
  ASSERT_TRUE(kernels.ok()) << kernels.error().message;
  ASSERT_EQ(kernels->size(), 2u);
  EXPECT_EQ((*kernels)[0].name, "a \"quoted\"\nname");
  EXPECT_DOUBLE_EQ(*(*kernels)[0].duration_ns, 1500);
  EXPECT_DOUBLE_EQ(*(*kernels)[0].dram_read_bytes, 2e6);
  EXPECT_FALSE((*kernels)[1].duration_ns);  // n/a is unknown, not 0
  EXPECT_FALSE((*kernels)[1].dram_read_bytes);
  EXPECT_FALSE((*kernels)[0].tensor_pipe_pct);  // no such column
}

TEST(NcuCsv, BadInputNamesFileAndLine) {
  auto expect_error = [](const std::string& csv, const std::string& needle) {
    auto kernels = parse_ncu_csv(csv, "bad.csv");
    ASSERT_FALSE(kernels.ok()) << csv;
    EXPECT_NE(kernels.error().message.find(needle), std::string::npos) << kernels.error().message;
    EXPECT_EQ(kernels.error().message.rfind("bad.csv: ", 0), 0u) << kernels.error().message;
  };
  expect_error("", "empty");
  expect_error("\"a\",\"b\"\n\"1\",\"2\"\n", "line 1: no \"ID\" and \"Kernel Name\"");
  expect_error(std::string(kHeader) + "\"0\",\"k\",\"1\"\n",
               "line 2: 3 cells, but the header has 4");
  expect_error(std::string(kHeader) + "\"0\",\"k\",\"fast\",\"1\"\n",
               "line 2: column gpu__time_duration.sum: \"fast\" is not a number");
  expect_error(std::string(kHeader) + "\"\",\"\",\"fortnight\",\"byte\"\n",
               "line 2: column gpu__time_duration.sum: unknown unit \"fortnight\"");
  expect_error(std::string(kHeader) + "\"0\",\"k\",\"1\",\"1\"\n\"1\",\"k\",\"nan\",\"1\"\n",
               "line 3");
}

// Hostile input, second pass: a scaled unit took 1e300 Tbyte to inf, and a negative count read.
TEST(NcuCsv, CountersOutOfRangeAreRefused) {
  const std::string units = std::string(kHeader) + "\"\",\"\",\"ns\",\"Tbyte\"\n";
  auto huge = parse_ncu_csv(units + "\"0\",\"k\",\"1\",\"1e300\"\n", "bad.csv");
  ASSERT_FALSE(huge.ok());
  EXPECT_EQ(huge.error().message,
            "bad.csv: line 3: column dram__bytes_read.sum: \"1e300\" is out of range (0, or 1e-12 "
            "to 1e18 once scaled); check the export");
  // A duration of 1e-300 ns made an infinite TFLOP/s.
  auto tiny = parse_ncu_csv(units + "\"0\",\"k\",\"1e-300\",\"1\"\n", "bad.csv");
  ASSERT_FALSE(tiny.ok());
  EXPECT_NE(tiny.error().message.find("column gpu__time_duration.sum: \"1e-300\" is out of range"),
            std::string::npos)
      << tiny.error().message;
  auto negative = parse_ncu_csv(std::string(kHeader) + "\"0\",\"k\",\"-5\",\"1\"\n", "bad.csv");
  ASSERT_FALSE(negative.ok());
  EXPECT_NE(negative.error().message.find("line 2: column gpu__time_duration.sum: \"-5\" is out"),
            std::string::npos)
      << negative.error().message;
  auto fine = parse_ncu_csv(units + "\"0\",\"k\",\"1\",\"2.5\"\n", "fine.csv");
  ASSERT_TRUE(fine.ok()) << fine.error().message;
  EXPECT_DOUBLE_EQ(*(*fine)[0].dram_read_bytes, 2.5e12);
}

TEST(NcuCsv, MissingFileIsAnError) {
  auto kernels = read_ncu_csv(fixture("ncu/absent.csv"), kMaxBytes);
  ASSERT_FALSE(kernels.ok());
  EXPECT_NE(kernels.error().message.find("absent.csv"), std::string::npos);
}

TEST(NcuCsv, MetricNamesAreTheOnesRead) {
  const auto& names = ncu_metric_names();
  auto has = [&](const std::string& m) {
    return std::find(names.begin(), names.end(), m) != names.end();
  };
  EXPECT_TRUE(has("sm__warps_active.avg.pct_of_peak_sustained_active"));
  EXPECT_TRUE(has("dram__bytes_read.sum"));
  EXPECT_TRUE(has("sm__ops_path_tensor_src_bf16_dst_fp32.sum"));
  // ncu reports it unasked and refuses it in --metrics.
  EXPECT_FALSE(has("sm__maximum_warps_per_active_cycle_pct"));
}

TEST(CounterTotals, SumsAndDurationWeightedMeans) {
  const auto kernels = read_fixture("naive_flash_s1024.csv.gz");
  const CounterTotals t = total_counters(kernels);
  EXPECT_EQ(t.kernels, 12);
  double duration = 0, read = 0, weighted_occupancy = 0;
  for (const auto& k : kernels) {
    duration += *k.duration_ns;
    read += *k.dram_read_bytes;
    weighted_occupancy += *k.achieved_occupancy_pct * *k.duration_ns;
  }
  EXPECT_DOUBLE_EQ(t.duration_ns, duration);
  EXPECT_DOUBLE_EQ(*t.dram_read_bytes, read);
  EXPECT_NEAR(*t.achieved_occupancy_pct, weighted_occupancy / duration, 1e-9);
  // Longer kernels weigh more: the mean lies between the extremes but is not the plain mean.
  EXPECT_EQ(*longest_kernel(kernels), 6u);  // the masked_fill elementwise kernel, 177.8 us
}

TEST(CounterTotals, UnknownBytesStayUnknown) {
  std::vector<KernelCounters> kernels(2);
  kernels[0].duration_ns = 10;
  kernels[0].dram_read_bytes = 5;
  kernels[0].dram_write_bytes = 5;
  kernels[1].duration_ns = 30;
  kernels[1].achieved_occupancy_pct = 40;
  const CounterTotals t = total_counters(kernels);
  EXPECT_FALSE(t.dram_read_bytes);  // a partial sum would pass for the whole
  EXPECT_FALSE(t.dram_bytes());
  EXPECT_DOUBLE_EQ(*t.achieved_occupancy_pct, 40);  // only the kernel that reports it
  EXPECT_FALSE(t.tensor_flop);
  EXPECT_FALSE(longest_kernel({}));
}

TEST(Roofline, H200Roofs) {
  const double bf16 = 989.4e12, bandwidth = 4.8e12;
  EXPECT_NEAR(ridge_intensity(bf16, bandwidth), 206.1, 0.1);
  EXPECT_DOUBLE_EQ(attainable_flop_per_s(bf16, bandwidth, 10), 48e12);  // under the ridge
  EXPECT_DOUBLE_EQ(attainable_flop_per_s(bf16, bandwidth, 1000), bf16);
  // A memory-bound kernel at 10 FLOP/B that reaches 24 TFLOP/s is at half its roof.
  RooflinePoint point{10, 24e12};
  EXPECT_DOUBLE_EQ(*percent_of_roof(point, bf16, bandwidth), 50);
  EXPECT_TRUE(memory_bound(point, bf16, bandwidth));
  RooflinePoint compute{500, 494.7e12};
  EXPECT_DOUBLE_EQ(*percent_of_roof(compute, bf16, bandwidth), 50);
  EXPECT_FALSE(memory_bound(compute, bf16, bandwidth));
  EXPECT_FALSE(percent_of_roof(point, bf16, 0));
  EXPECT_FALSE(arithmetic_intensity(1e9, 0));  // ran from caches: no point
  EXPECT_DOUBLE_EQ(*arithmetic_intensity(1e9, 1e7), 100);
}

// The study on the H200 under `attnprof bench --counters` (tests/data/ncu/study: the bench's own
// CSVs, one per variant, the default problem).
std::vector<KernelCounters> study(const std::string& variant) {
  return read_fixture("study/" + variant + ".csv.gz");
}

TEST(StudyCounters, EachVariantsKernels) {
  EXPECT_EQ(study("naive").size(), 5u);  // the DtoD copy is no kernel: ncu does not see it
  EXPECT_EQ(study("inplace").size(), 5u);
  EXPECT_EQ(study("sdpa-math").size(), 20u);
  for (const char* fused : {"sdpa-efficient", "sdpa-flash", "sdpa-cudnn", "sdpa-auto"})
    EXPECT_EQ(study(fused).size(), 1u) << fused;
  // The copy kernel moves what it is credited with: 2 GiB read, 2 GiB written (a few MB of the
  // writes still in L2 when it ends).
  const auto copy = study("copy");
  ASSERT_EQ(copy.size(), 1u);
  EXPECT_NEAR(*copy[0].dram_read_bytes, 2.0 * (1 << 30), 0.01 * (1 << 30));
  EXPECT_NEAR(*copy[0].dram_write_bytes, 2.0 * (1 << 30), 0.05 * (1 << 30));
  EXPECT_GT(*copy[0].dram_bytes() / (*copy[0].duration_ns * 1e-9), 4e12);
  EXPECT_LE(*copy[0].dram_bytes() / (*copy[0].duration_ns * 1e-9), 4.8e12);
}

TEST(StudyCounters, FindingsGroundedInCounters) {
  std::vector<CounterSubject> subjects = {
      {"naive", study("naive"), 37.5},
      {"sdpa-math", study("sdpa-math"), std::nullopt},
      {"sdpa-flash", study("sdpa-flash"), 12.5},
      {"sdpa-cudnn", study("sdpa-cudnn"), 18.75},
  };
  const auto findings = counter_findings(subjects, 4.27e12);
  auto find = [&](const std::string& variant, const std::string& id) -> const CounterFinding* {
    for (const auto& f : findings)
      if (f.variant == variant && f.id == id) return &f;
    return nullptr;
  };
  for (const char* fused : {"sdpa-flash", "sdpa-cudnn"}) {
    const CounterFinding* f = find(fused, "occupancy-by-design");
    ASSERT_NE(f, nullptr) << fused;
    EXPECT_NE(f->text.find("low occupancy is a design choice"), std::string::npos);
    EXPECT_EQ(find(fused, "memory-bound"), nullptr) << fused;
    EXPECT_EQ(find(fused, "fp32-pipe"), nullptr) << fused;
  }
  EXPECT_NE(find("sdpa-flash", "occupancy-by-design")->text.find("keeps 11.9 %"),
            std::string::npos);
  // Measured below the estimate, and why.
  const CounterFinding* measured = find("sdpa-cudnn", "occupancy-measured");
  ASSERT_NE(measured, nullptr);
  EXPECT_NE(measured->text.find("measured 14.1 % occupancy, attnprof estimated 18.8 %"),
            std::string::npos)
      << measured->text;
  // Naive: the mul, masked_fill and softmax passes, memory-bound.
  const CounterFinding* memory = find("naive", "memory-bound");
  ASSERT_NE(memory, nullptr);
  EXPECT_NE(memory->text.find("softmax_warp_forward"), std::string::npos) << memory->text;
  EXPECT_EQ(find("naive", "occupancy-by-design"), nullptr);  // its GEMMs are not its longest
  // Math: cuBLAS's FP32 GEMMs on CUDA cores.
  const CounterFinding* fp32 = find("sdpa-math", "fp32-pipe");
  ASSERT_NE(fp32, nullptr);
  EXPECT_NE(fp32->text.find("2 kernel(s) (sm80_xmma_gemm_f32f32"), std::string::npos) << fp32->text;
  EXPECT_EQ(find("naive", "fp32-pipe"), nullptr);
}

// A decode step's counters (examples/h200-study/decode/counters: one query against 16384 keys).
// The memory-bound note said "memory-bound passes over the score matrix" where 81 % of the time
// was the copies of K and V (repeat_interleave) and the rest thin products streaming them.
TEST(StudyCounters, MemoryBoundNoteSaysWhereADecodeStepsTimeGoes) {
  auto decode = [](const std::string& variant) {
    auto kernels = read_ncu_csv(std::string(ATTNPROF_SOURCE_DIR) +
                                    "/examples/h200-study/decode/counters/" + variant + ".csv.gz",
                                kMaxBytes);
    EXPECT_TRUE(kernels.ok()) << (kernels.ok() ? "" : kernels.error().message);
    return kernels.ok() ? *kernels : std::vector<KernelCounters>{};
  };
  for (const bool shape_known : {true, false}) {
    SCOPED_TRACE(shape_known);
    CounterSubject naive{"naive", decode("naive"), std::nullopt};
    CounterSubject math{"sdpa-math", decode("sdpa-math"), std::nullopt};
    if (shape_known) {
      naive.query_rows = math.query_rows = 1;
      naive.keys = math.keys = 16384;
    }
    const auto findings = counter_findings({naive, math}, 4.22e12);
    ASSERT_EQ(findings.size(), 2u);
    for (const CounterFinding& f : findings) {
      EXPECT_EQ(f.id, "memory-bound");
      EXPECT_EQ(f.text.find("score matrix"), std::string::npos) << f.text;
    }
    EXPECT_NE(findings[0].text.find("their time goes to copies that move bytes and compute nothing "
                                    "(81 %), matrix products of few query rows that stream K and V "
                                    "(a decode step) (18 %)"),
              std::string::npos)
        << findings[0].text;
    EXPECT_NE(findings[1].text.find("copies that move bytes and compute nothing (56 %)"),
              std::string::npos)
        << findings[1].text;
  }
  // The square study's naive passes stay passes over the score matrix.
  const auto square = counter_findings({{"naive", study("naive"), 37.5, 2048, 2048}}, 4.27e12);
  ASSERT_FALSE(square.empty());
  EXPECT_NE(square.back().text.find("passes over the score matrix (scale, mask, softmax) (100 %)"),
            std::string::npos)
      << square.back().text;
}

// check's counter metrics: unknown for a trace alone, the call's sums once attached.
TEST(StudyCounters, CheckMetrics) {
  TraceAnalysis t = testing::analyze_fixture("study_sdpa-flash.json.gz", "forward");
  MetricValue none = metric_value(t, "tensor_pipe_pct");
  EXPECT_FALSE(none.available);
  EXPECT_NE(none.why_unavailable.find("bench --counters"), std::string::npos);
  t.facts.counters = total_counters(study("sdpa-flash"));
  MetricValue pipe = metric_value(t, "tensor_pipe_pct");
  ASSERT_TRUE(pipe.available);
  EXPECT_DOUBLE_EQ(pipe.number.median, 44.72);
  EXPECT_DOUBLE_EQ(metric_value(t, "achieved_occupancy_pct").number.median, 11.94);
  EXPECT_DOUBLE_EQ(metric_value(t, "dram_bytes").number.median, 50821888.0 + 12337664.0);
  EXPECT_DOUBLE_EQ(metric_value(t, "counted_kernels").number.median, 1);
}

// The shipped study, recorded with `attnprof bench --counters` (examples/h200-study).
const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";

TEST(ShippedCounters, SummaryHoldsThemAndTheBandwidth) {
  auto run = read_run_summary(kStudy + "/summary.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_TRUE(run->counters);
  EXPECT_EQ(run->counters->tool, "ncu 2025.3.1.0");
  EXPECT_TRUE(run->counters->unavailable.empty());
  ASSERT_TRUE(run->counters->bandwidth_bytes_per_s);
  EXPECT_GT(*run->counters->bandwidth_bytes_per_s, 4e12);
  EXPECT_LE(*run->counters->bandwidth_bytes_per_s, *run->counters->datasheet_bandwidth_bytes_per_s);
  for (const RunVariant& v : run->points.at(0).variants) {
    SCOPED_TRACE(v.variant);
    ASSERT_TRUE(v.counters);
    EXPECT_EQ(static_cast<size_t>(v.counters->kernels), v.kernel_counters.size());
    ASSERT_TRUE(v.percent_of_roof);
    EXPECT_GT(*v.percent_of_roof, 0);
    EXPECT_LE(*v.percent_of_roof, 100);
    // The kernels ncu saw are the trace's: naive's DtoD copy is no kernel.
    EXPECT_DOUBLE_EQ(v.kernel_counters.size(), v.forward->facts.kernels.median);
  }
}

TEST(ShippedCounters, CheckReadsThemFromTheStudyFolder) {
  testing::TempFile claims("counters.expect",
                           "sdpa-flash: tensor_pipe_pct > 40\n"
                           "sdpa-flash: achieved_occupancy_pct < 15\n"
                           "naive: dram_bytes > 4000000000\n"
                           "sdpa-math: tensor_pipe_pct < 2\n");
  auto r = testing::run_command(std::string(ATTNPROF_CLI) + " check " + kStudy +
                                " --expectations " + claims.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("study: 4 of 4 expectations hold"), std::string::npos) << r.output;
}

// The roofline hides nothing (docs/REPORT.md, "Plots"): on the shipped study sdpa-cudnn and
// sdpa-auto (cudnn) run the same kernel, and each variant's whole call lies on its main kernel,
// so markers coincide; each is drawn apart from the others of its group, inside a ring, and
// named once in the legend.
TEST(ShippedCounters, TheRooflineDrawsCoincidingPointsApart) {
  auto r =
      testing::run_command(std::string(ATTNPROF_CLI) + " report " + kStudy + " --format html -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 300);
  const size_t from = r.output.find(R"(<svg class="roofline-chart")");
  ASSERT_NE(from, std::string::npos);
  const std::string svg = r.output.substr(from, r.output.find("</svg>", from) - from);
  auto attribute = [](const std::string& text, size_t at, const std::string& name) {
    const size_t start = text.find(name + "=\"", at) + name.size() + 2;
    return std::stod(text.substr(start, text.find('"', start) - start));
  };
  std::vector<std::pair<double, double>> centers;
  for (size_t at = svg.find("<circle class=\""); at != std::string::npos;
       at = svg.find("<circle class=\"", at + 1)) {
    const std::string ring = R"(<circle class="coincide-ring")";
    if (svg.compare(at, ring.size(), ring) == 0) continue;
    centers.emplace_back(attribute(svg, at, "cx"), attribute(svg, at, "cy"));
  }
  ASSERT_EQ(centers.size(), 14u);  // 7 variants, 7 main kernels
  double closest = 1e9;
  for (size_t i = 0; i < centers.size(); ++i)
    for (size_t j = 0; j < i; ++j)
      closest = std::min(closest, std::hypot(centers[i].first - centers[j].first,
                                             centers[i].second - centers[j].second));
  EXPECT_GE(closest, 5.0);  // were 0: sdpa-auto's markers drawn on sdpa-cudnn's
  size_t rings = 0, legend = 0;
  for (size_t at = svg.find("coincide-ring"); at != std::string::npos;
       at = svg.find("coincide-ring", at + 1))
    ++rings;
  for (size_t at = svg.find("class=\"legend-label\""); at != std::string::npos;
       at = svg.find("class=\"legend-label\"", at + 1))
    ++legend;
  EXPECT_GE(rings, 1u);
  EXPECT_LE(rings, 7u);
  EXPECT_EQ(legend, 14u);  // each marker named once; the roofs and HBM labelled in the plot
  EXPECT_NE(svg.find(R"(class="roof-label")"), std::string::npos);
  EXPECT_NE(svg.find(">HBM 4.22 TB/s (copy kernel)<"), std::string::npos);
}

TEST(ShippedCounters, TheReportShowsTheTableFindingsAndRoofline) {
  auto r =
      testing::run_command(std::string(ATTNPROF_CLI) + " report " + kStudy + " --format html -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 300);
  const std::string& html = r.output;
  EXPECT_NE(html.find(R"(<li><a href="#counters">Counters and the roofline</a></li>)"),
            std::string::npos);
  EXPECT_NE(html.find(R"(id="counters-table")"), std::string::npos);
  EXPECT_NE(html.find(R"(<li data-finding="occupancy-by-design">sdpa-flash: )"), std::string::npos);
  EXPECT_NE(html.find(R"(<li data-finding="fp32-pipe">sdpa-math: )"), std::string::npos);
  EXPECT_NE(html.find(R"(<li data-finding="memory-bound">naive: )"), std::string::npos);
  size_t points = 0;
  for (size_t at = html.find("variant-point"); at != std::string::npos;
       at = html.find("variant-point", at + 1))
    ++points;
  EXPECT_EQ(points, 7u);  // one per variant
  // Per kernel: naive 5 + inplace 5 + sdpa-math 20 + one each for the 4 fused variants.
  const size_t per_kernel = html.find(R"(<details id="counters-per-kernel"><summary>Per kernel)");
  ASSERT_NE(per_kernel, std::string::npos);
  EXPECT_NE(html.find("Per kernel (34 kernels)", per_kernel), std::string::npos);
  const size_t end = html.find("</details>", per_kernel);
  size_t rows = 0;
  for (size_t at = html.find("<tr><td>", per_kernel); at < end; at = html.find("<tr><td>", at + 1))
    ++rows;
  EXPECT_EQ(rows, 34u);
  EXPECT_NE(html.find("<code>nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT</code>", per_kernel),
            std::string::npos);
}

// diff of two runs with counters: the study at seq 2048 against the same at seq 8192.
TEST(ShippedCounters, DiffOfTwoRunsShowsWhatMoved) {
  auto same = testing::run_command(std::string(ATTNPROF_CLI) + " diff " + kStudy + " " + kStudy);
  ASSERT_EQ(same.exit_code, 0) << same.output;
  EXPECT_NE(same.output.find("\n0 counter(s) moved"), std::string::npos) << same.output;

  auto r = testing::run_command(std::string(ATTNPROF_CLI) + " diff " + kStudy + " " + kStudy +
                                "/counters-seq8192");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // cuDNN's tensor pipe: 44.96 % at seq 2048, 50.1 % at 8192; its kernel count stays 1.
  const size_t cudnn = r.output.find("\nsdpa-cudnn\n");
  ASSERT_NE(cudnn, std::string::npos) << r.output;
  const std::string block = r.output.substr(cudnn, r.output.find("\nsdpa-auto", cudnn) - cudnn);
  EXPECT_NE(block.find("  * tensor_pipe_pct                 44.96        50.10   +11.4 %"),
            std::string::npos)
      << block;
  EXPECT_NE(block.find("    counted_kernels                  1.00         1.00    +0.0 %"),
            std::string::npos)
      << block;
  // naive runs 11 kernels at seq 8192 (cuBLAS and softmax pick others), 5 at 2048.
  EXPECT_NE(r.output.find("  * counted_kernels                  5.00        11.00  +120.0 %"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace attnprof
