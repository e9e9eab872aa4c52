// What every command shares: help that shows the useful flags (the limit flags only with
// --help-all), a footer naming the command, every command listed when a word is not one, the
// bench's missing LibTorch said for any flag, and shell completion and a man page written from the
// command line's own definition (src/cli/completion_command.cpp), so that they list every flag.

#include <gtest/gtest.h>

#include <regex>
#include <set>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::run_cli;
using testing::run_command;
using testing::TempFile;

const std::vector<std::string> kCommands = {"analyze",  "diff",  "check",     "report",
                                            "annotate", "merge", "completion"};

// The long flags a command's --help-all lists.
std::set<std::string> long_flags(const std::string& command) {
  const std::string help = run_cli(command + " --help-all").output;
  std::set<std::string> flags;
  const std::regex flag(R"((^|[ ,])(--[a-z][a-z0-9-]+))");
  for (std::sregex_iterator it(help.begin(), help.end(), flag), end; it != end; ++it) {
    const std::string f = (*it)[2];
    if (help.find("  " + f) != std::string::npos || help.find("," + f) != std::string::npos)
      flags.insert(f);
  }
  return flags;
}

TEST(CliHabits, EveryCommandsFlagsAreFound) {
  const std::set<std::string> analyze = long_flags("analyze");
  for (const char* flag : {"--region", "--format", "--explain", "--jobs", "--max-depth"})
    EXPECT_TRUE(analyze.count(flag)) << flag;
  EXPECT_TRUE(long_flags("merge").count("--format"));
}

TEST(CliHabits, LimitFlagsOnlyWithHelpAll) {
  for (const std::string command : {"analyze", "diff", "check", "report", "annotate", "merge"}) {
    SCOPED_TRACE(command);
    const auto help = run_cli(command + " --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_EQ(help.output.find("--max-json-bytes"), std::string::npos);
    EXPECT_NE(help.output.find("--help-all adds the reader's limit flags"), std::string::npos);
    EXPECT_NE(help.output.find("attnprof " + command + " -- -odd.json"), std::string::npos)
        << help.output;
    const auto all = run_cli(command + " --help-all");
    EXPECT_EQ(all.exit_code, 0);
    EXPECT_NE(all.output.find("Limits:"), std::string::npos);
    EXPECT_NE(all.output.find("--max-side-file-bytes"), std::string::npos);
  }
}

TEST(CliHabits, AWordThatIsNoCommandListsEveryCommand) {
  const auto r = run_cli("xyz");
  EXPECT_EQ(r.exit_code, 2);
  for (const std::string& command : kCommands)
    EXPECT_NE(r.output.find(command), std::string::npos) << command << "\n" << r.output;
  EXPECT_EQ(r.output.find("manpage"), std::string::npos);  // hidden: the build's
}

TEST(CliHabits, BenchWithoutLibTorchSaysSoForAnyFlag) {
  if (run_cli("bench --help").output.find("--variants") != std::string::npos)
    GTEST_SKIP() << "this build has the bench (LibTorch was found)";
  for (const std::string args : {"", " --seq 1024", " --variants naive --out x", " --help"}) {
    const auto r = run_cli("bench" + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_NE(r.output.find("this build has no GPU bench: LibTorch was not found"),
              std::string::npos)
        << args << ": " << r.output;
  }
}

TEST(CliHabits, BashCompletionKnowsEveryCommandFlagAndFormat) {
  TempFile script("attnprof.bash", run_cli("completion bash").output);
  ASSERT_EQ(run_command("bash -n " + script.path()).exit_code, 0);
  // Completes as bash would: COMP_WORDS up to the cursor, then the function.
  auto complete = [&](const std::string& words) {
    const std::string line = "source " + script.path() + "; COMP_WORDS=(" + words +
                             "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _attnprof; "
                             "printf '%s\\n' \"${COMPREPLY[@]}\"";
    return run_command("bash -c '" + std::regex_replace(line, std::regex("'"), "'\\''") + "'")
        .output;
  };
  EXPECT_EQ(complete("attnprof an"), "analyze\nannotate\n");
  EXPECT_EQ(complete("attnprof merge --fo"), "--format\n");
  EXPECT_EQ(complete("attnprof analyze --format s"), "summary\n");
  EXPECT_EQ(complete("attnprof report --format h"), "html\nheadline\n");
  const std::string text = script.path();
  std::ifstream in(text);
  const std::string bash((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const std::string& command : kCommands)
    for (const std::string& flag : long_flags(command))
      EXPECT_NE(bash.find(" " + flag), std::string::npos) << command << " " << flag;
}

TEST(CliHabits, FishAndZshAndTheManPageListEveryCommandAndFlag) {
  const std::string fish = run_cli("completion fish").output;
  const std::string zsh = run_cli("completion zsh").output;
  EXPECT_EQ(zsh.rfind("#compdef attnprof\n", 0), 0u);
  const auto man = run_cli("manpage");
  ASSERT_EQ(man.exit_code, 0);
  TempFile page("attnprof.1", man.output);
  const auto rendered = run_command("groff -man -Tutf8 -ww " + page.path() + " 2>&1 >/dev/null");
  EXPECT_EQ(rendered.output, "") << "groff warned";
  const std::string text = run_command("groff -man -Tascii " + page.path()).output;
  for (const std::string& command : kCommands) {
    EXPECT_NE(fish.find("-a " + command + " "), std::string::npos) << command;
    EXPECT_NE(man.output.find(".SS " + command), std::string::npos) << command;
    for (const std::string& flag : long_flags(command)) {
      EXPECT_NE(fish.find("-l " + flag.substr(2)), std::string::npos) << command << " " << flag;
      std::string roff;
      for (char c : flag) roff += c == '-' ? std::string("\\-") : std::string(1, c);
      EXPECT_NE(man.output.find(roff), std::string::npos) << command << " " << flag;
    }
  }
}

}  // namespace
}  // namespace attnprof
