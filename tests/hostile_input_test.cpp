// The second red-team pass over hostile input (docs/SECURITY.md): every writer safe, every output
// escaped for its format. Each test is named after the case it guards; the last one runs a trace
// full of hostile names through analyze, diff, check, report and annotate in every format.

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/op_chain_limit.h"
#include "analysis/op_cost.h"
#include "analysis/regions/regions.h"
#include "analysis/text_match.h"
#include "attnprof/analysis.h"
#include "reader/json_scan.h"
#include "render/csv_writer.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "render/text_wrap.h"
#include "test_support.h"
#include "trace_set.h"

namespace attnprof {
namespace {

namespace fs = std::filesystem;
using testing::fixture;
using testing::run_cli;
using testing::run_command;
using testing::TraceSet;

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string quoted(const std::string& path) {
  return "'" + path + "'";
}

// A small real trace (one cuDNN attention kernel, three `forward` regions).
constexpr const char* kTrace = "cpp_sdpa_cudnn.json.gz";

// --- Writers -----------------------------------------------------------------------------------

TEST(HostileWriters, AnnotateOutFollowsASymlinkAndKeepsIt) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  const std::string target = set.write("target.json", "old");
  fs::create_symlink("target.json", set.path("link.json"));
  auto r = run_cli("annotate " + trace + " -o " + set.path("link.json"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(fs::is_symlink(set.path("link.json")));
  EXPECT_NE(read_all(target).find("traceEvents"), std::string::npos);
}

TEST(HostileWriters, AnnotateOutKeepsThePrivateMode) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  const std::string out = set.write("out.json", "old");
  ASSERT_EQ(::chmod(out.c_str(), 0600), 0);
  ASSERT_EQ(run_cli("annotate " + trace + " -o " + out).exit_code, 0);
  struct stat info {};
  ASSERT_EQ(::stat(out.c_str(), &info), 0);
  EXPECT_EQ(info.st_mode & 0777, 0600u);
}

TEST(HostileWriters, AnnotateOutWritesIntoAFifoNeverReplacesIt) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  const std::string fifo = set.path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto r = run_command("cat " + fifo + " > " + set.path("read") + " & " + ATTNPROF_CLI +
                       " annotate " + trace + " -o " + fifo + "; wait");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  struct stat info {};
  ASSERT_EQ(::lstat(fifo.c_str(), &info), 0);
  EXPECT_TRUE(S_ISFIFO(info.st_mode));
  EXPECT_NE(read_all(set.path("read")).find("traceEvents"), std::string::npos);
}

// The old writer wrote OUT.tmp-PID; `exec` keeps the shell's PID, so the planted link is the
// name it would have followed.
TEST(HostileWriters, AnnotateOutFollowsNoPlantedTemporary) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  const std::string victim = set.write("victim", "precious");
  const std::string out = set.path("out.json");
  auto r = run_command("sh -c 'ln -s " + victim + " " + out + ".tmp-$$ && exec " + ATTNPROF_CLI +
                       " annotate " + trace + " -o " + out + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(read_all(victim), "precious");
  EXPECT_NE(read_all(out).find("traceEvents"), std::string::npos);
}

TEST(HostileWriters, AnnotateOutDashIsStandardOutput) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  auto r = run_command("cd " + set.dir() + " && " + ATTNPROF_CLI + " annotate " + trace +
                       " -o - 2>/dev/null | head -c 200000");
  EXPECT_NE(r.output.find("traceEvents"), std::string::npos);
  EXPECT_EQ(r.output.find("events added"), std::string::npos);  // said on standard error
  EXPECT_FALSE(fs::exists(set.path("-")));
}

TEST(HostileWriters, EmptyOutputNameIsAUsageError) {
  for (const char* command : {"annotate", "report"}) {
    auto r = run_cli(std::string(command) + " " + fixture(kTrace) + " -o ''");
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("cannot write '': give a file name"), std::string::npos) << r.output;
  }
}

TEST(HostileWriters, ReportToDevStdoutThroughAPipe) {
  // /dev/stdout is standard output, as `-` is: text unless a format is asked for.
  auto r = run_command(std::string(ATTNPROF_CLI) + " report " + fixture(kTrace) +
                       " --format html -o /dev/stdout | cat");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output.rfind("<!DOCTYPE html>", 0), 0u) << r.output.substr(0, 200);
}

TEST(HostileWriters, ReportRefusesEveryFileOfTheRunItReads) {
  TraceSet set;
  fs::create_directories(set.path("run/traces"));
  fs::create_directories(set.path("run/backward"));
  fs::create_directories(set.path("run/sweep"));
  const std::string trace = set.copy(kTrace, "run/traces/naive.json.gz");
  const std::string before = read_all(trace);
  set.write("run/summary.json", "{}");
  set.write("run/backward/summary.json", "{}");
  set.write("run/sweep/sweep.csv", "variant\n");
  for (const std::string& out : {trace, set.path("run/backward/summary.json"),
                                 set.path("run/sweep/sweep.csv"), set.path("run/summary.json")}) {
    for (const std::string& input : {set.path("run"), set.path("run/summary.json")}) {
      auto r = run_cli("report " + input + " -o " + out);
      EXPECT_EQ(r.exit_code, 2) << out << ": " << r.output;
      EXPECT_NE(r.output.find("refusing to write"), std::string::npos) << r.output;
    }
  }
  EXPECT_EQ(read_all(trace), before);
  EXPECT_EQ(read_all(set.path("run/sweep/sweep.csv")), "variant\n");
}

