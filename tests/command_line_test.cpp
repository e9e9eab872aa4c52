// The command-line habits people expect (docs/SECURITY.md): --version, "did you mean", size
// suffixes, negative limits refused, --quiet, `--` before a file name, and one rule for a region
// pattern that matches nothing, in every command.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "cli/limit_options.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::run_cli;
using testing::TempFile;

TEST(CommandLine, VersionNamesTheCommitAndTheLibraries) {
  auto r = run_cli("--version");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* part : {"attnprof 0.", "(git ", "simdjson 3.", "ISA-L 2.", "fmt ", "CLI11 "})
    EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
}

// CLI11's help request derives from its "success" exception: caught in the wrong order, --help
// printed nothing and exited 0.
TEST(CommandLine, HelpPrintsTheCommandsAndEachCommandsFlags) {
  auto top = run_cli("--help");
  EXPECT_EQ(top.exit_code, 0) << top.output;
  for (const char* part : {"Usage:", "analyze", "diff", "check", "report", "annotate", "bench"})
    EXPECT_NE(top.output.find(part), std::string::npos) << part << "\n" << top.output;
  auto analyze = run_cli("analyze --help");
  EXPECT_EQ(analyze.exit_code, 0) << analyze.output;
  for (const char* part : {"--region", "--format", "--jobs"})
    EXPECT_NE(analyze.output.find(part), std::string::npos) << part << "\n" << analyze.output;
}

TEST(CommandLine, DidYouMean) {
  auto command = run_cli("anlayze x.json");
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_NE(command.output.find("'anlayze' is not a command; did you mean 'analyze'?"),
            std::string::npos)
      << command.output;
  auto flag = run_cli("analyze --regoin forward " + fixture("study_naive.json.gz"));
  EXPECT_EQ(flag.exit_code, 2);
  EXPECT_NE(flag.output.find("did you mean '--region'?"), std::string::npos) << flag.output;
  // One line: the suggestion, without CLI11's own line before it.
  EXPECT_EQ(flag.output,
            "attnprof: '--regoin' is not a flag of analyze; did you mean '--region'?\n");
  // No flag near it: CLI11's words and where the help is, on one line too.
  auto unknown = run_cli("analyze --frobnicate-everything " + fixture("study_naive.json.gz"));
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(std::count(unknown.output.begin(), unknown.output.end(), '\n'), 1) << unknown.output;
  EXPECT_NE(unknown.output.find("(attnprof analyze --help)"), std::string::npos) << unknown.output;
  auto far = run_cli("frobnicate");
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_NE(far.output.find("the commands: analyze, diff, check, report"), std::string::npos)
      << far.output;
}

TEST(CommandLine, SizesTakeSuffixesAndNegativeLimitsAreRefused) {
  using cli::parse_count;
  using cli::parse_size;
  EXPECT_EQ(parse_size("123"), 123u);
  EXPECT_EQ(parse_size("64K"), 64u << 10);
  EXPECT_EQ(parse_size("512M"), 512u << 20);
  EXPECT_EQ(parse_size("1G"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("1GiB"), uint64_t{1} << 30);
  EXPECT_EQ(parse_size("2gb"), uint64_t{2} << 30);
  EXPECT_EQ(parse_size("16384P"), std::nullopt);  // beyond 2^64
  EXPECT_EQ(parse_size("-1"), std::nullopt);
  EXPECT_EQ(parse_size("1.5G"), std::nullopt);
  EXPECT_EQ(parse_size("G"), std::nullopt);
  EXPECT_EQ(parse_size("18446744073709551615"), UINT64_MAX);
  EXPECT_EQ(parse_size("18446744073709551616"), std::nullopt);
  EXPECT_EQ(parse_count("-1", UINT32_MAX), std::nullopt);
  EXPECT_EQ(parse_count("4294967296", UINT32_MAX), std::nullopt);
  EXPECT_EQ(parse_count("200", UINT32_MAX), 200u);

  const std::string trace = " " + fixture("study_naive.json.gz");
  // -1 meant "unlimited" (2^64 - 1) before.
  auto negative = run_cli("analyze --max-json-bytes -1" + trace);
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.output.find("'-1' is not a size"), std::string::npos) << negative.output;
  EXPECT_EQ(run_cli("analyze --max-events -1" + trace).exit_code, 2);
  EXPECT_EQ(run_cli("analyze --max-json-bytes 1G --max-event-bytes 512M" + trace).exit_code, 0);
  auto small = run_cli("analyze --max-json-bytes 1K" + trace);
  EXPECT_EQ(small.exit_code, 2);
  EXPECT_NE(small.output.find("--max-json-bytes"), std::string::npos) << small.output;
}

TEST(CommandLine, QuietCheckPrintsNothingAndItsExitCodeSaysIt) {
  const std::string trace = fixture("study_naive.json.gz");
  auto held = run_cli("check --quiet " + trace + " --expect 'kernels >= 1'");
  EXPECT_EQ(held.exit_code, 0);
  EXPECT_EQ(held.output, "");
  auto failed = run_cli("-q check " + trace + " --expect 'kernels == 0'");
  EXPECT_EQ(failed.exit_code, 1);
  EXPECT_EQ(failed.output, "");
  auto loud = run_cli("check " + trace + " --expect 'kernels == 0'");
  EXPECT_NE(loud.output.find("FAIL"), std::string::npos);
}

TEST(CommandLine, DoubleDashBeforeAFileNameThatBeginsWithADash) {
  TempFile trace("-odd.json",
                 testing::run_command("gzip -dc " + fixture("study_naive.json.gz")).output);
  auto r = testing::run_command("cd " + trace.dir() + " && " + ATTNPROF_CLI +
                                " analyze --format json -- -odd.json");
  EXPECT_EQ(r.exit_code, 0) << r.output.substr(0, 400);
  EXPECT_NE(r.output.find("\"-odd.json\""), std::string::npos);
}

TEST(CommandLine, ARegionThatMatchesNothingIsBadInputInEveryCommand) {
  const std::string trace = fixture("study_naive.json.gz");
  const std::string pattern = " --region nosuch ";
  for (const std::string& command :
       {"analyze" + pattern + trace, "check" + pattern + trace + " --expect 'kernels >= 0'",
        "diff" + pattern + trace + " " + trace, "report" + pattern + trace + " -o /dev/null"}) {
    auto r = run_cli(command);
    // Before: analyze exited 0, check failed the check (1), report wrote a page of zeros (0).
    EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
    EXPECT_NE(r.output.find("no region matches \"nosuch\"; the trace's annotations: "
                            "ProfilerStep#* (3), forward (3)"),
              std::string::npos)
        << command << "\n"
        << r.output;
  }
}

}  // namespace
}  // namespace attnprof
