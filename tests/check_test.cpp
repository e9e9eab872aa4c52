// `attnprof check`: the expression language (analysis/expectations/expectation_parser.h), its
// evaluation on the real H200 traces, and the command's exit codes (0 all hold, 1 one fails, 2 bad
// input).

#include <map>

#include <gtest/gtest.h>

#include <simdjson.h>

#include "analysis/expectations/expectation_evaluation.h"
#include "analysis/expectations/expectation_parser.h"
#include "analysis/expectations/variant_expectations.h"
#include "analysis/summarize.h"
#include "attnprof/expectations.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::run_cli;
using testing::TempFile;

Expectation parse_ok(std::string_view text) {
  auto e = parse_expectation(text);
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
  return e.ok() ? *e : Expectation{};
}

std::string parse_error(std::string_view text) {
  auto e = parse_expectation(text);
  EXPECT_FALSE(e.ok()) << text;
  return e.ok() ? std::string() : e.error().message;
}

TEST(ExpectationParse, ComparisonsOfEachType) {
  Expectation e = parse_ok("kernels == 1");
  ASSERT_EQ(e.all_of.size(), 1u);
  EXPECT_EQ(e.all_of[0].metric, "kernels");
  EXPECT_EQ(e.all_of[0].op, CompareOp::kEq);
  EXPECT_EQ(e.all_of[0].number, 1.0);

  e = parse_ok("  gpu_busy_us<0.2  ");
  EXPECT_EQ(e.text, "gpu_busy_us<0.2");
  EXPECT_EQ(e.all_of[0].op, CompareOp::kLt);
  EXPECT_DOUBLE_EQ(*e.all_of[0].number, 0.2);

  e = parse_ok("main_kernel ~ \"flash\"");
  EXPECT_EQ(e.all_of[0].op, CompareOp::kContains);
  EXPECT_EQ(e.all_of[0].value, "flash");

  e = parse_ok("launch_api == cuLaunchKernelEx");
  EXPECT_EQ(e.all_of[0].value, "cuLaunchKernelEx");
  EXPECT_FALSE(e.all_of[0].number.has_value());

  e = parse_ok(
      "kernels.gemm >= 2 and memcpy_dtod == 0 and main_kernel !~ \"a # \\\"b\\\"\"  # a comment");
  ASSERT_EQ(e.all_of.size(), 3u);
  EXPECT_EQ(e.all_of[0].metric, "kernels.gemm");
  EXPECT_EQ(e.all_of[1].metric, "memcpy_dtod");
  EXPECT_EQ(e.all_of[2].op, CompareOp::kNotContains);
  EXPECT_EQ(e.all_of[2].value, "a # \"b\"");  // a # inside quotes is not a comment
  EXPECT_EQ(e.text, "kernels.gemm >= 2 and memcpy_dtod == 0 and main_kernel !~ \"a # \\\"b\\\"\"");
}

TEST(ExpectationParse, ErrorsSayWhatAndWhichColumn) {
  EXPECT_EQ(parse_error("kernels = 1").substr(0, 47),
            "expected an operator at column 9: kernels = 1 (");
  EXPECT_NE(parse_error("kernal == 1")
                .find("unknown metric \"kernal\" at column 1: kernal == 1 (did you mean kernels?)"),
            std::string::npos);
  EXPECT_NE(parse_error("kernels ==").find("expected a value at column 11"), std::string::npos);
  EXPECT_NE(parse_error("kernels == one").find("expected a number at column 12"),
            std::string::npos);
  EXPECT_NE(parse_error("kernels ~ \"x\"").find("~ needs a text metric at column 9"),
            std::string::npos);
  EXPECT_NE(parse_error("main_kernel < 3").find("< needs a number metric at column 13"),
            std::string::npos);
  EXPECT_NE(parse_error("main_kernel ~ \"flash").find("unterminated string at column 15"),
            std::string::npos);
  EXPECT_NE(parse_error("kernels == 1 or memset == 0")
                .find("expected \"and\" or the end of the expression at column 14"),
            std::string::npos);
  EXPECT_NE(parse_error("kernels == 1 and").find("expected a metric name at column 17"),
            std::string::npos);
  EXPECT_NE(parse_error("").find("expected a metric name at column 1"), std::string::npos);
}