TEST(HostileWriters, AnnotateRefusesItsOwnTraceByAnotherName) {
  TraceSet set;
  const std::string trace = set.copy(kTrace, "t.json.gz");
  fs::create_hard_link(trace, set.path("same.json.gz"));
  auto r = run_cli("annotate " + trace + " -o " + set.path("same.json.gz"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_EQ(read_all(trace), read_all(fixture(kTrace)));
}

TEST(HostileWriters, AnnotateRegionMatchingNothingExitsTwo) {
  TraceSet set;
  auto r = run_cli("annotate " + fixture(kTrace) + " --region zzz -o " + set.path("o.json"));
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("no region matches \"zzz\""), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(set.path("o.json")));
}

// --- No silent wrongness ------------------------------------------------------------------------

TEST(HostileInput, ImpossibleDevicePropertiesGiveNoOccupancyAndOneDiagnostic) {
  TraceSet set;
  std::string json = run_command("zcat " + fixture(kTrace)).output;
  const std::string recorded = "\"maxThreadsPerMultiprocessor\": 2048";
  ASSERT_NE(json.find(recorded), std::string::npos);
  json.replace(json.find(recorded), recorded.size(), "\"maxThreadsPerMultiprocessor\": 16");
  const std::string trace = set.write("impossible.json", json);
  auto analyze = run_cli("analyze " + trace);
  ASSERT_EQ(analyze.exit_code, 0) << analyze.output;
  EXPECT_EQ(analyze.output.find("nan"), std::string::npos) << analyze.output;  // was -nan%
  EXPECT_NE(analyze.output.find("impossible deviceProperties"), std::string::npos);
  for (const char* format : {"json", "csv", "md"}) {
    auto other = run_cli(std::string("analyze --format ") + format + " " + trace);
    EXPECT_EQ(other.output.find("nan"), std::string::npos) << format << ": " << other.output;
    EXPECT_EQ(other.output.find("inf"), std::string::npos) << format << ": " << other.output;
  }
  auto check = run_cli("check " + trace + " --expect 'occupancy_pct > 1'");
  EXPECT_EQ(check.exit_code, 1) << check.output;
  EXPECT_EQ(check.output.find("nan"), std::string::npos) << check.output;  // was "actual -nan"
}

TEST(HostileInput, StandardInputIsReadAtMostOnce) {
  const std::string feed = "zcat " + fixture(kTrace) + " | " + ATTNPROF_CLI;
  for (const std::string& command :
       {std::string(" diff - -"), std::string(" check - --expectations -"),
        std::string(" analyze - -"), std::string(" diff - /dev/stdin")}) {
    auto r = run_command(feed + command);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("standard input (-) is given 2 times"), std::string::npos) << r.output;
  }
  auto once = run_command(feed + " diff - " + fixture(kTrace));
  EXPECT_EQ(once.exit_code, 0) << once.output;
}

TEST(HostileInput, DiffOfRunsRefusesAFormatItCannotWrite) {
  const std::string run = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";
  for (const char* format : {"json", "md", "csv"}) {
    auto r = run_cli(std::string("diff --format ") + format + " " + run + " " + run);
    EXPECT_EQ(r.exit_code, 2) << format << ": " << r.output.substr(0, 300);
    EXPECT_NE(r.output.find("writes text only"), std::string::npos) << r.output.substr(0, 300);
  }
}

// The shipped study's summary.json and traces, in a folder a test may break.
std::string copy_of_the_study(TraceSet& set) {
  const fs::path study = fs::path(ATTNPROF_SOURCE_DIR) / "examples/h200-study";
  fs::create_directories(set.path("study"));
  fs::copy(study / "summary.json", set.path("study/summary.json"));
  fs::copy(study / "traces", set.path("study/traces"), fs::copy_options::recursive);
  return set.path("study");
}

TEST(HostileInput, StudyVariantWhoseTraceIsADanglingLinkFailsTheCheck) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  ASSERT_EQ(run_cli("check " + study + " --expect 'kernels >= 1'").exit_code, 0);
  fs::remove(study + "/traces/naive.json.gz");
  fs::create_symlink("nowhere.json.gz", study + "/traces/naive.json.gz");
  fs::remove(study + "/traces/sdpa-math.json.gz");
  ASSERT_EQ(::mkfifo((study + "/traces/sdpa-math.json.gz").c_str(), 0600), 0);
  auto r = run_cli("check " + study + " --expect 'kernels >= 1'");
  EXPECT_EQ(r.exit_code, 1) << r.output;  // 0 before: "5 of 5 hold over 5 variants"
  EXPECT_NE(r.output.find("the trace naive.json.gz that summary.json lists is missing"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("the trace sdpa-math.json.gz that summary.json lists"), std::string::npos)
      << r.output;
}

TEST(HostileInput, StudySummaryThatCannotBeReadIsSaidByCheck) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  set.write("study/summary.json", whole.substr(0, whole.size() / 2));
  auto r = run_cli("check " + study + " --expect 'dram_bytes > 0'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("summary.json: the JSON ends early"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("no hardware counters"), std::string::npos) << r.output;
}

TEST(HostileInput, SummaryJsonOfTheWrongTypesIsRefusedWithTheKey) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"variants\": [", "`variants` is a number where an array is expected"},
      {"\"median_ms\": ", "`median_ms` is a string where a number is expected"}};
  for (const auto& [key, message] : cases) {
    std::string broken = whole;
    const size_t at = broken.find(key);
    ASSERT_NE(at, std::string::npos) << key;
    if (key.back() == '[')
      broken.insert(at + key.size() - 1, "5, \"was\": ");
    else
      broken.insert(at + key.size(), "\"fast\", \"was\": ");
    set.write("study/summary.json", broken);
    for (const std::string& command : {"report " + study + " -o " + set.path("r.html"),
                                       "check " + study + " --expect 'kernels >= 1'"}) {
      auto r = run_cli(command);
      EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
      EXPECT_NE(r.output.find("not a bench summary as docs/json-schema.md says: " + message),
                std::string::npos)
          << r.output;
    }
  }
}

// A word of summary.json that names one of a list (a variant's status, a problem's mask, a
// sweep's key) is read into its enum; another word is refused with the key and the list.
TEST(HostileInput, SummaryJsonWordOutsideItsListIsRefusedWithTheKey) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"\"status\": \"ok\"",
       "`status` is \"fine\", not one of ok, failed, unsupported, oom, error"},
      {"\"mask\": \"causal\"", "`mask` is \"fine\", not one of causal, none, explicit"}};
  for (const auto& [field, message] : cases) {
    std::string broken = whole;
    const size_t at = broken.find(field);
    ASSERT_NE(at, std::string::npos) << field;
    broken.replace(at + field.find(':'), field.size() - field.find(':'), ": \"fine\"");
    set.write("study/summary.json", broken);
    auto r = run_cli("check " + study + " --expect 'kernels >= 1'");
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("not a bench summary as docs/json-schema.md says: " + message),
              std::string::npos)
        << r.output;
  }
}

// `"points": []` and a variant that is a string were read as a run with nothing in it; a number
// of 1e-300 (a counter's duration) made an infinite rate.
TEST(HostileInput, SummaryJsonWithoutPointsOrWithAStringVariantIsRefused) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  const size_t variants = whole.find("\"variants\": [");
  const size_t median = whole.find("\"median_ms\": ");
  ASSERT_NE(variants, std::string::npos);
  ASSERT_NE(median, std::string::npos);
  const size_t median_end = whole.find_first_of(",}", median);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"{\"schemaVersion\": 2, \"points\": []}", "a bench summary with no points"},
      {whole.substr(0, variants + 13) + "\"naive\", " + whole.substr(variants + 13),
       "`variants[0]` is a string where an object is expected"},
      {whole.substr(0, median + 13) + "1e-300" + whole.substr(median_end),
       "`median_ms` is 1e-300, where a number other than 0 is at least 1e-12"}};
  for (const auto& [text, message] : cases) {
    set.write("study/summary.json", text);
    auto r = run_cli("report " + study + " -o " + set.path("r.html"));
    EXPECT_EQ(r.exit_code, 2) << message << ": " << r.output;
    EXPECT_NE(r.output.find(message), std::string::npos) << r.output;
  }
}

