// FlexAttention as attnprof reads it: real traces of flex_attention compiled by torch.compile on
// the H200 (tests/data/flex_causal.json.gz, flex_decode.json.gz), and the folder that
// scripts/gpu/record_flex.py wrote of it (examples/h200-study/flex) read back like a bench run's.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "analysis/kernels/kernel_class.h"
#include "study/run/run_summary.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::run_cli;
using testing::run_command;
using testing::TempFile;

const std::string kFlexStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/flex";

std::vector<ActivityRow> typical_activities(const std::string& name) {
  const TraceAnalysis t = analyze_fixture(name, "forward");
  return t.regions[t.typical_region].activities;
}

// Batch 1, 4 heads, seq 512, head dim 64, the causal block mask: one Triton template per call.
TEST(FlexTraces, TheTemplateKernelIsFusedAttentionAndTheMainKernel) {
  const std::vector<ActivityRow> rows = typical_activities("flex_causal.json.gz");
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].short_name, "triton_tem_fused_flex_attention_0");
  EXPECT_EQ(classify_activity(rows[0]), KernelClass::kFusedAttention);
  // Triton loads its cubin as a module and launches through the driver.
  EXPECT_EQ(rows[0].launch_api, "cuLaunchKernel");

  const TraceAnalysis t = analyze_fixture("flex_causal.json.gz", "forward");
  EXPECT_EQ(t.regions.size(), 3u);
  ASSERT_TRUE(t.facts.main_kernel.has_value());
  EXPECT_EQ(t.facts.main_kernel->short_name, "triton_tem_fused_flex_attention_0");
  const auto fused = static_cast<size_t>(KernelClass::kFusedAttention);
  EXPECT_EQ(t.facts.by_class[fused].count.median, 1);
}

// One query against 1024 keys: the template splits the keys, two reductions combine the splits.
TEST(FlexTraces, DecodingSplitsTheKeysAndReducesTheSplits) {
  const std::vector<ActivityRow> rows = typical_activities("flex_decode.json.gz");
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].short_name, "triton_tem_fused_flex_attention_0");
  EXPECT_EQ(classify_activity(rows[0]), KernelClass::kFusedAttention);
  EXPECT_EQ(rows[1].short_name, "triton_red_fused_flex_attention_1");
  EXPECT_EQ(classify_activity(rows[1]), KernelClass::kReduction);
  EXPECT_EQ(rows[2].short_name, "triton_red_fused_flex_attention_2");
  EXPECT_EQ(classify_activity(rows[2]), KernelClass::kReduction);
}

TEST(FlexTraces, InductorKernelNamesByTheirPrefix) {
  EXPECT_EQ(classify_kernel("triton_tem_fused_flex_attention_backward_1", ""),
            KernelClass::kFusedAttention);
  EXPECT_EQ(classify_kernel("triton_tem_fused_flex_decoding_0", ""), KernelClass::kFusedAttention);
  EXPECT_EQ(classify_kernel("triton_poi_fused_add_cos_sin_0", ""), KernelClass::kElementwise);
  EXPECT_EQ(classify_kernel("triton_per_fused_sum_0", ""), KernelClass::kReduction);
  // What they fuse comes first (kernel_class.h, rule 2b): a fused softmax is a softmax, a
  // template matmul a GEMM.
  EXPECT_EQ(classify_kernel("triton_red_fused__softmax_0", ""), KernelClass::kSoftmax);
  EXPECT_EQ(classify_kernel("triton_tem_fused_mm_0", ""), KernelClass::kGemm);
}