TEST(ExpectationParse, FileSkipsCommentsAndBlankLinesAndNamesTheBadLine) {
  auto ok = parse_expectations("# the flash backend\n\nkernels == 1\n  memcpy == 0   # no copy\n",
                               "flash.expect");
  ASSERT_TRUE(ok.ok()) << ok.error().message;
  ASSERT_EQ(ok->size(), 2u);
  EXPECT_EQ((*ok)[0].source, "flash.expect:3");
  EXPECT_EQ((*ok)[1].text, "memcpy == 0");
  EXPECT_EQ((*ok)[1].source, "flash.expect:4");

  auto bad = parse_expectations("# comment\nkernels == 1\nkernels = 1\n", "flash.expect");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.substr(0, 55),
            "flash.expect:3:9: expected an operator: kernels = 1 (op");
}

TEST(ExpectationCheck, FlashForwardHoldsWhatTheStudySays) {
  TraceAnalysis t = analyze_fixture("study_sdpa-flash.json.gz", "forward");
  auto parsed = parse_expectations(
      "kernels == 1\nmemcpy == 0\nmain_kernel ~ \"flash\"\nmain_kernel ~ \"PYTORCH_FLASH\"\n"
      "launch_api == cudaLaunchKernel\noccupancy_pct >= 10\nkineto_occupancy_pct == 13\n"
      "registers_per_thread == 255\nshared_memory_bytes == 49152\ngrid_blocks == "
      "1024\nkernels.fused_attention == "
      "1\n"
      "gpu_busy_us < 200\nregions == 3\n",
      "inline");
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  auto results = check_expectations(*parsed, t);
  ASSERT_EQ(results.size(), parsed->size());
  for (const auto& r : results) EXPECT_TRUE(r.holds) << r.text << " actual " << r.actual;
  EXPECT_TRUE(all_hold(results));
  EXPECT_EQ(results[2].actual, "flash_fwd_kernel<...>");
  EXPECT_EQ(results[5].actual, "12.5");
}

TEST(ExpectationCheck, FailuresShowTheActualValue) {
  TraceAnalysis t = analyze_fixture("study_naive.json.gz", "forward");
  auto parsed = parse_expectations(
      "memcpy == 0\nkernels == 5 and memcpy_dtod == 0\nmain_kernel ~ \"flash\"\n", "x");
  ASSERT_TRUE(parsed.ok());
  auto results = check_expectations(*parsed, t);
  EXPECT_FALSE(results[0].holds);
  EXPECT_EQ(results[0].actual, "1");
  EXPECT_FALSE(results[1].holds);
  EXPECT_EQ(results[1].actual, "kernels = 5; memcpy_dtod = 1");
  EXPECT_FALSE(results[2].holds);
  // The longest kernel of the naive forward is the softmax; its full name is shown when ~ fails.
  EXPECT_EQ(
      results[2].actual.rfind(
          "softmax_warp_forward<...> (full name: void (anonymous namespace)::softmax_warp_forward",
          0),
      0u)
      << results[2].actual;
}

TEST(ExpectationCheck, NoMatchingRegionFailsWithTheReason) {
  // analyze_file refuses a pattern that matches nothing (the CLI's rule, docs/SECURITY.md); a
  // library user who summarizes the trace anyway gets each metric's reason.
  auto trace = read_trace(fixture("study_sdpa-flash.json.gz"), Limits{});
  ASSERT_TRUE(trace.ok());
  AnalyzeOptions options;
  options.region_pattern = "no_such_region";
  options.activities_of_every_region = true;
  TraceAnalysis t = summarize_trace(*trace, options);
  auto results = check_expectations(*parse_expectations("kernels == 0\nregions == 0\n", "x"), t);
  EXPECT_FALSE(results[0].holds);
  EXPECT_EQ(results[0].actual, "n/a (no region matches \"no_such_region\")");
  EXPECT_TRUE(results[1].holds);
}

