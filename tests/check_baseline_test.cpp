// check's CI gates: `baseline.METRIC` values read from --baseline (a trace, or a study folder
// variant by variant), the JUnit report, and the example gate script of docs/check-and-diff.md,
// on the real study traces of tests/data and examples/h200-study.

#include <gtest/gtest.h>

#include <filesystem>

#include "analysis/expectations/expectation_parser.h"
#include "attnprof/expectations.h"
#include "render/check/check_output.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::fixture;
using testing::run_cli;
using testing::run_command;
using testing::TempFile;

Expectation parsed(const std::string& text) {
  auto e = parse_expectation(text);
  EXPECT_TRUE(e.ok()) << text << ": " << (e.ok() ? "" : e.error().message);
  return e.ok() ? *e : Expectation{};
}

std::string refused(const std::string& text) {
  auto e = parse_expectation(text);
  return e.ok() ? std::string("accepted") : e.error().message;
}

TEST(CheckBaseline, ParsesScaledAndShiftedBaselineValues) {
  const Expectation e = parsed("gpu_busy_us <= baseline.gpu_busy_us * 1.05");
  const Comparison& c = e.all_of[0];
  ASSERT_TRUE(c.baseline);
  EXPECT_EQ(c.baseline->metric, "gpu_busy_us");
  EXPECT_EQ(c.baseline->op, '*');
  EXPECT_DOUBLE_EQ(c.baseline->applied_to(2.0), 2.1);
  EXPECT_DOUBLE_EQ(parsed("kernels <= baseline.kernels + 1").all_of[0].baseline->applied_to(5), 6);
  EXPECT_DOUBLE_EQ(parsed("kernels > baseline.kernels - 2").all_of[0].baseline->applied_to(5), 3);
  EXPECT_DOUBLE_EQ(parsed("wall_us < baseline.wall_us / 2").all_of[0].baseline->applied_to(5), 2.5);
  const Expectation two = parsed("kernels == baseline.kernels and memcpy <= baseline.memcpy");
  ASSERT_EQ(two.all_of.size(), 2u);
  EXPECT_TRUE(two.all_of[1].baseline);
  EXPECT_TRUE(uses_baseline({two}));
  EXPECT_FALSE(uses_baseline({parsed("kernels == 1")}));
}

TEST(CheckBaseline, RefusesWhatCannotBeCompared) {
  EXPECT_NE(refused("kernels <= baseline.kernelz").find("unknown metric \"kernelz\""),
            std::string::npos);
  EXPECT_NE(refused("kernels <= baseline.main_kernel").find("is text where kernels is a number"),
            std::string::npos)
      << refused("kernels <= baseline.main_kernel");
  EXPECT_NE(refused("main_kernel == baseline.main_kernel * 2").find("arithmetic needs a number"),
            std::string::npos);
  EXPECT_NE(refused("kernels <= baseline.kernels / 0").find("division by zero"), std::string::npos);
  EXPECT_NE(refused("kernels <= baseline.kernels * x").find("expected a number"),
            std::string::npos);
}

TEST(CheckBaseline, ComparesAgainstTheBaselinesMedian) {
  const TraceAnalysis flash = analyze_fixture("study_sdpa-flash.json.gz", "forward");
  const TraceAnalysis naive = analyze_fixture("study_naive.json.gz", "forward");
  const auto within = parsed("gpu_busy_us <= baseline.gpu_busy_us * 1.05");
  // Flash (158 µs) is far inside 1.05 x naive (2271 µs); naive is far outside 1.05 x flash.
  auto r = check_expectations({within}, flash, &naive);
  EXPECT_TRUE(r[0].holds) << r[0].actual;
  EXPECT_NE(r[0].actual.find("against baseline.gpu_busy_us * 1.05 = 2384.778"), std::string::npos)
      << r[0].actual;
  r = check_expectations({within}, naive, &flash);
  EXPECT_FALSE(r[0].holds);
  // Against itself, any gate of at least 1x holds and a strict one fails.
  EXPECT_TRUE(check_expectations({within}, naive, &naive)[0].holds);
  EXPECT_FALSE(check_expectations({parsed("kernels < baseline.kernels")}, naive, &naive)[0].holds);
  EXPECT_TRUE(check_expectations({parsed("kernels == baseline.kernels - 4")}, flash, &naive)[0]
                  .holds);  // 1 fused kernel against naive's 5
  // Without a baseline, the comparison fails and says why.
  r = check_expectations({within}, naive, nullptr);
  EXPECT_FALSE(r[0].holds);
  EXPECT_NE(r[0].actual.find("no baseline: give check --baseline"), std::string::npos);
}

