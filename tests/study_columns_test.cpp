// The study's table (study/render/study_columns.h), one list of columns for the bench's table and
// the report's run table: the GPU median in one unit per column, and every cell escaped, so that a
// kernel name from a trace can neither drive the terminal nor forge a Markdown row.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/format_units.h"
#include "render/display_text.h"
#include "study/render/counter_words.h"
#include "study/render/report_table.h"
#include "study/render/study_columns.h"
#include "study/run/run_summary.h"

namespace attnprof {
namespace {

RunVariant ran(const std::string& variant, double median_ms, const std::string& kernel) {
  RunVariant v;
  v.variant = variant;
  v.status = RunStatus::kOk;
  v.median_ms = median_ms;
  v.tflops = 100;
  v.output_error = 3.1e-3;
  RunRegionFacts forward;
  forward.facts.kernels = Spread{1, 1, 1, 5};
  MainKernel main;
  main.short_name = kernel;
  main.launch_api = "cudaLaunchKernel";
  forward.facts.main_kernel = main;
  v.forward = forward;
  return v;
}

size_t column_of(const StudyTable& table, const std::string& header_start) {
  for (size_t c = 0; c < table.header.size(); ++c)
    if (table.header[c].rfind(header_start, 0) == 0) return c;
  ADD_FAILURE() << "no column " << header_start;
  return 0;
}

size_t count(const std::string& text, char what) {
  size_t n = 0;
  for (char c : text) n += c == what;
  return n;
}

bool has_column(const StudyTable& table, const std::string& header) {
  for (const std::string& h : table.header)
    if (h == header) return true;
  return false;
}

// A decode step reads all of K and V for one query: below the ridge point the table's rate is
// bandwidth, and the TFLOP/s columns give way to it (never both).
TEST(StudyColumns, AMemoryBoundPointShowsBandwidthInsteadOfTflops) {
  RunVariant flash = ran("sdpa-flash", 0.2, "flash_fwd_splitkv_kernel");
  flash.kv_gbps = 2684.4;
  flash.percent_of_hbm = 55.9;
  RunVariant refused;
  refused.variant = "sdpa-cudnn";
  refused.status = RunStatus::kUnsupported;
  const StudyTable compute = study_table({flash, refused}, {}, CellWidth::kFull);
  EXPECT_TRUE(has_column(compute, "TFLOP/s"));
  EXPECT_FALSE(has_column(compute, "K/V GB/s"));
  const StudyTable memory = study_table({flash, refused}, {false, true}, CellWidth::kFull);
  EXPECT_FALSE(has_column(memory, "TFLOP/s"));
  EXPECT_FALSE(has_column(memory, "% peak"));
  EXPECT_EQ(memory.rows[0][column_of(memory, "K/V GB/s")], "2684");
  EXPECT_EQ(memory.rows[0][column_of(memory, "% HBM")], format_percent(55.9));
  EXPECT_EQ(memory.rows[1][column_of(memory, "K/V GB/s")], "-");

  RunPoint point;
  point.problem = {8, 32, 16384, 128, 8, 1, 0, "bf16", RunMask::kCausal, "cuda", false};
  point.flops_per_call = 4.0 * 8 * 32 * 16384 * 128;
  point.kv_bytes_per_call = 2.0 * 8 * 8 * 16384 * 128 * 2;
  point.intensity_flop_per_byte = 4.0;
  point.ridge_flop_per_byte = 206;
  point.memory_bound = true;
  EXPECT_EQ(study_heading(point),
            "bf16, batch 8, 32 heads (8 KV), 1 query against 16384 keys, head dim 128, causal, "
            "forward on cuda: 2.1 GFLOP per call and " +
                format_bytes(536870912) +
                " of K and V; memory-bound: 4.0 FLOP per byte, below the ridge point's 206");
  point.memory_bound = false;
  point.problem = {4, 16, 4096, 64, 16, 4096, 1024, "bf16", RunMask::kCausal, "cuda", false};
  EXPECT_EQ(study_heading(point).substr(0, 76),
            "bf16, batch 4, 16 heads, seq 4096, head dim 64, causal, window 1024, forward");
}

TEST(StudyColumns, GpuMedianHasOneUnitForTheWholeColumn) {
  RunVariant oom;
  oom.variant = "naive";
  oom.status = RunStatus::kOutOfMemory;
  const std::vector<RunVariant> mixed = {ran("sdpa-flash", 0.157, "flash_fwd"),
                                         ran("naive", 2.26, "gemm"), oom};
  const StudyTable table = study_table(mixed, {}, CellWidth::kFull);
  const size_t median = column_of(table, "GPU median");
  EXPECT_EQ(table.header[median], "GPU median (µs)");
  EXPECT_EQ(table.rows[0][median], "157.0");
  EXPECT_EQ(table.rows[1][median], "2260.0");  // not "2.26 ms" beside "157.0 µs"
  EXPECT_EQ(table.rows[2][median], "-");

  const std::vector<RunVariant> slow = {ran("naive", 2.26, "gemm"), ran("math", 7.414, "gemm")};
  const StudyTable in_ms = study_table(slow, {}, CellWidth::kFull);
  EXPECT_EQ(in_ms.header[median], "GPU median (ms)");
  EXPECT_EQ(in_ms.rows[0][median], "2.26");
  EXPECT_EQ(in_ms.rows[1][median], "7.41");

  EXPECT_EQ(common_duration_unit({}), DurationUnit::kMicroseconds);
  EXPECT_EQ(common_duration_unit({999e3, 5e6}), DurationUnit::kMicroseconds);
  EXPECT_EQ(common_duration_unit({1e6, 5e6}), DurationUnit::kMilliseconds);
}

// The shipped H200 study: naive takes 2.26 ms, the fused kernels about 100 µs; the report's
// table says the unit once and each cell is a bare number in it.
TEST(StudyColumns, TheReportsRunTableSaysItsUnitOnce) {
  auto run =
      read_run_summary(std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/summary.json");
  ASSERT_TRUE(run.ok()) << run.error().message;
  ReportData data;
  data.run = *run;
  const std::vector<ReportTable> tables = report_tables(data);
  ASSERT_FALSE(tables.empty());
  for (const ReportTable& table : tables) {
    size_t median = table.header.size();
    for (size_t c = 0; c < table.header.size(); ++c)
      if (table.header[c].rfind("GPU median", 0) == 0) median = c;
    ASSERT_LT(median, table.header.size());
    EXPECT_EQ(table.header[median], "GPU median (µs)") << table.heading;
    for (const auto& row : table.rows) {
      const std::string& cell = row[median];
      EXPECT_EQ(cell.find_first_not_of("0123456789."), std::string::npos) << cell;
    }
  }
  EXPECT_EQ(tables[0].rows[0][4], "2282.0");  // naive, 2.28 ms
}

// A trace may name its kernel anything (docs/SECURITY.md): ESC, a newline, a `|`.
TEST(StudyColumns, AHostileKernelNameIsEscapedInTheTerminalAndMarkdownTables) {
  const std::string hostile = "evil\x1b[2J\nforged | row\r";
  RunVariant failing = ran("sdpa-cudnn", 0.2, "ok_kernel");
  failing.status = RunStatus::kError;
  failing.reason = "threw \x1b]0;title\x07 | here";
  const std::vector<RunVariant> rows = {ran("naive", 2.26, hostile), failing};
  for (CellWidth width : {CellWidth::kTerminal, CellWidth::kFull}) {
    const StudyTable table = study_table(rows, {true}, width);
    ASSERT_EQ(table.header.size(), 14u);  // kernels/bwd with the backward
    for (const auto& row : table.rows) EXPECT_EQ(row.size(), table.header.size());

    const std::string text = study_table_text(table);
    EXPECT_FALSE(has_raw_control(text, true)) << text;
    EXPECT_EQ(count(text, '\n'), 2u + rows.size()) << text;  // header, rule, a line per row
    EXPECT_NE(text.find("evil\\x1b[2J\\x0aforged | row\\x0d"), std::string::npos) << text;

    const std::string markdown = study_table_markdown(table);
    EXPECT_FALSE(has_raw_control(markdown, true)) << markdown;
    EXPECT_EQ(count(markdown, '\n'), 2u + rows.size()) << markdown;
    // Each line has one `|` per cell boundary; the name's own are escaped.
    size_t start = 0;
    for (size_t end = markdown.find('\n'); end != std::string::npos;
         start = end + 1, end = markdown.find('\n', start)) {
      const std::string line = markdown.substr(start, end - start);
      size_t bars = 0;
      for (size_t i = 0; i < line.size(); ++i)
        bars += line[i] == '|' && (i == 0 || line[i - 1] != '\\');
      EXPECT_EQ(bars, table.header.size() + 1) << line;
    }
    EXPECT_NE(markdown.find("forged \\| row"), std::string::npos) << markdown;
  }
}

TEST(StudyColumns, TheTerminalCutsLongNamesBetweenCharactersAndMarkdownKeepsThemWhole) {
  const std::string kernel =
      "void flash::flash_fwd_kernel<Flash_fwd_kernel_traits<64, 128, 128, "
      "4, false, false, cutlass::bfloat16_t>>(\xc2\xb5)";
  const std::vector<RunVariant> rows = {ran("sdpa-flash", 0.1, kernel)};
  const size_t main = column_of(study_table(rows, {}, CellWidth::kFull), "main kernel");
  const std::string cut = study_table(rows, {}, CellWidth::kTerminal).rows[0][main];
  EXPECT_EQ(display_width(cut), 40u);
  EXPECT_EQ(cut.substr(cut.size() - 3), "...");
  EXPECT_EQ(escape_control(cut), cut);
  EXPECT_EQ(study_table(rows, {}, CellWidth::kFull).rows[0][main], kernel);
}

// summary.md's table is read in a pull request: a 100-character cuDNN name in a cell pushed the
// other 14 columns off the screen (docs/ARCHITECTURE.md). The cell shows it cut, with a number; the
// name in full is listed once under the table.
TEST(StudyColumns, MarkdownCutsLongKernelNamesAndListsEachInFullOnceBelow) {
  const std::string cudnn =
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_"
      "kernel0_0";
  const std::vector<RunVariant> rows = {ran("sdpa-cudnn", 0.10, cudnn),
                                        ran("sdpa-flash", 0.16, "flash_fwd_kernel<...>"),
                                        ran("sdpa-auto", 0.10, cudnn)};
  const std::string markdown = study_table_markdown(study_table(rows, {}, CellWidth::kFull));
  const size_t details = markdown.find("<details><summary>Kernel names in full</summary>");
  ASSERT_NE(details, std::string::npos) << markdown;
  const std::string table = markdown.substr(0, details);
  const std::string below = markdown.substr(details);
  EXPECT_EQ(table.find(cudnn), std::string::npos) << table;
  EXPECT_NE(table.find("`cudnn_generated_fort_native_sdpa_sm90_flash…` [1]"), std::string::npos)
      << table;
  EXPECT_EQ(table.find("[2]"), std::string::npos) << table;  // one number per distinct name
  EXPECT_NE(table.find("| `flash_fwd_kernel<...>` |"), std::string::npos) << table;
  EXPECT_NE(below.find("1. " + cudnn + "\n"), std::string::npos) << below;
  EXPECT_EQ(below.find("2. "), std::string::npos) << below;
  // Every row of the table is still one line with one cell per column.
  EXPECT_EQ(count(table, '\n'), 2u + rows.size() + 1) << table;  // and the blank line
}

// A sweep's counter notes name each point by the sizes its axes took, for every key the bench's
// --sweep takes, as summary.json spells it (head-dim, not head_dim).
TEST(CounterNotes, NameEachPointOfASweepByItsAxes) {
  RunSummary run;
  run.counters = RunCounters{};
  run.counters->tool = "ncu";
  run.sweep = {{SweepKey::kHeadDim, {64, 128}}, {SweepKey::kKvHeads, {4}}};
  StudyConclusions conclusions;
  for (int64_t head_dim : {64, 128}) {
    RunPoint& point = run.points.emplace_back();
    point.problem.head_dim = head_dim;
    point.problem.kv_heads = 4;
    conclusions.counter_findings.push_back({{"naive", "memory-bound", "naive: DRAM busy"}});
  }
  const std::vector<std::string> notes = counter_notes(run, conclusions);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[1], "head-dim 64, kv-heads 4: [memory-bound] naive: DRAM busy");
  EXPECT_EQ(notes[2], "head-dim 128, kv-heads 4: [memory-bound] naive: DRAM busy");
}

}  // namespace
}  // namespace attnprof