TEST(HostileInput, ZeroOrTinyRatesInSummaryJsonAreRefused) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  const std::string key = "\"bandwidth_bytes_per_s\": ";
  const size_t at = whole.find(key);
  ASSERT_NE(at, std::string::npos);
  const size_t end = whole.find_first_of(",}", at);
  for (const char* tiny : {"0", "1e-300", "-5"}) {
    set.write("study/summary.json", whole.substr(0, at + key.size()) + tiny + whole.substr(end));
    auto r = run_cli("report " + study + " -o -");
    EXPECT_EQ(r.exit_code, 2) << tiny;  // was "inf %" and a point far off the roofline
    EXPECT_NE(r.output.find("`bandwidth_bytes_per_s` is "), std::string::npos)
        << r.output.substr(0, 300);
    EXPECT_EQ(r.output.find("inf %"), std::string::npos);
  }
}

// A 20 MB summary.json of 1,000,000 minimal variants, within --max-side-file-bytes, took 4.9 GB
// and 40 s to read: every read variant costs kilobytes. The lists are counted first, and each
// count has its limit and flag.
TEST(HostileScale, SummaryJsonListsAreCountedBeforeTheyAreRead) {
  TraceSet set;
  const std::string study = copy_of_the_study(set);
  const std::string whole = read_all(study + "/summary.json");
  const size_t variants = whole.find("\"variants\": [");
  ASSERT_NE(variants, std::string::npos);
  const size_t open = variants + 13;  // after the '['
  std::string many;
  for (int i = 0; i < 1000000; ++i) many += "{},";
  set.write("study/summary.json", whole.substr(0, open) + many + whole.substr(open));
  const auto started = std::chrono::steady_clock::now();
  auto r = run_cli("report " + study + " -o " + set.path("r.html"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 300);
  EXPECT_NE(r.output.find("summary.json: 1000007 variants, more than --max-variants allows "
                          "(10000): not a bench run's summary"),
            std::string::npos)
      << r.output.substr(0, 300);
  EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << r.output.substr(0, 300);
  EXPECT_LT(seconds, 60) << "refusing it should take the parse, not the read";

  // Under the limit, a real summary reads as before; a lower limit refuses it, by its flag.
  set.write("study/summary.json", whole);
  EXPECT_EQ(run_cli("report " + study + " -o " + set.path("r.html")).exit_code, 0);
  auto low = run_cli("check " + study + " --max-variants 3 --expect 'kernels >= 1'");
  EXPECT_EQ(low.exit_code, 2) << low.output;
  EXPECT_NE(low.output.find("7 variants, more than --max-variants allows (3)"), std::string::npos)
      << low.output;
  auto items = run_cli("report " + study + " --max-side-file-items 5 -o " + set.path("r.html"));
  EXPECT_EQ(items.exit_code, 2) << items.output;
  EXPECT_NE(items.output.find("list items in all, more than --max-side-file-items allows (5)"),
            std::string::npos)
      << items.output;
}

// An expectations file of millions of one-character-short lines parsed them all; the expressions
// are counted first.
TEST(HostileScale, ExpectationsFilesAreCountedBeforeTheyAreParsed) {
  TraceSet set;
  std::string lines = "# a comment, not counted\n\n";
  for (int i = 0; i < 10001; ++i) lines += "kernels >= 1\n";
  set.write("many.expect", lines);
  const std::string trace = " " + fixture(kTrace);
  auto r = run_cli("check --expectations " + set.path("many.expect") + trace);
  EXPECT_EQ(r.exit_code, 2) << r.output.substr(0, 300);
  EXPECT_NE(r.output.find("many.expect: 10001 expressions, more than --max-expectations allows "
                          "(10000)"),
            std::string::npos)
      << r.output.substr(0, 300);
  auto raised =
      run_cli("check --expectations " + set.path("many.expect") + " --max-expectations 10001" +
              trace + " --format json -o " + set.path("c.json"));
  EXPECT_EQ(raised.exit_code, 0) << raised.output.substr(0, 300);
}

// --- Escapers ----------------------------------------------------------------------------------

TEST(HostileEscaping, HrefsAreRelativePathsOrWebLinksOnly) {
  EXPECT_EQ(safe_href("javascript:alert(1).json.gz"), "./javascript:alert(1).json.gz");
  EXPECT_EQ(safe_href("JavaScript:x"), "./JavaScript:x");
  EXPECT_EQ(safe_href("traces/naive.json.gz"), "traces/naive.json.gz");
  EXPECT_EQ(safe_href("../run/a b.json"), "../run/a%20b.json");
  EXPECT_EQ(safe_href("a\"onclick=x.json"), "a%22onclick=x.json");
  EXPECT_EQ(safe_href("java\tscript:x"), "./java%09script:x");
  EXPECT_EQ(safe_href("50%#1?.json"), "50%25%231%3F.json");
  EXPECT_EQ(safe_href("https://ui.perfetto.dev"), "https://ui.perfetto.dev");
  EXPECT_EQ(safe_href("//evil.example/x"), "");
  EXPECT_EQ(safe_href("/etc/passwd"), "");
  EXPECT_EQ(safe_href(""), "");
}

TEST(HostileEscaping, SvgAndHtmlTextHoldNoControlBytes) {
  const std::string escaped = html_escape(std::string("a\0b\x1b[31m\a\b<i>\"'&\n\tz", 19));
  EXPECT_EQ(escaped, "a\\x00b\\x1b[31m\\x07\\x08&lt;i&gt;&quot;&#39;&amp;\n\tz");
  EXPECT_FALSE(has_raw_control(escaped, /*newlines_allowed=*/false) &&
               escaped.find_first_of(std::string("\0\x1b\a\b", 4)) != std::string::npos);
}

TEST(HostileEscaping, CsvFormulaCellsArePrefixedAndControlsEscaped) {
  CsvWriter csv({"a", "b", "c", "d", "e", "f"});
  csv.text("=HYPERLINK(\"http://e\")").text("+1").text("-cmd").text("@SUM(A1)");
  csv.text("\x1b[31mred\r\nrow").text("-");
  csv.end_row();
  EXPECT_EQ(csv.take(),
            "a,b,c,d,e,f\n"
            "\"'=HYPERLINK(\"\"http://e\"\")\",\"'+1\",\"'-cmd\",\"'@SUM(A1)\","
            "\\x1b[31mred\\x0d\\x0arow,-\n");
}

// Without distributedInfo the rank is unknown: an empty field, as every unknown (docs/METRICS.md),
// never a 0 that a groupby would take for rank 0.
TEST(HostileEscaping, CsvRankIsEmptyWithoutDistributedInfo) {
  auto r = run_cli("analyze --format csv " + fixture(kTrace));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string first_row = r.output.substr(r.output.find('\n') + 1, 200);
  EXPECT_EQ(first_row.find(fixture(kTrace) + ",,"), 0u) << first_row;
  // A rank the trace gives is written.
  r = run_cli("analyze --format csv " + fixture("ranks/ddp_rank1.json.gz"));
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("ddp_rank1.json.gz,1,"), std::string::npos) << r.output.substr(0, 400);
}

