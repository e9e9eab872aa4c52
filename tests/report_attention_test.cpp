// The attention calls in `attnprof report` (docs/REPORT.md, "Attention calls"): the report of
// plain traces shows each trace's table as analyze prints it, in text, Markdown and on the page,
// and a bench folder's page shows each variant's, on the real H200 traces of tests/data/models and
// examples/h200-study.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "test_support.h"

namespace attnprof {
namespace {

const std::string kModels = std::string(ATTNPROF_TEST_DATA) + "/models/";
const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";

std::string between(const std::string& text, const std::string& open, const std::string& close) {
  const size_t from = text.find(open);
  if (from == std::string::npos) return "";
  const size_t to = text.find(close, from + open.size());
  return to == std::string::npos ? "" : text.substr(from, to + close.size() - from);
}

// analyze's attention block of one trace: from its heading to its share line.
std::string analyze_block(const std::string& trace, const std::string& format) {
  auto r = testing::run_cli("analyze " + trace + " --format " + format + " --wide -o -");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return format == "text" ? between(r.output, "  Attention calls of the typical region",
                                    " of its GPU busy time (medians)\n")
                          : between(r.output, "Attention calls of the typical region",
                                    " of its GPU busy time \\(medians\\)\n");
}

TEST(ReportAttentionCalls, TextAndMarkdownOfTracesHoldAnalyzesTablePerTrace) {
  const std::vector<std::string> traces = {kModels + "llama-prefill-eager.json.gz",
                                           kModels + "llama-train-sdpa.json.gz"};
  const std::string inputs = traces[0] + " " + traces[1];
  auto text = testing::run_cli("report " + inputs + " --format text --wide -o -");
  auto md = testing::run_cli("report " + inputs + " --format md -o -");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  ASSERT_EQ(md.exit_code, 0) << md.output;
  for (const std::string& trace : traces) {
    const std::string block = analyze_block(trace, "text");
    ASSERT_FALSE(block.empty()) << trace;
    EXPECT_NE(text.output.find(block), std::string::npos) << trace << "\n" << text.output;
    const std::string md_block = analyze_block(trace, "md");
    ASSERT_FALSE(md_block.empty()) << trace;
    EXPECT_NE(md.output.find(md_block), std::string::npos) << trace << "\n" << md.output;
  }
  // Each under its trace's name, and the values of the eager prefill: two unfused calls of
  // 2 x 16 heads (over the model's 4 KV heads, which repeat_kv expanded) over 512 x 512, 2.15
  // GFLOP each, 103.9 µs, 34.2 % of the step's GPU time.
  EXPECT_NE(
      text.output.find("\nllama-prefill-eager:\n  Attention calls of the typical region (#1)"),
      std::string::npos);
  EXPECT_NE(text.output.find("      2 matmul -> mul... unfused    fwd      2   16/4     512x512  "
                             "64 bf16  -             2.15   103.9    20.7   8.5 mem\n"),
            std::string::npos)
      << text.output;
  EXPECT_NE(text.output.find("attention: 2 call(s), 207.9 µs of GPU time a region, 34.2 % of its "
                             "GPU busy time (medians)"),
            std::string::npos);
  // The training step: cuDNN forward and backward, GQA 16 over 4 heads.
  EXPECT_NE(md.output.find("## Attention calls: llama-train-sdpa\n"), std::string::npos);
  EXPECT_NE(md.output.find("| cudnn | bwd | 2 | 16/4 | 512x512 | 64 | bf16 | causal | 2.69 |"),
            std::string::npos)
      << md.output;
}

TEST(ReportAttentionCalls, ThePageOfTracesHasATablePerTrace) {
  auto r = testing::run_cli("report " + kModels + "llama-prefill-eager.json.gz " + kModels +
                            "llama-prefill-flex_attention.json.gz " + kModels +
                            "mistral-decode-sdpa.json.gz --format html -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 300);
  EXPECT_NE(r.output.find(R"(<li><a href="#attention">Attention calls</a></li>)"),
            std::string::npos);
  const std::string section =
      between(r.output, R"(<section class="card" id="attention">)", "</section>");
  ASSERT_FALSE(section.empty());
  // A table per trace, its rows' backends told from the kernels.
  auto table = [&](const std::string& variant) {
    return between(section, R"(data-variant=")" + variant + R"("><thead>)", "</table>");
  };
  const std::string eager = table("llama-prefill-eager");
  EXPECT_NE(eager.find(R"(<tr data-backend="unfused"><td class="num">2</td>)"), std::string::npos)
      << eager;
  EXPECT_NE(eager.find(R"(<td class="num">512x512</td>)"), std::string::npos);
  EXPECT_NE(
      eager.find(
          R"(<td class="num">2.15</td><td class="num">103.9</td><td class="num">20.7</td><td class="num">8.5 mem</td>)"),
      std::string::npos)
      << eager;
  EXPECT_NE(table("llama-prefill-flex_attention").find(R"(<tr data-backend="flex">)"),
            std::string::npos);
  const std::string decode = table("mistral-decode-sdpa");
  EXPECT_NE(decode.find(R"(<tr data-backend="cudnn">)"), std::string::npos) << decode;
  EXPECT_NE(decode.find(R"(<td class="num">1x)"), std::string::npos) << decode;  // one query
  // Attention's share of the region's GPU time, beside each table.
  EXPECT_NE(section.find("attention: 2 call(s), 207.9 µs of GPU time a region, 34.2 % of its GPU "
                         "busy time (medians)"),
            std::string::npos);
}

TEST(ReportAttentionCalls, TheStudysPageHasEachVariantsCall) {
  auto r = testing::run_cli("report " + kStudy + " --format html -o -");
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 300);
  const std::string section =
      between(r.output, R"(<section class="card" id="attention">)", "</section>");
  ASSERT_FALSE(section.empty());
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"naive", "unfused"},          {"inplace", "unfused"},
      {"sdpa-math", "math"},         {"sdpa-efficient", "efficient"},
      {"sdpa-flash", "flash"},       {"sdpa-cudnn", "cudnn"},
      {"sdpa-auto (cudnn)", "cudnn"}};
  for (const auto& [variant, backend] : expected) {
    const std::string table =
        between(section, R"(data-variant=")" + variant + R"("><thead>)", "</table>");
    // One call per forward, 4 x 16 heads over 2048 x 2048.
    EXPECT_NE(table.find(R"(<tr data-backend=")" + backend + R"("><td class="num">1</td>)"),
              std::string::npos)
        << variant << "\n"
        << table;
    EXPECT_NE(table.find(R"(<td class="num">2048x2048</td>)"), std::string::npos) << variant;
  }
  // The bench's text and Markdown stay the table it prints (table.txt, summary.md).
  auto text = testing::run_cli("report " + kStudy + " --format text --wide -o -");
  EXPECT_EQ(text.output.find("Attention calls of the typical region"), std::string::npos);
}

}  // namespace
}  // namespace attnprof
