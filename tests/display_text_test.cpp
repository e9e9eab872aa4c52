// Names from a trace cannot subvert any output (docs/SECURITY.md): control bytes are escaped as
// \xNN in text, Markdown, diff, check and errors; long names are cut between characters; newlines
// and `|` forge no row or heading; JSON and HTML keep their own escaping.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "render/display_text.h"
#include "render/json_writer.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::run_cli;
using testing::TempFile;

TEST(DisplayText, EscapesEveryControlByte) {
  EXPECT_EQ(escape_control("plain name <T>, 3.5 \xc2\xb5s"), "plain name <T>, 3.5 \xc2\xb5s");
  EXPECT_EQ(escape_control("a\x1b[31mb"), "a\\x1b[31mb");  // ESC: a terminal command
  EXPECT_EQ(escape_control("cr\rbs\bnl\ntab\tdel\x7f"), "cr\\x0dbs\\x08nl\\x0atab\\x09del\\x7f");
  EXPECT_EQ(escape_control(std::string("nul\0x", 5)), "nul\\x00x");
  EXPECT_EQ(escape_control("c1 \xc2\x9b"
                           "31m"),
            "c1 \\xc2\\x9b31m");                                // U+009B, CSI
  EXPECT_EQ(escape_control("lone \x9b"), "lone \\x9b");         // CSI to 8-bit terminals
  EXPECT_EQ(escape_control("cut \xe2\x82"), "cut \\xe2\\x82");  // a cut-off sequence
  EXPECT_EQ(escape_control("overlong \xc0\xaf"), "overlong \\xc0\\xaf");
  EXPECT_EQ(escape_control("\xe2\x82\xac \xf0\x9f\x98\x80"), "\xe2\x82\xac \xf0\x9f\x98\x80");
  EXPECT_FALSE(has_raw_control("a\nb", true));
  EXPECT_TRUE(has_raw_control("a\nb", false));
  EXPECT_TRUE(has_raw_control("a\x1b", true));
  EXPECT_FALSE(has_raw_control(escape_control("a\x1b\n\xc2\x85\x9b"), false));
}

TEST(DisplayText, ClipCutsBetweenCharactersAndNeverInsideAnEscape) {
  EXPECT_EQ(clip("short", 10), "short");
  EXPECT_EQ(clip("exactly10!", 10), "exactly10!");
  EXPECT_EQ(clip("a longer name here", 10), "a longe...");
  // Each € is three bytes and one column: the byte-wise cut of before split one in two.
  const std::string euros = "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac";
  EXPECT_EQ(clip(euros, 4), "\xe2\x82\xac...");
  EXPECT_EQ(clip(euros, 5), euros);
  // An escape is four columns and is never cut open.
  EXPECT_EQ(clip("ab\x1b\x1b\x1bzz", 9), "ab\\x1b...");
  EXPECT_EQ(clip("ab\x1b"
                 "c",
                 7),
            "ab\\x1bc");
  for (size_t width = 0; width < 12; ++width) {
    const std::string cut = clip("x\x1b\xe2\x82\xac\x9bq\n\xc2\x9b", width);
    EXPECT_FALSE(has_raw_control(cut, false)) << width;
    EXPECT_EQ(escape_control(cut), cut) << width;  // whole characters only
  }
}

// A CJK character takes two columns on a terminal (fmt pads it so): a cut counted one column per
// character made a 24-column name 42 columns wide and pushed every later column of its row.
TEST(DisplayText, ClipCountsWideCharactersAsTwoColumns) {
  const std::string wide = "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b";  // three CJK characters
  EXPECT_EQ(display_width(wide), 6u);
  EXPECT_EQ(display_width("ab\x1b\xc3\xa9"), 7u);  // a, b, \x1b (4), e-acute
  EXPECT_EQ(clip(wide, 6), wide);
  EXPECT_EQ(clip(wide, 5), "\xe6\xb3\xa8...");
  EXPECT_EQ(clip(wide + wide, 7), "\xe6\xb3\xa8\xe6\x84\x8f...");
  for (size_t width = 0; width < 20; ++width) {
    const std::string cut = clip(wide + "ab" + wide + wide, width);
    EXPECT_LE(display_width(cut), width) << width;
    // The padding fmt adds after it brings every cell to the same width.
    EXPECT_EQ(display_width(fmt::format("{:<{}}", cut, width)), width) << width;
  }
}

// In analyze's table, the column after a region's name starts at the same place on every row,
// whatever script the name is in.
TEST(DisplayText, WideRegionNamesKeepTheColumnsAligned) {
  std::string events;
  const std::string names[] = {"ProfilerStep#1", "\xe6\xb3\xa8\xe6\x84\x8f forward",
                               std::string(12, 'x') +
                                   "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b"
                                   "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b"
                                   "\xe6\xb3\xa8\xe6\x84\x8f\xe5\x8a\x9b"};
  int64_t ts = 1000;
  for (const std::string& name : names) {
    events += fmt::format(
        R"({}{{"ph":"X","cat":"user_annotation","name":"{}","pid":1,"tid":1,"ts":{},"dur":100}})",
        events.empty() ? "" : ",", name, ts);
    ts += 200;
  }
  TempFile trace("wide.json", R"({"traceEvents":[)" + events + "]}");
  auto r = run_cli(fmt::format("analyze {} --region '*'", trace.path()));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream lines(r.output);
  std::vector<size_t> where;  // the display column where each row's name cell ends
  for (std::string line; std::getline(lines, line);) {
    if (line.size() < 6 || line[4] < '1' || line[4] > '3' || line[5] != ' ') continue;
    where.push_back(display_width(line.substr(0, line.find("  0 ", 6))));
  }
  ASSERT_EQ(where.size(), 3u) << r.output;
  EXPECT_EQ(where[1], where[0]) << r.output;
  EXPECT_EQ(where[2], where[0]) << r.output;
}