TEST(CheckBaseline, CommandLineGatesAStudyVariantByVariant) {
  // A candidate whose sdpa-flash is naive's trace: that variant slowed down 14x.
  namespace fs = std::filesystem;
  TempFile marker("unused");
  const fs::path candidate = fs::path(marker.dir()) / "candidate";
  fs::create_directories(candidate / "traces");
  const fs::path study = fs::path(ATTNPROF_SOURCE_DIR) / "examples/h200-study/traces";
  fs::copy_file(study / "sdpa-cudnn.json.gz", candidate / "traces/sdpa-cudnn.json.gz");
  fs::copy_file(study / "naive.json.gz", candidate / "traces/sdpa-flash.json.gz");
  fs::copy_file(study / "naive.json.gz", candidate / "traces/new-variant.json.gz");
  const std::string gate = " --baseline " + std::string(ATTNPROF_SOURCE_DIR) +
                           "/examples/h200-study --expect 'gpu_busy_us <= baseline.gpu_busy_us * "
                           "1.05'";
  auto r = run_cli("check --wide " + candidate.string() + gate);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("sdpa-flash"), std::string::npos);
  EXPECT_NE(r.output.find("no baseline: give check --baseline"), std::string::npos)
      << "new-variant has no baseline: " << r.output;
  EXPECT_NE(r.output.find("1 of 3 expectations hold"), std::string::npos) << r.output;

  auto junit = run_cli("check " + candidate.string() + gate + " --format junit");
  EXPECT_EQ(junit.exit_code, 1);
  TempFile xml("gate.xml", junit.output);
  // Python's XML parser reads it; three suites, one test case each, two failures.
  const auto counts = run_command(
      "python3 -c \"import sys, xml.etree.ElementTree as E; t = E.parse(sys.argv[1]).getroot(); "
      "print(t.get('tests'), t.get('failures'), len(t.findall('testsuite')), "
      "len(t.findall('.//failure')))\" " +
      xml.path());
  EXPECT_EQ(counts.output, "3 2 3 2\n") << junit.output;
}

TEST(CheckBaseline, UsageErrorsAreSaidBeforeReading) {
  auto r = run_cli("check " + fixture("study_naive.json.gz") +
                   " --expect 'kernels <= baseline.kernels'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("give --baseline TRACE_OR_STUDY"), std::string::npos);
  r = run_cli("check " + fixture("study_naive.json.gz") + " --baseline " +
              fixture("study_naive.json.gz") + " --expect 'kernels == 5'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("no expression reads it"), std::string::npos);
  r = run_cli("check " + fixture("study_naive.json.gz") + " --baseline " + fixture("ranks") +
              " --expect 'kernels <= baseline.kernels'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("is a folder: a trace is checked against a trace"), std::string::npos);
}

TEST(CheckJunit, EscapesWhatXmlCannotHold) {
  CheckReport report;
  // A byte that is no UTF-8 (0xff) would make the XML unreadable as it is.
  report.analysis.path = std::string("odd<&>\"\x1b\x01\xff.json");
  ExpectationResult r;
  r.text = "main_kernel ~ \"<x>\"";
  r.actual = "k\x07<y>";
  report.results = {r};
  const std::string out = render_check_junit("odd", {report});
  EXPECT_EQ(out.find('\x1b'), std::string::npos);
  EXPECT_EQ(out.find('\x07'), std::string::npos);
  EXPECT_EQ(out.find('\xff'), std::string::npos);
  EXPECT_NE(out.find("odd&lt;&amp;&gt;&quot;\\x1b\\x01\\xff.json"), std::string::npos) << out;
  EXPECT_NE(out.find("<failure message=\"actual: k\\x07&lt;y&gt;\""), std::string::npos) << out;
  TempFile xml("odd.xml", out);
  EXPECT_EQ(run_command("python3 -c \"import sys, xml.etree.ElementTree as E; "
                        "E.parse(sys.argv[1])\" " +
                        xml.path())
                .exit_code,
            0);
}

TEST(CheckJunit, TheExampleGateScriptPassesTheShippedStudyAgainstItself) {
  TempFile xml("gate.xml");
  const std::string root = ATTNPROF_SOURCE_DIR;
  auto r = run_command("ATTNPROF=" + std::string(ATTNPROF_CLI) + " " + root +
                       "/examples/ci/attention-gate.sh " + root + "/examples/h200-study " + root +
                       "/examples/h200-study " + xml.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(xml.path());
  const std::string junit((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(junit.find("failures=\"0\""), std::string::npos);
  EXPECT_NE(junit.find("gpu_busy_us &lt;= baseline.gpu_busy_us * 1.05"), std::string::npos);
}

}  // namespace
}  // namespace attnprof