// record_flex.py builds summary.json's region facts from these keys of `analyze --format json`.
TEST(FlexTraces, AnalyzeJsonGivesTheMainKernelBesideTheMedians) {
  const testing::CommandResult r =
      run_cli("analyze --format json --region forward " + fixture("flex_causal.json.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element trace = parser.parse(r.output)["traces"].at(0);
  EXPECT_EQ(std::string_view(trace["main_kernel"]), "triton_tem_fused_flex_attention_0");
  EXPECT_EQ(std::string_view(trace["launch_api"]), "cuLaunchKernel");
  EXPECT_GT(double(trace["main_kernel_us"]), 0);
  EXPECT_DOUBLE_EQ(double(trace["median"]["kernels"]), 1);
}

Result<RunSummary> read_study(const std::string& dir) {
  return read_run_summary(dir + "/summary.json");
}

// The shipped study reads like a bench run: flex, the SDPA baselines beside it, FA3 and FA4 with
// the registry's reason, each trace's facts with its main kernel.
TEST(FlexTraces, TheRecordedStudyReadsLikeABenchRun) {
  Result<RunSummary> run = read_study(kFlexStudy);
  ASSERT_TRUE(run.ok()) << run.error().message;
  ASSERT_EQ(run->points.size(), 1u);
  const RunPoint& point = run->points[0];
  // 4·B·H·D per visible pair, the causal square counted exactly: S·(S+1)/2 pairs.
  EXPECT_DOUBLE_EQ(point.flops_per_call, 4.0 * 4 * 16 * 64 * (2048.0 * 2049 / 2));
  ASSERT_EQ(point.variants.size(), 5u);
  const RunVariant& flex = point.variants[0];
  EXPECT_EQ(flex.variant, "flex");
  EXPECT_EQ(flex.status, RunStatus::kOk);
  ASSERT_TRUE(flex.forward.has_value());
  ASSERT_TRUE(flex.forward->facts.main_kernel.has_value());
  EXPECT_EQ(flex.forward->facts.main_kernel->short_name, "triton_tem_fused_flex_attention_0");
  // K and V (2·B·KVH·S·D bf16 elements) over the median, as the bench counts them.
  ASSERT_TRUE(flex.kv_gbps.has_value() && flex.median_ms.has_value());
  EXPECT_NEAR(*flex.kv_gbps, 2.0 * 4 * 16 * 2048 * 64 * 2 / (*flex.median_ms * 1e-3) / 1e9, 1e-6);
  EXPECT_EQ(point.variants[1].variant, "sdpa-flash");
  EXPECT_EQ(point.variants[2].variant, "sdpa-cudnn");
  for (size_t i : {3u, 4u}) {
    EXPECT_EQ(point.variants[i].status, RunStatus::kUnsupported);
    EXPECT_NE(point.variants[i].reason.find("ModuleNotFoundError"), std::string::npos)
        << point.variants[i].reason;
  }
}

std::string file_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The recorder's second half runs without torch: from the traces alone it writes the same facts
// the GPU machine's attnprof wrote, and renders the table. Its summary.json is written by the
// core's writer (`attnprof summary-json`), never in Python's spelling: from a draft that json.dump
// wrote with its keys sorted and one-space indents, the shipped files come back byte for byte.
TEST(FlexTraces, FactsOnlyRebuildsTheTraceFactsFromTheTraces) {
  TempFile marker("unused");
  const std::filesystem::path copy = std::filesystem::path(marker.dir()) / "flex";
  std::filesystem::copy(kFlexStudy, copy, std::filesystem::copy_options::recursive);
  const std::string python = "PYTHONDONTWRITEBYTECODE=1 " + std::string(ATTNPROF_PYTHON);
  const std::string summary = (copy / "summary.json").string();
  ASSERT_EQ(run_command(python +
                        " -c \"import json, sys; p = sys.argv[1]; d = json.load(open(p)); "
                        "json.dump(d, open(p, 'w'), indent=1, sort_keys=True)\" " +
                        summary)
                .exit_code,
            0);
  // Drop the facts: the recorder must find them again in the traces.
  std::string json = file_text(summary);
  const std::string main_kernel = "\"main_kernel\": \"triton_tem_fused_flex_attention_0\"";
  const size_t key = json.find(main_kernel);
  ASSERT_NE(key, std::string::npos);
  json.replace(key, main_kernel.size(), "\"main_kernel\": \"\"");
  std::ofstream(summary) << json;
  ASSERT_NE(file_text(summary), file_text(std::filesystem::path(kFlexStudy) / "summary.json"));
  std::filesystem::remove(copy / "table.txt");
  std::filesystem::remove(copy / "summary.md");

  const testing::CommandResult done =
      run_command(python + " " + ATTNPROF_SOURCE_DIR + "/scripts/gpu/record_flex.py --facts-only " +
                  copy.string() + " --attnprof " + ATTNPROF_CLI);
  ASSERT_EQ(done.exit_code, 0) << done.output;
  for (const char* name : {"summary.json", "summary.md", "table.txt"})
    EXPECT_EQ(file_text(copy / name), file_text(std::filesystem::path(kFlexStudy) / name)) << name;
  Result<RunSummary> rebuilt = read_study(copy.string());
  Result<RunSummary> shipped = read_study(kFlexStudy);
  ASSERT_TRUE(rebuilt.ok() && shipped.ok());
  const RunPoint& a = rebuilt->points[0];
  const RunPoint& b = shipped->points[0];
  ASSERT_EQ(a.variants.size(), b.variants.size());
  for (size_t i = 0; i < a.variants.size(); ++i) {
    SCOPED_TRACE(a.variants[i].variant);
    ASSERT_EQ(a.variants[i].forward.has_value(), b.variants[i].forward.has_value());
    if (!a.variants[i].forward) continue;
    const RegionFacts& x = a.variants[i].forward->facts;
    const RegionFacts& y = b.variants[i].forward->facts;
    EXPECT_EQ(x.regions, y.regions);
    EXPECT_EQ(x.kernels.median, y.kernels.median);
    EXPECT_EQ(x.gpu_busy_ns.median, y.gpu_busy_ns.median);
    ASSERT_TRUE(x.main_kernel && y.main_kernel);
    EXPECT_EQ(x.main_kernel->short_name, y.main_kernel->short_name);
  }
  std::ifstream table(copy / "table.txt");
  std::stringstream text;
  text << table.rdbuf();
  EXPECT_NE(text.str().find("flex                  1  triton_tem_fused_flex_attention_0"),
            std::string::npos)
      << text.str();
}

// The recorder's writer: what is not a bench summary is refused in one line naming the file, and
// nothing is written.
TEST(FlexTraces, SummaryJsonRefusesWhatIsNotABenchSummary) {
  TempFile draft(
      "summary.json",
      R"({"schemaVersion": 2, "points": [{"variants": [{"timing": {"median_ms": "fast"}}]}]})");
  const std::string out = (std::filesystem::path(draft.dir()) / "out.json").string();
  const testing::CommandResult done =
      run_command(std::string(ATTNPROF_CLI) + " summary-json " + draft.path() + " -o " + out);
  EXPECT_EQ(done.exit_code, 2);
  EXPECT_NE(done.output.find(draft.path() + ": not a bench summary as docs/json-schema.md says: "
                                            "`median_ms` is a string where a number is expected"),
            std::string::npos)
      << done.output;
  EXPECT_EQ(std::count(done.output.begin(), done.output.end(), '\n'), 1) << done.output;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace attnprof
