// Markdown as a pull request comment (docs/check-and-diff.md): kernel names in tables cut to a
// width a table can hold, with the names in full in a <details> below; one spelling of microseconds
// ("µs") in the findings, the tables and the text, so that a finding and the table beside it agree.

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

#include "attnprof/render.h"
#include "pipeline/report_inputs.h"
#include "render/markdown_kernel_names.h"
#include "study/render/report.h"
#include "test_support.h"

namespace attnprof {
namespace {

const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";

ReportData load_study() {
  auto data = load_report({kStudy}, ReportOptions{});
  if (!data.ok()) throw std::runtime_error(data.error().message);
  return std::move(data).value();
}

TraceAnalysis analyze_fixture(const std::string& name, const std::string& region = "forward") {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  auto t = analyze_file(testing::fixture(name), options);
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

// The widest cell of the Markdown tables in `md`, in characters (UTF-8 sequences count one).
size_t widest_cell(const std::string& md) {
  size_t widest = 0;
  size_t line_start = 0;
  while (line_start < md.size()) {
    size_t end = md.find('\n', line_start);
    if (end == std::string::npos) end = md.size();
    const std::string line = md.substr(line_start, end - line_start);
    line_start = end + 1;
    if (line.rfind("|", 0) != 0) continue;
    size_t chars = 0;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '|' && line[i - 1] != '\\') {
        widest = std::max(widest, chars);
        chars = 0;
      } else if ((static_cast<unsigned char>(line[i]) & 0xC0) != 0x80) {
        ++chars;
      }
    }
  }
  return widest;
}

TEST(MarkdownKernelNames, LongNamesAreCutAtAnUnderscoreAndNumbered) {
  EXPECT_EQ(cut_kernel_name("flash_fwd_kernel<...>"), "flash_fwd_kernel<...>");
  const std::string cudnn =
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_"
      "cga1x1x1_kernel0_0";
  EXPECT_EQ(cut_kernel_name(cudnn), "cudnn_generated_fort_native_sdpa_sm90_flash…");
  // No underscore near the width: a hard cut, between characters (µ is two bytes).
  const std::string micro(60, 'x');
  std::string wide;
  for (int i = 0; i < 60; ++i) wide += "µ";
  EXPECT_EQ(cut_kernel_name(micro), std::string(47, 'x') + "…");
  std::string expected;
  for (int i = 0; i < 47; ++i) expected += "µ";
  EXPECT_EQ(cut_kernel_name(wide), expected + "…");

  MarkdownKernelNames names;
  EXPECT_EQ(names.cell("flash_fwd_kernel<...>"), "`flash_fwd_kernel<...>`");  // whole: no number
  EXPECT_EQ(names.cell(cudnn), "`cudnn_generated_fort_native_sdpa_sm90_flash…` [1]");
  EXPECT_EQ(names.cell(cudnn), "`cudnn_generated_fort_native_sdpa_sm90_flash…` [1]");  // once
  EXPECT_EQ(names.cell("softmax_warp_forward<...>", "void softmax_warp_forward<float, 11>(float*)"),
            "`softmax_warp_forward<...>` [2]");
  EXPECT_EQ(names.details(),
            "<details><summary>Kernel names in full</summary>\n\n1. " + cudnn +
                "\n2. void softmax_warp_forward&lt;float, 11&gt;\\(float*\\)\n\n</details>\n\n");
  EXPECT_EQ(MarkdownKernelNames().details(), "");
}

TEST(MarkdownKernelNames, ReportTableCellsFitAndTheFullNamesFollow) {
  const std::string md = render_report_markdown(load_study());
  // Before: sdpa-math's cuBLAS kernel filled a 114-character cell. The studies beside the run
  // (docs/CUSTOM_KERNELS.md) have a backend's refusal, a reason kept whole in Markdown: their
  // kernel names are cut all the same.
  EXPECT_LE(widest_cell(md.substr(0, md.find("## Beside it"))), 70u);
  const std::string beside = md.substr(md.find("## Beside it"));
  EXPECT_NE(beside.find("| `cudnn_generated_fort_native_sdpa_sm80_flash…` ["), std::string::npos);
  EXPECT_EQ(beside.find("| `cudnn_generated_fort_native_sdpa_sm80_flash_"), std::string::npos);
  EXPECT_NE(md.find("| `sm80_xmma_gemm_f32f32_f32f32_f32_tn_n…` [1] |"), std::string::npos);
  const size_t table = md.find("| variant |");
  const size_t details = md.find("<details><summary>Kernel names in full</summary>");
  ASSERT_NE(details, std::string::npos);
  EXPECT_LT(table, details);
  EXPECT_LT(details, md.find("What the traces show"));
  EXPECT_NE(
      md.find("1. sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_tilesize128x128x8_stage3_warpsize2x2x1_"
              "ffma_aligna4_alignc4_execute_kernel__5x_cublas\n"),
      std::string::npos);
  EXPECT_NE(md.find("2. cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_"),
            std::string::npos);
}

TEST(MarkdownKernelNames, AnalyzeActivitiesTableNamesKernelsInFullBelow) {
  const std::string md = render_markdown({analyze_fixture("study_sdpa-math.json.gz")});
  EXPECT_LE(widest_cell(md), 200u);  // the op chains are long; the names are not
  EXPECT_NE(md.find("| 11 | `sm80_xmma_gemm_f32f32_f32f32_f32_tn_n…` [7] |"), std::string::npos)
      << md;
  EXPECT_NE(
      md.find("\n9. void \\(anonymous namespace\\)::softmax_warp_forward&lt;float, float, float, "
              "11, false, false&gt;"),
      std::string::npos);
  EXPECT_NE(md.find("| dur (µs) |"), std::string::npos);
}

// " us" after a number, the spelling the findings used while the tables said "µs".
const std::regex kAsciiMicro(R"([0-9] us\b)");

TEST(Units, FindingsTablesAndTextSpellMicrosecondsOneWay) {
  const std::string report_md = render_report_markdown(load_study());
  EXPECT_FALSE(std::regex_search(report_md, kAsciiMicro));
  // sdpa-math's upcast: its FP32 GEMMs, 1017.7 + 822.1 µs, as the tables print a duration.
  EXPECT_NE(report_md.find(
                "2 FP32 GEMM kernel\\(s\\) on CUDA cores \\(1.84 ms\\) and 5 cast kernel\\(s\\)"),
            std::string::npos);
  const std::string html = render_report_html(load_study());
  EXPECT_FALSE(std::regex_search(html, kAsciiMicro));

  std::vector<TraceAnalysis> traces = {analyze_fixture("study_sdpa-cudnn.json.gz"),
                                       analyze_fixture("small_launch_bound.json.gz", "")};
  for (const std::string& out : {render_markdown(traces), render_text(traces)}) {
    EXPECT_FALSE(std::regex_search(out, kAsciiMicro)) << out;
    EXPECT_NE(out.find("µs"), std::string::npos);
  }
  // The text's table headers and a finding's numbers.
  const std::string text = render_text(traces);
  EXPECT_NE(text.find("GPU busy µs"), std::string::npos);
  EXPECT_NE(text.find("launch-bound"), std::string::npos) << text;
}

}  // namespace
}  // namespace attnprof