// The line of `output` that contains `needle`, without its newline; "" when none does.
std::string line_with(const std::string& output, std::string_view needle) {
  size_t at = output.find(needle);
  if (at == std::string::npos) return {};
  size_t start = output.rfind('\n', at);
  start = start == std::string::npos ? 0 : start + 1;
  return output.substr(start, output.find('\n', at) - start);
}

const char* kFlashExpectations =
    "--expect 'kernels == 1' --expect 'memcpy == 0' --expect 'main_kernel ~ \"flash\"' "
    "--expect 'launch_api == cudaLaunchKernel' --expect 'occupancy_pct >= 10'";

TEST(CheckCommand, FlashPassesWithExitZero) {
  auto r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") + " " +
                   kFlashExpectations);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ok    main_kernel ~ \"flash\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("5 of 5 expectations hold"), std::string::npos) << r.output;
}

// The names check used before it took analyze's (docs/METRICS.md, "Renamed") still work for one
// release, in their old units, with one note per name on stderr.
TEST(CheckCommand, OldMetricNamesKeepTheirOldUnitsWithANote) {
  const TraceAnalysis t = analyze_fixture("study_sdpa-flash.json.gz", "forward");
  const MetricValue us = metric_value(t, "gpu_busy_us"), ms = metric_value(t, "gpu_time_ms");
  ASSERT_TRUE(us.available && ms.available);
  EXPECT_NEAR(ms.number.median * 1000, us.number.median, 1e-9);
  EXPECT_NEAR(ms.number.max * 1000, us.number.max, 1e-9);
  EXPECT_DOUBLE_EQ(metric_value(t, "shared_memory_kb").number.median * 1024,
                   metric_value(t, "shared_memory_bytes").number.median);
  EXPECT_EQ(metric_value(t, "registers").number.median, 255);
  EXPECT_FALSE(metric_value(t, "gpu_time_ms.gemmm").available);
  // Only the current names are listed (check's JSON "metrics", docs/METRICS.md).
  for (const auto& info : metric_catalog()) EXPECT_EQ(info.name.find("_ms"), std::string::npos);

  auto r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") +
                   " --expect 'gpu_time_ms < 0.2 and gpu_time_ms > 0.15' --expect "
                   "'shared_memory_kb == 48' --expect 'gpu_time_ms.fused_attention > 0.1'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  const std::string note = "note: metric gpu_time_ms (ms) is now gpu_busy_us (µs)";
  const size_t at = r.output.find(note);
  ASSERT_NE(at, std::string::npos) << r.output;
  EXPECT_EQ(r.output.find(note, at + 1), std::string::npos) << "said once: " << r.output;
  EXPECT_NE(r.output.find("shared_memory_kb (KiB) is now shared_memory_bytes (bytes)"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("gpu_time_ms.fused_attention (ms) is now gpu_time_us.fused_attention"),
            std::string::npos)
      << r.output;
  // A current name draws no note.
  r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") +
              " --expect 'gpu_busy_us < 200'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.find("note:"), std::string::npos) << r.output;
}

TEST(CheckCommand, AFailedExpectationExitsOneWithTheActualValue) {
  auto r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") + " " +
                   kFlashExpectations + " --expect 'kernels == 2'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  std::string line = line_with(r.output, "FAIL  kernels == 2");
  EXPECT_TRUE(line.ends_with(" actual 1")) << r.output;
  EXPECT_NE(r.output.find("5 of 6 expectations hold; 1 fails"), std::string::npos) << r.output;
}

TEST(CheckCommand, CudnnIsLaunchedWithCuLaunchKernelEx) {
  auto r = run_cli(
      "check --region forward " + fixture("study_sdpa-cudnn.json.gz") +
      " --expect 'launch_api == cuLaunchKernelEx' --expect 'main_kernel ~ cudnn_generated'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(CheckCommand, ABadExpressionExitsTwoWithTheColumnAndACaret) {
  auto r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") +
                   " --expect 'kernels = 1'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("expected an operator at column 9: kernels = 1"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("\n  kernels = 1\n          ^\n"), std::string::npos) << r.output;
}

TEST(CheckCommand, AnExpectationsFileWithABadLineNamesFileLineAndColumn) {
  TempFile file("flash.expect", "# flash: one fused kernel\nkernels == 1\n\nmemcpy = 0\n");
  auto r =
      run_cli("check " + fixture("study_sdpa-flash.json.gz") + " --expectations " + file.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(file.path() + ":4:8: expected an operator: memcpy = 0"),
            std::string::npos)
      << r.output;
}

TEST(CheckCommand, AnExpectationsFileIsCheckedLineByLine) {
  TempFile file("flash.expect",
                "# The study's claims about the flash backend, written before reading the trace.\n"
                "kernels == 1\nmemcpy == 0          # no hidden copy\nmain_kernel ~ \"flash\"\n");
  auto r = run_cli("check --region forward " + fixture("study_sdpa-flash.json.gz") +
                   " --expectations " + file.path() + " --expect 'occupancy_pct < 20'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("[" + file.path() + ":3]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("4 of 4 expectations hold"), std::string::npos) << r.output;
}

TEST(CheckCommand, BadInputExitsTwo) {
  EXPECT_EQ(run_cli("check " + fixture("study_sdpa-flash.json.gz")).exit_code,
            2);  // nothing to check
  EXPECT_EQ(
      run_cli("check " + fixture("no_such_file.json.gz") + " --expect 'kernels == 1'").exit_code,
      2);
  EXPECT_EQ(
      run_cli("check " + fixture("study_sdpa-flash.json.gz") + " --expectations /no/such/file")
          .exit_code,
      2);
}

TEST(CheckCommand, JsonOutputCarriesResultsAndEveryMetric) {
  auto r = run_cli("check --region forward --format json " + fixture("study_sdpa-cudnn.json.gz") +
                   " --expect 'kineto_occupancy_pct == 0'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("\"schemaVersion\": 3"), std::string::npos);
  EXPECT_NE(r.output.find("\"all_hold\": true"), std::string::npos);
  EXPECT_NE(r.output.find("\"launch_api\": \"cuLaunchKernelEx\""), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("\"kernels.fused_attention\": {"), std::string::npos) << r.output;
}

// `"actual": "5"` made every script parse a string (docs/STUDY.md): values are numbers, texts are
// texts, and the words stay beside them.
TEST(CheckCommand, JsonActualValuesAreNumbers) {
  auto r =
      run_cli("check --region forward --format json " + fixture("study_naive.json.gz") +
              " --expect 'kernels == 5 and memcpy_dtod == 1' --expect 'main_kernel ~ softmax'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(simdjson::padded_string(r.output));
  simdjson::dom::array results = doc["results"];
  ASSERT_EQ(results.size(), 2u);
  simdjson::dom::element first = results.at(0)["actual"];
  EXPECT_TRUE(first["kernels"].is_number());
  EXPECT_EQ(double(first["kernels"]), 5);
  EXPECT_EQ(double(first["memcpy_dtod"]), 1);
  EXPECT_EQ(std::string_view(results.at(0)["actual_text"]), "kernels = 5; memcpy_dtod = 1");
  EXPECT_EQ(std::string_view(results.at(1)["actual"]["main_kernel"]), "softmax_warp_forward<...>");

  // A metric the trace cannot give is null, not a string: a region that ran no kernel has no
  // main kernel. (A region pattern that matches nothing is bad input, exit 2: docs/SECURITY.md.)
  r = run_cli("check --region forward --format json " + fixture("cpu_only.json.gz") +
              " --expect 'main_kernel ~ \"softmax\"'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  doc = parser.parse(simdjson::padded_string(r.output));
  EXPECT_TRUE(simdjson::dom::array(doc["results"]).at(0)["actual"]["main_kernel"].is_null());
}

TEST(CheckCommand, CsvHasARowPerMetricOfEachExpectation) {
  auto r = run_cli("check --region forward --format csv " + fixture("study_naive.json.gz") +
                   " --expect 'kernels == 5 and memcpy_dtod == 1' --expect 'kernels > 9'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  const std::string trace = fixture("study_naive.json.gz");
  EXPECT_EQ(r.output, "trace,variant,expression,source,holds,metric,value,min,max,regions\n" +
                          trace + ",,kernels == 5 and memcpy_dtod == 1,,true,kernels,5,5,5,3\n" +
                          trace +
                          ",,kernels == 5 and memcpy_dtod == 1,,true,memcpy_dtod,1,1,1,3\n" +
                          trace + ",,kernels > 9,,false,kernels,5,5,5,3\n");
}

TEST(VariantExpectations, PrefixesNameVariantsOrEvery) {
  const std::vector<std::string> variants{"naive", "sdpa-flash"};
  auto parsed = parse_variant_expectations(
      "# a study\nnaive: memcpy == 1  # the copy\n*: memset <= 1\nkernels >= 1\n"
      "sdpa-flash: main_kernel ~ \"flash\"\n",
      "s.expect", variants);
  ASSERT_TRUE(parsed.ok()) << parsed.error().message;
  ASSERT_EQ(parsed->size(), 4u);
  EXPECT_EQ((*parsed)[0].variant, "naive");
  EXPECT_EQ((*parsed)[0].expectation.source, "s.expect:2");
  EXPECT_EQ((*parsed)[1].variant, "*");
  EXPECT_EQ((*parsed)[2].variant, "*");
  EXPECT_EQ(expectations_for(*parsed, "naive").size(), 3u);
  EXPECT_EQ(expectations_for(*parsed, "sdpa-flash").size(), 3u);

  auto unknown = parse_variant_expectations("  flashy: kernels == 1\n", "s.expect", variants);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message,
            "s.expect:1:3: unknown variant 'flashy' (variants: naive, sdpa-flash, or *)");
  auto bad = parse_variant_expectations("naive: kernels = 1\n", "s.expect", variants);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message.rfind("s.expect:1:16: expected an operator", 0), 0u)
      << bad.error().message;
}

// The study's claims, checked on the shipped study's traces without a GPU (docs/STUDY.md).
TEST(CheckStudy, TheShippedStudyHoldsItsOwnClaims) {
  const std::string study = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";
  const std::string expect = std::string(ATTNPROF_SOURCE_DIR) + "/examples/study.expect";
  auto r = run_cli("check " + study + " --expectations " + expect);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  // 12 lines: 11 for one variant each, and `*: memset <= 1` for each of the 7 variants.
  EXPECT_NE(r.output.find("study: 18 of 18 expectations hold over 7 variants"), std::string::npos)
      << r.output;
  EXPECT_NE(
      r.output.find("naive: " + study + "/traces/naive.json.gz: 5 regions matching \"forward\""),
      std::string::npos)
      << r.output;
  EXPECT_NE(
      r.output.find(
          "  ok    launch_api == cuLaunchKernelEx                    actual cuLaunchKernelEx"),
      std::string::npos)
      << r.output;
}

TEST(CheckStudy, AFalseClaimFailsOnItsVariantOnly) {
  const std::string study = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";
  TempFile file("wrong.expect", "naive: memcpy == 0\ninplace: memcpy == 0\n");
  auto r = run_cli("check " + study + " --expectations " + file.path() + " --format json");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  simdjson::dom::parser parser;
  simdjson::dom::element doc = parser.parse(simdjson::padded_string(r.output));
  EXPECT_FALSE(bool(doc["all_hold"]));
  std::map<std::string, bool> holds;
  for (simdjson::dom::element v : simdjson::dom::array(doc["variants"]))
    holds[std::string(std::string_view(v["variant"]))] = bool(v["all_hold"]);
  EXPECT_EQ(holds.size(), 7u);
  EXPECT_FALSE(holds["naive"]);
  EXPECT_TRUE(holds["inplace"]);
  EXPECT_TRUE(holds["sdpa-flash"]) << "no line for it: nothing to fail";

  TempFile unknown("unknown.expect", "flashy: kernels == 1\n");
  r = run_cli("check " + study + " --expectations " + unknown.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("unknown variant 'flashy' (variants: inplace, naive, sdpa-auto"),
            std::string::npos)
      << r.output;
}

}  // namespace
}  // namespace attnprof