TEST(DisplayText, MarkdownCellsForgeNoRowOrCell) {
  EXPECT_EQ(markdown_cell("a|b\n| x | y |"), "a\\|b\\\\x0a\\| x \\| y \\|");
  EXPECT_EQ(markdown_cell("a\\|b"), "a\\\\\\|b");  // the backslash cannot unescape the pipe
  EXPECT_EQ(markdown_cell("<img src=x>"), "&lt;img src=x&gt;");
  EXPECT_EQ(markdown_code("k|x"), "`k\\|x`");
  EXPECT_EQ(markdown_code("a`b"), "``a`b``");
  EXPECT_EQ(markdown_code("`x"), "`` `x ``");
  EXPECT_EQ(markdown_code("a\\|b"), "`a\\\\\\|b`");  // a backslash pair, an escaped pipe
  EXPECT_EQ(markdown_code("n\nl"), "`n\\x0al`");
}

TEST(DisplayText, JsonIsValidUtf8WithControlsEscaped) {
  std::string out;
  append_json_string(out, "e\x1b d\x7f c1\xc2\x9b bad\x9b ok\xe2\x82\xac");
  EXPECT_EQ(out, "\"e\\u001b d\\u007f c1\\u009b bad\\ufffd ok\xe2\x82\xac\"");
}

// A trace whose names carry every trick: ESC sequences, CR and BS, C1, DEL, newlines that would
// start a Markdown heading or row or a text row, pipes.
const char* const kHostileRegion = "fwd\\n### forged heading\\n  1 forged row\\u001b[2J";
const char* const kHostileKernel =
    "k\\u001b]0;title\\u0007\\r\\b\\u009b31m\\u007f|x\\n| forged | row |";

std::string hostile_trace() {
  return fmt::format(R"json({{"traceEvents": [
    {{"ph": "X", "cat": "user_annotation", "name": "{0}", "pid": 1, "tid": 1, "ts": 0, "dur": 100}},
    {{"ph": "X", "cat": "cpu_op", "name": "aten::\u001b[31mop\nforged", "pid": 1, "tid": 1, "ts": 5, "dur": 20}},
    {{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 1, "args": {{"correlation": 1}}}},
    {{"ph": "X", "cat": "kernel", "name": "{1}", "pid": 0, "tid": 7, "ts": 20, "dur": 10, "args": {{"correlation": 1, "device": 0, "stream": 7}}}},
    {{"ph": "X", "cat": "kernel", "name": "{1}", "pid": 0, "tid": 7, "ts": 40, "dur": -1, "args": {{"correlation": 9}}}}
  ]}})json",
                     kHostileRegion, kHostileKernel);
}

void expect_safe(const testing::CommandResult& r, const std::string& what) {
  EXPECT_FALSE(has_raw_control(r.output, true)) << what << ":\n" << r.output;
  std::istringstream lines(r.output);
  for (std::string line; std::getline(lines, line);) {
    EXPECT_NE(line.rfind("### forged", 0), 0u) << what << ": " << line;
    EXPECT_NE(line.rfind("| forged", 0), 0u) << what << ": " << line;
    EXPECT_NE(line.rfind("  1 forged", 0), 0u) << what << ": " << line;
    EXPECT_EQ(line.find("\nforged"), std::string::npos);
  }
}

TEST(DisplayText, NoOutputCarriesARawControlByteOrAForgedLine) {
  TempFile trace("hostile.json", hostile_trace());
  const std::string region = " --region 'fwd*'";
  for (const char* format : {"text", "md"}) {
    auto r =
        run_cli(fmt::format("analyze --explain --format {} {}{}", format, trace.path(), region));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("\\x1b"), std::string::npos) << r.output;  // shown, escaped
    expect_safe(r, format);
  }
  for (const char* format : {"text", "md"}) {
    auto r = run_cli(
        fmt::format("diff --format {} {} {}{}", format, trace.path(), trace.path(), region));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    expect_safe(r, std::string("diff ") + format);
  }
  auto check =
      run_cli(fmt::format("check {} --expect 'main_kernel ~ \"k\"'{}", trace.path(), region));
  EXPECT_EQ(check.exit_code, 0) << check.output;
  expect_safe(check, "check");
  auto json = run_cli(fmt::format("analyze --format json {}{}", trace.path(), region));
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_FALSE(has_raw_control(json.output, true)) << json.output;
}

TEST(DisplayText, ErrorsAndFileNamesAreEscaped) {
  // A file name with ESC and a newline, in an error (the file is not a trace) and in a report.
  TempFile odd("x\x1b[2Jy\nz.json", "not json");
  auto r = run_cli("analyze '" + odd.path() + "'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("x\\x1b[2Jy\\x0az.json"), std::string::npos) << r.output;
  EXPECT_FALSE(has_raw_control(r.output, true)) << r.output;
  // A region pattern with ESC, in the "no region matches" error.
  TempFile trace("t.json", hostile_trace());
  auto missing = run_cli("analyze --region \"$(printf '\\033[31m')\" " + trace.path());
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_FALSE(has_raw_control(missing.output, true)) << missing.output;
}

TEST(DisplayText, HtmlReportEscapesNames) {
  TempFile trace("html.json", R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 1, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "<script>alert(1)</script>", "pid": 0, "tid": 7, "ts": 20, "dur": 10, "args": {"correlation": 1, "device": 0, "stream": 7}}
  ]})json");
  TempFile page("page.html");
  auto r = run_cli("report " + trace.path() + " --region forward -o " + page.path());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(page.path());
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(html.find("<script>alert"), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt;"), std::string::npos);
}

}  // namespace
}  // namespace attnprof