TEST(HostileEscaping, MarkdownCellsForgeNoLinkOrImage) {
  // Every character of link and image syntax the issue lists, not only the brackets: a renderer
  // that links a bare `(url)` or reads `!` before a reference forges nothing either.
  EXPECT_EQ(markdown_cell("[x](javascript:alert(1))"), "\\[x\\]\\(javascript:alert\\(1\\)\\)");
  EXPECT_EQ(markdown_cell("![img](http://e/i.png)"), "\\!\\[img\\]\\(http://e/i.png\\)");
  EXPECT_EQ(markdown_cell("softmax<float>(float*)!"), "softmax&lt;float&gt;\\(float*\\)\\!");
  // The \x0a of escape_control is text; its backslash is escaped as every backslash is.
  EXPECT_EQ(markdown_cell("a`b|c\nd<e>"), "a\\`b\\|c\\\\x0ad&lt;e&gt;");
}

// --- Bounded cost --------------------------------------------------------------------------------

TEST(HostileScale, WildcardAndContainsAreLinearInTheName) {
  // `--region '*a...ab'` (50,000 characters) on a 1 MB name: 115 s with a backtracking loop, a
  // few milliseconds with the linear one. The bound is loose (ASan, a shared VM); a quadratic
  // match takes minutes.
  const std::string name(1'000'000, 'a');
  std::string pattern = "*";
  pattern.append(50'000, 'a');
  pattern += 'b';
  const auto start = std::chrono::steady_clock::now();
  EXPECT_FALSE(glob_match(pattern, name));
  EXPECT_TRUE(glob_match(pattern.substr(0, pattern.size() - 1) + "*", name));
  EXPECT_FALSE(contains_ignoring_case(name, std::string(50'000, 'A') + "b"));
  EXPECT_TRUE(contains_ignoring_case(name, std::string(50'000, 'A')));
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
}

// A name is one word to the text wrapper (render/text_wrap.h). Cutting a word wider than the width
// a line at a time and counting the rest's width anew at every cut takes 13 s of CPU in `analyze`
// for a 1 MB kernel or region name (its length squared over the width). Each line must still fit
// and the pieces join to the name.
TEST(HostileScale, AMegabyteWordWrapsInLinearTime) {
  std::string name;
  for (int i = 0; i < 250'000; ++i) name += i % 7 == 0 ? "\xc3\xa9" : "a";  // é: 2 bytes, 1 column
  name += std::string(1'000'000 - name.size(), 'b');
  const std::string line = "- kernel " + name + " ran";
  const auto start = std::chrono::steady_clock::now();
  const std::string wrapped = wrap_text(line, 120);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 5.0);
  std::string joined;
  size_t lines = 0;
  for (size_t at = 0; at <= wrapped.size();) {
    const size_t end = std::min(wrapped.find('\n', at), wrapped.size());
    const std::string_view piece = std::string_view(wrapped).substr(at, end - at);
    EXPECT_LE(display_width(piece), 120u) << lines;
    // The continuations are indented under the bullet's text.
    joined += lines == 0 ? std::string(piece) : std::string(piece.substr(2));
    ++lines;
    at = end + 1;
  }
  EXPECT_GT(lines, display_width(name) / 120);
  // Where the line breaks fall decides the spaces between the words; the characters are all kept.
  joined.erase(std::remove(joined.begin(), joined.end(), ' '), joined.end());
  EXPECT_EQ(joined, "-kernel" + name + "ran");
}

// Each CPU thread's table had a mapping of its own: past vm.max_map_count (65,530 here) mmap
// failed and the CLI aborted (std::bad_alloc, SIGABRT); 72,000 threads show it (66,000 did
// not). The blocks now share chunked mappings (model/huge_pages.cpp).
TEST(HostileScale, TensOfThousandsOfCpuThreadsRead) {
  TraceSet set;
  std::string json = "{\"traceEvents\":[";
  for (int i = 0; i < 72'000; ++i)
    json += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":" +
            std::to_string(i + 1) + ",\"ts\":" + std::to_string(i) + ",\"dur\":1},";
  json.back() = ']';
  json += "}";
  auto r = run_cli("analyze --format json " + set.write("threads.json", json));
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 500);
  EXPECT_NE(r.output.find("\"traces\""), std::string::npos);
}

// The peak resident memory in KiB of `attnprof analyze TRACE` (its output discarded), or -1
// when it did not exit 0. wait4 gives this one child's peak, whatever ran before it.
long analyze_peak_rss_kib(const std::string& trace) {
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int null = ::open("/dev/null", O_WRONLY);
    ::dup2(null, STDOUT_FILENO);
    ::dup2(null, STDERR_FILENO);
    const char* cli = ATTNPROF_CLI;
    ::execl(cli, cli, "analyze", trace.c_str(), static_cast<char*>(nullptr));
    ::_exit(127);
  }
  int status = 0;
  struct rusage usage {};
  if (pid < 0 || ::wait4(pid, &status, 0, &usage) != pid || !WIFEXITED(status) ||
      WEXITSTATUS(status) != 0)
    return -1;
  return usage.ru_maxrss;
}

// 80,000 threads of one event each must cost about what 80,000 events on one thread cost: with a
// block per thread (shared mappings, but a page touched in each) they took 358 MB against 23 MB
// and 2.9 s against 0.07 s; their first rows now share the heap (model/small_first_rows.h).
TEST(HostileScale, MemoryFollowsEventsNotThreads) {
#if defined(__SANITIZE_ADDRESS__)
  // ASan's quarantine holds freed blocks back (up to 256 MB), so peak RSS measures it, not us.
  GTEST_SKIP() << "peak RSS is ASan's quarantine under AddressSanitizer";
#endif
  TraceSet set;
  auto trace = [&](const char* name, bool thread_each) {
    std::string json = "{\"traceEvents\":[";
    for (int i = 0; i < 80'000; ++i)
      json += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\",\"pid\":1,\"tid\":" +
              std::to_string(thread_each ? i + 1 : 1) + ",\"ts\":" + std::to_string(2 * i) +
              ",\"dur\":1},";
    json.back() = ']';
    return set.write(name, json + "}");
  };
  const long one_thread = analyze_peak_rss_kib(trace("one.json", false));
  const long threads = analyze_peak_rss_kib(trace("threads.json", true));
  ASSERT_GT(one_thread, 0);
  ASSERT_GT(threads, 0);
  EXPECT_LT(threads, one_thread + 64 * 1024) << threads << " KiB against " << one_thread;
}

// Nested ProfilerSteps, step i around the launches i and later: 1001 regions that hold different
// work, so (regions) x (activities) members. More than --max-region-overlap (default 1000) open at
// once is refused.
TEST(HostileScale, OverlappingRegionsPastTheLimitAreRefused) {
  TraceSet set;
  std::string json = "{\"traceEvents\":[";
  for (int i = 0; i < 1001; ++i) {
    const std::string t = std::to_string(i), id = std::to_string(i + 1);
    json += "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" + t +
            "\",\"pid\":1,\"tid\":1,\"ts\":" + t + ",\"dur\":" + std::to_string(10'000 - i) +
            "},{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
            "\"tid\":1,\"ts\":" +
            t + ".5,\"dur\":0.1,\"args\":{\"correlation\":" + id +
            "}},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" + t +
            ".7,\"dur\":0.1,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + id + "}},";
  }
  json.back() = ']';
  json += "}";
  const std::string trace = set.write("steps.json", json);
  for (const std::string& command :
       {"analyze " + trace, "annotate " + trace + " -o " + set.path("a.json"),
        "report " + trace + " -o " + set.path("r.html"),
        "check " + trace + " --expect 'kernels >= 0'"}) {
    auto r = run_cli(command);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("1001 regions"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("are open at one time, more than --max-region-overlap 1000"),
              std::string::npos)
        << r.output;
  }
  EXPECT_EQ(run_cli("analyze --max-region-overlap 1001 " + trace).exit_code, 0);
}

// N whole-trace ProfilerSteps put every activity in every step: (steps) x (activities) members.
// Regions that hold the same work share its list and its summary (analysis/regions/regions.h):
// 2,000 steps around 2,000 kernels are read, each step with all of them, within
// --max-region-overlap. The findings share their work too (analysis/findings/finding_context.h), so
// --explain takes them as well (shared_region_findings_test.cpp compares what they say).
TEST(HostileScale, OverlappingRegionsThatHoldTheSameWorkShareIt) {
  TraceSet set;
  std::string json = "{\"traceEvents\":[";
  for (int i = 0; i < 2000; ++i)
    json += "{\"ph\":\"X\",\"cat\":\"user_annotation\",\"name\":\"ProfilerStep#" +
            std::to_string(i) + "\",\"pid\":1,\"tid\":1,\"ts\":0." + std::to_string(i % 10) +
            ",\"dur\":" + std::to_string(100'000 - i) + "},";
  for (int i = 0; i < 2000; ++i) {
    const std::string t = std::to_string(10 + 20 * i), id = std::to_string(i + 1);
    json +=
        "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"cudaLaunchKernel\",\"pid\":1,"
        "\"tid\":1,\"ts\":" +
        t + ",\"dur\":1,\"args\":{\"correlation\":" + id +
        "}},{\"ph\":\"X\",\"cat\":\"kernel\",\"name\":\"k\",\"pid\":0,\"tid\":7,\"ts\":" + t +
        ".5,\"dur\":2,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" + id + "}},";
  }
  json.back() = ']';
  json += "}";
  const std::string trace = set.write("steps.json", json);
  auto r = run_cli("analyze --format csv --table kernels " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.output.substr(0, 500);
  // One kernel row per step, each with all 2,000 calls and 4,000 µs.
  std::istringstream rows(r.output);
  std::string line;
  int steps = 0;
  std::getline(rows, line);  // the header
  while (std::getline(rows, line)) {
    ++steps;
    EXPECT_NE(line.find(",k,k,other,2000,4000,2,2,2,"), std::string::npos) << line;
  }
  EXPECT_EQ(steps, 2000);
  // The text, which holds the typical step only: JSON would list 2,000 activities for each of the
  // 2,000 steps (2.4 GB).
  auto explained = run_cli("analyze --explain " + trace);
  ASSERT_EQ(explained.exit_code, 0) << explained.output.substr(0, 500);
  EXPECT_NE(explained.output.find("2000 region(s) matching"), std::string::npos);
  EXPECT_EQ(explained.output.find("max-region-overlap"), std::string::npos);
}

TEST(HostileScale, WildcardPiecesMatchAsBefore) {
  EXPECT_TRUE(glob_match("a*b*c", "abc"));
  EXPECT_TRUE(glob_match("a*b*c", "axxbyyc"));
  EXPECT_FALSE(glob_match("a*b*c", "axxcyyb"));
  EXPECT_TRUE(glob_match("*?ward*", "backward#3"));
  EXPECT_FALSE(glob_match("*?ward*", "ward"));
  EXPECT_TRUE(glob_match("a*", "a"));
  EXPECT_FALSE(glob_match("ab*ba", "aba"));  // head and tail may not share the middle 'b'
  EXPECT_TRUE(glob_match("ab*ba", "abba"));
  EXPECT_TRUE(glob_match("**", ""));
  EXPECT_TRUE(glob_match("*a?a*", "xxabab"));
  EXPECT_FALSE(glob_match("*aa?", "aa"));
  EXPECT_TRUE(glob_match("*aa?", "aaaa"));
  EXPECT_EQ(find_text("abababc", "ababc"), 2u);
  EXPECT_EQ(find_text("aaa", "", 3), 3u);
  EXPECT_EQ(find_text("aaa", "a", 3), std::string::npos);
}

// --- Every hostile name through every command and format ---------------------------------------

// Names that attack one output each: a spreadsheet formula, terminal escapes, Markdown link and
// image syntax, HTML markup, a table cell and row break, a backspace and bell.
constexpr const char* kHostileKernel =
    R"(=HYPERLINK(\"http://e\")\u001b[31m[x](javascript:alert(1))![img](http://e/i.png))"
    R"(<script>alert(3)</script>|`code`\u0008\u0007\r\n_kernel)";
constexpr const char* kHostileRegion = R"(@SUM(A1)\u001b]0;title\u0007[r](javascript:x)fwd)";

// What no output may hold: raw control bytes other than line ends (and tabs in HTML), a link
// that runs script, a spreadsheet formula cell, Markdown link or image syntax from a name.
enum class Syntax { kPlain, kMarkdown, kHtml, kCsv };

void expect_safe(const std::string& what, const std::string& output, Syntax syntax) {
  SCOPED_TRACE(what);
  EXPECT_FALSE(has_raw_control(output, /*newlines_allowed=*/true)) << output.substr(0, 2000);
  EXPECT_EQ(output.find("href=\"javascript:"), std::string::npos);
  if (syntax == Syntax::kHtml || syntax == Syntax::kMarkdown) {
    EXPECT_EQ(output.find("<script>alert"), std::string::npos);
  }
  if (syntax == Syntax::kMarkdown) {
    // Outside code spans (where Markdown makes no link), no link or image syntax.
    const std::string prose = std::regex_replace(output, std::regex("`[^`\n]*`"), "");
    EXPECT_EQ(prose.find("[x](javascript"), std::string::npos) << prose;
    EXPECT_EQ(prose.find("![img]("), std::string::npos) << prose;
    EXPECT_EQ(prose.find("[r](javascript"), std::string::npos) << prose;
  }
  if (syntax == Syntax::kCsv) {
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) {
      EXPECT_FALSE(std::regex_search(line, std::regex(R"re((^|,)"?[=+@])re"))) << line;
      EXPECT_FALSE(std::regex_search(line, std::regex(R"re((^|,)"?-[^0-9.,])re"))) << line;
    }
  }
}

Syntax syntax_of(const std::string& format) {
  return format == "md"     ? Syntax::kMarkdown
         : format == "html" ? Syntax::kHtml
         : format == "csv"  ? Syntax::kCsv
                            : Syntax::kPlain;
}

TEST(HostileEscaping, EveryHostileNameThroughEveryCommandAndFormat) {
  TraceSet set;
  std::string json = run_command("zcat " + fixture(kTrace)).output;
  const std::string kernel =
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_"
      "kernel0_0";
  for (size_t at; (at = json.find(kernel)) != std::string::npos;)
    json.replace(at, kernel.size(), kHostileKernel);
  for (size_t at; (at = json.find("\"forward\"")) != std::string::npos;)
    json.replace(at, 9, std::string("\"") + kHostileRegion + "\"");
  const std::string trace = set.write("javascript:alert(1).json", json);
  const std::string t = quoted(trace);
  const std::string region = " --region '*fwd'";
  const std::string expect = set.write("e.txt", "kernels >= 1\nmain_kernel ~ \"kernel\"\n");

  for (const char* format : {"text", "json", "md", "csv"}) {
    const std::string f = format;
    auto analyze = run_cli("analyze --explain --format " + f + region + " " + t);
    ASSERT_EQ(analyze.exit_code, 0) << analyze.output;
    expect_safe("analyze " + f, analyze.output, syntax_of(f));
    auto diff = run_cli("diff --format " + f + region + " " + t + " " + t);
    ASSERT_EQ(diff.exit_code, 0) << diff.output;
    expect_safe("diff " + f, diff.output, syntax_of(f));
    if (f == "md") continue;  // check has text, json and csv
    auto check = run_cli("check --format " + f + region + " --expectations " + expect + " " + t);
    EXPECT_LE(check.exit_code, 1) << check.output;
    expect_safe("check " + f, check.output, syntax_of(f));
  }
  for (const char* format : {"html", "md", "text", "headline"}) {
    const std::string f = format;
    auto report = run_cli("report --format " + f + region + " " + t + " -o -");
    ASSERT_EQ(report.exit_code, 0) << report.output;
    expect_safe("report " + f, report.output, syntax_of(f));
  }
  const std::string annotated = set.path("annotated.json");
  auto annotate = run_cli("annotate" + region + " " + t + " -o " + annotated);
  ASSERT_EQ(annotate.exit_code, 0) << annotate.output;
  expect_safe("annotate", annotate.output, Syntax::kPlain);
  // The copy itself is JSON: its strings stay escaped as the trace had them.
  EXPECT_FALSE(has_raw_control(read_all(annotated), true));
}

// --- Every input guarded, every count linear, out of memory one line ----------------------------

std::string events_trace(const std::string& events) {
  return "{\"traceEvents\":[" + events + "]}";
}

std::string kernel_event(int correlation, int64_t ts_us, const std::string& name,
                         const char* category = "kernel") {
  return "{\"ph\":\"X\",\"cat\":\"" + std::string(category) + "\",\"name\":\"" + name +
         "\",\"pid\":0,\"tid\":7,\"ts\":" + std::to_string(ts_us) +
         ",\"dur\":1,\"args\":{\"device\":0,\"stream\":7,\"correlation\":" +
         std::to_string(correlation) + "}}";
}

std::string launch_event(int correlation, int64_t ts_us, const char* api = "cudaLaunchKernel") {
  return "{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"name\":\"" + std::string(api) +
         "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(ts_us) +
         ",\"dur\":1,\"args\":{\"correlation\":" + std::to_string(correlation) + "}}";
}

// The string scan looked for the closing quote over the rest of the text after each escape: a
// string of N escapes cost N x its length (1 MB of backslash pairs: 4 s, 4 MB: 3 minutes). Each
// kind of escape, 4 MB of it, now scans in milliseconds; the bound is loose for ASan.
TEST(HostileScale, EveryKindOfEscapeIsScannedOnce) {
  for (const std::string unit : {"\\\\", "\\\"", "\\u0041", "\\n", "a\\\\"}) {
    std::string text = "\"";
    while (text.size() < (size_t{4} << 20)) text += unit;
    text += "\"";
    const auto start = std::chrono::steady_clock::now();
    const json_scan::ValueExtent extent = json_scan::scan_string(text, 0);
    const json_scan::ValueExtent open = json_scan::scan_string(text.substr(0, text.size() - 1), 0);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 2.0)
        << unit;
    EXPECT_EQ(extent.outcome, json_scan::Outcome::kComplete) << unit;
    EXPECT_EQ(extent.end, text.size()) << unit;
    EXPECT_EQ(open.outcome, json_scan::Outcome::kNeedMore) << unit;
  }
}

// The string and depth limits were checked once a value was whole: a string that never closes
// was read to the end of the file (or to --max-event-bytes, 64 MiB) before anything was said.
// Now each applies while the bytes arrive, and names its own flag.
TEST(HostileInput, StringAndDepthLimitsApplyWhileTheBytesArrive) {
  TraceSet set;
  const std::string open_string =
      set.write("open-string.json", "{\"traceEvents\":[{\"name\":\"" + std::string(6 << 20, 'a'));
  auto string = run_cli("analyze " + open_string);
  EXPECT_EQ(string.exit_code, 2) << string.output;
  EXPECT_NE(string.output.find("longer than the limit of 1048576 bytes; raise it with "
                               "--max-string-bytes"),
            std::string::npos)
      << string.output;
  const std::string top_level =
      set.write("open-value.json", "{\"x\":[\"" + std::string(6 << 20, 'a'));
  auto value = run_cli("analyze " + top_level);
  EXPECT_EQ(value.exit_code, 2) << value.output;
  EXPECT_NE(value.output.find("--max-string-bytes"), std::string::npos) << value.output;
  const std::string deep =
      set.write("open-depth.json", "{\"traceEvents\":[" + std::string(3 << 20, '['));
  auto depth = run_cli("analyze " + deep);
  EXPECT_EQ(depth.exit_code, 2) << depth.output;
  EXPECT_NE(depth.output.find("--max-depth"), std::string::npos) << depth.output;
}

// The attention pairs walked one step per query: a recorded length of 1e9 took 3.75 s and 1e18
// never finished. The closed form agrees with that walk on every small shape, mask and window.
TEST(HostileScale, AttentionPairsAreAClosedForm) {
  auto walked = [](const AttentionShape& s) {
    double pairs = 0;
    const int64_t offset = s.bottom_right ? s.kv_len - s.q_len : 0;
    for (int64_t i = 0; i < s.q_len; ++i) {
      const int64_t at = i + offset;
      int64_t hi = s.kv_len - 1, lo = 0;
      if (s.causal) hi = std::min(hi, at);
      if (s.window_right >= 0) hi = std::min(hi, at + s.window_right);
      if (s.window_left >= 0) lo = std::max(lo, at - s.window_left);
      if (hi >= lo) pairs += static_cast<double>(hi - lo + 1);
    }
    return pairs;
  };
  const int64_t windows[] = {-1, 0, 1, 2, 5, 40};
  for (int64_t q = 1; q <= 9; ++q)
    for (int64_t k = 1; k <= 9; ++k)
      for (bool causal : {false, true})
        for (bool bottom_right : {false, true})
          for (int64_t left : windows)
            for (int64_t right : windows) {
              AttentionShape s;
              s.q_len = q;
              s.kv_len = k;
              s.causal = causal;
              s.bottom_right = bottom_right;
              s.window_left = left;
              s.window_right = right;
              ASSERT_EQ(visible_pairs(s), walked(s))
                  << q << " x " << k << " causal " << causal << " bottom_right " << bottom_right
                  << " window " << left << ", " << right;
            }
  const auto start = std::chrono::steady_clock::now();
  AttentionShape huge;
  huge.q_len = huge.kv_len = 1'000'000'000'000'000'000;
  huge.causal = true;
  const double causal = visible_pairs(huge);
  huge.window_left = 4096;
  huge.window_right = 0;
  const double windowed = visible_pairs(huge);
  huge.window_left = huge.window_right = INT64_MAX;
  huge.causal = false;
  const double unbounded = visible_pairs(huge);
  EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), 1.0);
  EXPECT_NEAR(causal / 5e35, 1.0, 1e-9);
  EXPECT_NEAR(windowed / 4.097e21, 1.0, 1e-9);
  EXPECT_NEAR(unbounded / 1e36, 1.0, 1e-9);
}

// A memcpy's kind came from its name's text: a trace could make as many kinds as copies, each a
// column of every region. The kinds are a fixed set now.
TEST(HostileScale, MemcpyKindsAreAFixedSet) {
  TraceSet set;
  std::string events;
  for (int i = 1; i <= 2000; ++i) {
    std::string kind = "DtoD";
    if (i % 2) kind = std::string("X").append(std::to_string(i));
    events += launch_event(i, i * 10, "cudaMemcpyAsync") + "," +
              kernel_event(i, i * 10 + 5, "Memcpy " + kind + " (Device -> Device)", "gpu_memcpy") +
              (i < 2000 ? "," : "");
  }
  const std::string trace = set.write("copies.json", events_trace(events));
  auto result = analyze_file(trace, AnalyzeOptions{});
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_FALSE(result->regions.empty());
  for (const auto& region : result->regions) {
    const std::map<std::string, int64_t> expected = {{"DtoD", 1000}, {"other", 1000}};
    EXPECT_EQ(region.memcpy_by_kind, expected);
  }
}

// Every GPU activity kept a copy of its whole op chain, and a trace may nest ops without end
// (4,000 nested ops with kernels at the bottom: 5 s and 524 MB). A chain keeps its innermost
// kMaxOpChainDepth ops and says that the outer ones were cut.
TEST(HostileScale, OpChainsAreCutAtTheStatedDepth) {
  TraceSet set;
  constexpr int kDepth = 500;
  std::string events;
  for (int i = 0; i < kDepth; ++i)
    events += "{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"op" + std::to_string(i) +
              "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) +
              ",\"dur\":" + std::to_string(10'000 - 2 * i) + "},";
  events += launch_event(1, 1000) + "," + kernel_event(1, 2000, "k") + "," + launch_event(2, 1001) +
            "," + kernel_event(2, 2001, "k");
  const std::string trace = set.write("deep.json", events_trace(events));
  AnalyzeOptions options;
  options.activities_of_every_region = true;
  options.explain = true;
  auto result = analyze_file(trace, options);
  ASSERT_TRUE(result.ok()) << result.error().message;
  ASSERT_EQ(result->regions.size(), 1u);
  ASSERT_EQ(result->regions[0].activities.size(), 2u);
  for (const ActivityRow& row : result->regions[0].activities) {
    ASSERT_EQ(row.op_chain.size(), kMaxOpChainDepth + 1);
    EXPECT_EQ(row.op_chain.front(), kOpChainCut);
    EXPECT_EQ(row.op_chain.back(), "op" + std::to_string(kDepth - 1));
    EXPECT_EQ(row.op_chain[1], "op" + std::to_string(kDepth - kMaxOpChainDepth));
  }
  auto text = run_cli("analyze --activities " + trace);
  EXPECT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find(std::string(kOpChainCut)), std::string::npos);
}

// An output must never replace a file its command reads, whichever flag names it: each reading
// flag of each command, with -o onto the file it reads (`analyze --graph-capture CAP TRACE -o
// CAP` wrote the analysis over the capture trace and exited 0; `summary-json S -o S` over S).
TEST(HostileWriters, NoOutputReplacesAFileReadByAnyFlag) {
  TraceSet set;
  const std::string a = set.copy(kTrace, "a.json.gz");
  const std::string b = set.copy(kTrace, "b.json.gz");
  const std::string expectations = set.write("e.txt", "kernels >= 1\n");
  auto summary = run_cli("analyze --format summary " + a + " -o " + set.path("s1.json"));
  ASSERT_EQ(summary.exit_code, 0) << summary.output;
  ASSERT_EQ(run_cli("analyze --format summary " + b + " -o " + set.path("s2.json")).exit_code, 0);
  const std::string s1 = set.path("s1.json"), s2 = set.path("s2.json");
  const std::string run = set.path("run");
  fs::create_directories(run + "/traces");
  const std::string study = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";
  fs::copy_file(study + "/summary.json", run + "/summary.json");
  const std::string run_summary = run + "/summary.json";
  struct Case {
    std::string command;  // the command and its inputs; " -o <file>" follows
    std::string file;     // the input it must not write over
  };
  const std::vector<Case> cases = {
      {"analyze " + a, a},
      {"analyze --graph-capture " + b + " " + a, b},
      {"diff " + a + " " + b, a},
      {"diff " + a + " " + b, b},
      {"check " + a + " --expect 'kernels >= 1'", a},
      {"check " + a + " --expectations " + expectations, expectations},
      {"check " + a + " --expect 'kernels >= 1' --baseline " + b, b},
      {"report " + a, a},
      {"report " + run, run_summary},
      {"merge " + s1 + " " + s2, s1},
      {"merge " + s1 + " " + s2, s2},
      {"annotate " + a, a},
      {"summary-json " + run_summary, run_summary},
  };
  for (const Case& c : cases) {
    const std::string before = read_all(c.file);
    auto r = run_cli(c.command + " -o " + c.file);
    EXPECT_EQ(r.exit_code, 2) << c.command << " -o " << c.file << ": " << r.output;
    EXPECT_NE(r.output.find("refusing to write"), std::string::npos)
        << c.command << ": " << r.output;
    EXPECT_EQ(read_all(c.file), before) << c.command << " -o " << c.file;
  }
}

// Bidirectional controls and line separators were written raw in every format, so a kernel name
// could display as another; U+FFFE and U+FFFF in `check --format junit` made the report invalid
// XML 1.0; merge's text headline printed the distributed backend's name raw.
TEST(HostileEscaping, BidiControlsSeparatorsAndXmlNonCharactersAreEscaped) {
  const std::vector<std::pair<std::string, std::string>> characters = {
      {"\u202a", "\\xe2\\x80\\xaa"}, {"\u202e", "\\xe2\\x80\\xae"}, {"\u2066", "\\xe2\\x81\\xa6"},
      {"\u2069", "\\xe2\\x81\\xa9"}, {"\u2028", "\\xe2\\x80\\xa8"}, {"\u2029", "\\xe2\\x80\\xa9"},
      {"\ufffe", "\\xef\\xbf\\xbe"}, {"\uffff", "\\xef\\xbf\\xbf"}};
  for (const auto& [raw, escaped] : characters) {
    EXPECT_EQ(escape_control("a" + raw + "b"), "a" + escaped + "b") << escaped;
    EXPECT_TRUE(has_raw_control(raw, true)) << escaped;
  }
  EXPECT_EQ(escape_control("\u202f\u2065\ufffd"), "\u202f\u2065\ufffd");  // neighbours stay

  TraceSet set;
  std::string json = run_command("zcat " + fixture(kTrace)).output;
  const std::string kernel =
      "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16_knob_7_64x128x64_4x1x1_cga1x1x1_"
      "kernel0_0";
  const std::string hostile = "kernel_\u202egnp.exe\u2066\u2028\uffff";
  for (size_t at; (at = json.find(kernel)) != std::string::npos;)
    json.replace(at, kernel.size(), hostile);
  const std::string trace = set.write("bidi.json", json);
  auto raw_in = [&](const std::string& output) {
    for (const auto& c : characters)
      if (output.find(c.first) != std::string::npos) return true;
    return false;
  };
  for (const std::string& command :
       {"analyze --activities " + trace, "analyze --format md " + trace,
        "analyze --format csv " + trace,
        "check --format junit " + trace + " --expect 'main_kernel ~ \"nothing\"'",
        "check " + trace + " --expect 'main_kernel ~ \"nothing\"'",
        "report --format html " + trace + " -o -"}) {
    auto r = run_cli(command);
    EXPECT_LE(r.exit_code, 1) << command << ": " << r.output;
    EXPECT_NE(r.output.find("gnp.exe"), std::string::npos) << command;
    EXPECT_FALSE(raw_in(r.output)) << command;
  }

  // Both ranks name the same backend, with a terminal command and an override in it.
  auto hostile_summary = [&](const std::string& rank, const std::string& name) {
    const std::string out = set.path(name);
    EXPECT_EQ(run_cli("analyze --format summary " + fixture(rank) + " -o " + out).exit_code, 0);
    std::string line = read_all(out);
    const size_t backend = line.find("\"backend\":\"");
    EXPECT_NE(backend, std::string::npos) << line.substr(0, 300);
    if (backend != std::string::npos) line.insert(backend + 11, "\\u001b]0;owned\\u0007\\u202e");
    set.write(name, line);
    return out;
  };
  const std::string summary = hostile_summary("ranks/ddp_rank0.json.gz", "s0.json");
  const std::string other = hostile_summary("ranks/ddp_rank1.json.gz", "s1.json");
  auto merge = run_cli("merge " + summary + " " + other);
  EXPECT_EQ(merge.exit_code, 0) << merge.output;
  EXPECT_NE(merge.output.find("owned"), std::string::npos) << merge.output;
  EXPECT_EQ(merge.output.find('\x1b'), std::string::npos) << merge.output;
  EXPECT_FALSE(raw_in(merge.output)) << merge.output;
}

// Out of memory aborted: `terminate called after throwing an instance of 'std::bad_alloc'`,
// SIGABRT, exit 134. Under a memory limit each command now says one line and exits 2.
TEST(HostileInput, OutOfMemoryIsOneLineAndExitTwo) {
#if defined(__SANITIZE_ADDRESS__)
  // ASan reserves terabytes of address space up front: no `ulimit -v` leaves it room to start.
  GTEST_SKIP() << "ulimit -v cannot apply under AddressSanitizer";
#endif
  TraceSet set;
  std::string events;
  for (int i = 1; i <= 200'000; ++i)
    events += launch_event(i, i * 10) + "," + kernel_event(i, i * 10 + 5, "k") + ",";
  events.pop_back();
  const std::string trace = set.write("big.json", events_trace(events));
  for (const std::string& command :
       {"analyze " + trace, "analyze --format json " + trace,
        "check " + trace + " --expect 'kernels >= 1'",
        "report " + trace + " -o " + set.path("r.html"), "diff " + trace + " " + trace}) {
    auto r = run_command("ulimit -v 100000; " + std::string(ATTNPROF_CLI) + " " + command);
    EXPECT_EQ(r.exit_code, 2) << command << ": " << r.output;
    EXPECT_NE(r.output.find("out of memory"), std::string::npos) << command << ": " << r.output;
    EXPECT_EQ(r.output.find("terminate called"), std::string::npos) << command << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << command << ": " << r.output;
  }
}

}  // namespace
}  // namespace attnprof
