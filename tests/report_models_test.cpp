// The model studies beside the op study (docs/REPORT.md, "Model studies"): `attnprof report
// examples/h200-study examples/models/*` shows each model's step, attention's share, the backend
// that ran and the projection, in every format, on the shipped folders.

#include <gtest/gtest.h>

#include <string>

#include "test_support.h"

namespace attnprof {
namespace {

// From the source folder, as the shipped folders are named (and their traces recorded).
testing::CommandResult report(const std::string& arguments) {
  return testing::run_command("cd " + std::string(ATTNPROF_SOURCE_DIR) + " && " +
                              std::string(ATTNPROF_CLI) + " report " + arguments);
}

const std::string kModels =
    "examples/models/llama-prefill-eager examples/models/llama-train-sdpa "
    "examples/models/llama-prefill-flex_attention";

std::string between(const std::string& text, const std::string& open, const std::string& close) {
  const size_t from = text.find(open);
  if (from == std::string::npos) return "";
  const size_t to = text.find(close, from + open.size());
  return to == std::string::npos ? "" : text.substr(from, to + close.size() - from);
}

TEST(ReportModels, ThePageHasTheOpStudyAndARowAndSectionPerModel) {
  auto r = report("examples/h200-study " + kModels + " --format html -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 300);
  // The op study is whole: its table, its headline.
  EXPECT_NE(r.output.find(R"(<table class="study-table" id="study-table">)"), std::string::npos);
  EXPECT_NE(r.output.find("<b>sdpa-cudnn</b> is the fastest: 101.7 µs"), std::string::npos);
  EXPECT_NE(
      r.output.find(
          R"(<li><a href="#models">The models</a>: <a href="#model-llama-prefill-eager">llama-prefill-eager</a>, <a href="#model-llama-train-sdpa">)"),
      std::string::npos);
  const std::string section =
      between(r.output, R"(<section class="card" id="models">)", "</section>");
  ASSERT_FALSE(section.empty());
  // A row per model, in the order given: its step on its critical path and what bounds it, its GPU
  // time, attention's time and share of it, the backend, the switch. The eager prefill's unfused
  // attention is 34.2 % of its GPU time, and cuDNN's kernels would save 28.4 % of that; its step
  // is held by the CPU, of which cuDNN saves 5.7 % (tests/step_projection_test.cpp).
  EXPECT_NE(
      section.find(
          R"(<tr data-model="llama-prefill-eager"><td class="variant"><a href="#model-llama-prefill-eager">llama-prefill-eager</a></td><td class="num">9.46 ms</td><td>CPU</td><td class="num">607.1 µs</td><td>ProfilerStep#2, the typical of 2</td><td class="num">207.9 µs</td><td class="num">34.2 %</td><td>unfused</td><td>switch to sdpa-cudnn: -541.2 µs (5.7 %)</td></tr>)"),
      std::string::npos)
      << section;
  // Training: the cuDNN forward and backward, nothing faster by more than the noise.
  EXPECT_NE(
      section.find(
          R"(<td class="num">19.69 ms</td><td>CPU</td><td class="num">1.67 ms</td><td>ProfilerStep#2, the typical of 2</td><td class="num">78.8 µs</td><td class="num">4.7 %</td><td>cudnn</td><td>keep cudnn: no switch saves 5 % of the step</td>)"),
      std::string::npos)
      << section;
  EXPECT_NE(section.find("<td>flex</td><td>keep flex: no switch saves 5 % of the step</td>"),
            std::string::npos);
  EXPECT_LT(section.find(R"(data-model="llama-prefill-eager")"),
            section.find(R"(data-model="llama-train-sdpa")"));
  // Each model's projection under its heading, with a link to its own page.
  const std::string eager = between(section, R"(<h3 id="model-llama-prefill-eager">)", "</ul>");
  EXPECT_NE(eager.find(R"(href="examples/models/llama-prefill-eager/summary.md")"),
            std::string::npos)
      << eager;
  EXPECT_NE(eager.find("<li>2 call(s) of unfused (2 x 16 heads (4 KV), 512 queries x 512 keys"),
            std::string::npos);
  EXPECT_NE(eager.find("<li>all of them: -172.6 µs per region (28.4 % of its 607.1 µs of GPU "
                       "time)</li>"),
            std::string::npos);
}

// The model's attention time, from its bench folder's projection, is the trace's own: analyze of
// the same trace says the same time and share.
TEST(ReportModels, AttentionShareAgreesWithAnalyzeOfTheTrace) {
  auto page = report("examples/h200-study examples/models/llama-prefill-eager --format html -o -");
  auto trace = report("tests/data/models/llama-prefill-eager.json.gz --format text --wide -o -");
  ASSERT_EQ(page.exit_code, 0);
  ASSERT_EQ(trace.exit_code, 0) << trace.output;
  EXPECT_NE(trace.output.find("207.9 µs of GPU time a region, 34.2 % of its GPU busy time"),
            std::string::npos);
  EXPECT_NE(page.output.find(R"(<td class="num">207.9 µs</td><td class="num">34.2 %</td>)"),
            std::string::npos);
}

TEST(ReportModels, TextMarkdownAndHeadlineHaveALinePerModel) {
  auto text = report("examples/h200-study " + kModels + " --format text --wide -o -");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(
      text.output.find("\nThe models (bench --from-trace), per step:\n  llama-prefill-eager: "
                       "step 9.46 ms, bound by CPU; 607.1 µs of GPU time (ProfilerStep#2, the "
                       "typical of 2); attention 207.9 µs (34.2 % of it) on unfused; switch to "
                       "sdpa-cudnn: -541.2 µs (5.7 %)\n    - 2 call(s) of unfused"),
      std::string::npos)
      << text.output;
  auto md = report("examples/h200-study " + kModels + " --format md -o -");
  ASSERT_EQ(md.exit_code, 0);
  EXPECT_NE(
      md.output.find(
          "| llama-train-sdpa | 19.69 ms | CPU | 1.67 ms | ProfilerStep#2, the typical of 2 | "
          "78.8 µs | 4.7 % | cudnn | keep cudnn: no switch saves 5 % of the step |\n"),
      std::string::npos)
      << md.output;
  auto headline = report("examples/h200-study " + kModels + " --format headline --wide -o -");
  ASSERT_EQ(headline.exit_code, 0);
  // The op study's line first, under its folder's name; then the studies beside it, then one
  // line per model.
  EXPECT_EQ(headline.output.rfind("examples/h200-study ", 0), 0u) << headline.output;
  EXPECT_NE(headline.output.find("llama-prefill-flex_attention:  step 10.91 ms, bound by CPU, "
                                 "397.5 µs of GPU time, attention 6.5 % of it on flex; keep flex: "
                                 "no switch saves 5 % of the step\n"),
            std::string::npos)
      << headline.output;
}

TEST(ReportModels, OnlyModelStudiesGoBesideTheRun) {
  // A folder of another study (not made --from-trace) is refused, in one line that says what to
  // give; so is a trace among folders.
  auto other = report("examples/h200-study examples/h200-study/gqa -o -");
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.output,
            "attnprof: examples/h200-study/gqa: not a model study (its summary.json has no "
            "from_trace); after the run, give only folders written by bench --from-trace "
            "(examples/models/*)\n");
  auto mixed = report("examples/h200-study tests/data/models/llama-prefill-eager.json.gz -o -");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.output.find("tests/data/models/llama-prefill-eager.json.gz: a trace file among "
                              "bench folders"),
            std::string::npos)
      << mixed.output;
}

}  // namespace
}  // namespace attnprof
