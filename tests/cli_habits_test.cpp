// What every command shares: help that shows the useful flags (the limit flags only with
// --help-all), a footer naming the command, every command listed when a word is not one, the
// bench's missing LibTorch said for any flag, and shell completion and a man page written from the
// command line's own definition (src/cli/completion_command.cpp), so that they list every flag;
// one output rule for every command (-o/--output, the format from --format or -o's extension,
// src/cli/output_option.h), a study folder read by analyze, and diff saying when its sides ran
// different work (README.md, "Habits every command shares").

#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <set>
#include <sstream>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;
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

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

size_t lines_of(const std::string& text) {
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

const std::string kTrace = fixture("study_naive.json.gz");
const std::string kStudy = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study";

TEST(CliHabits, EveryCommandTakesOutputAndItsExtensionChoosesTheFormat) {
  TempFile md("analyze.md"), json("analyze.json"), csv("analyze.csv"), summary("s.jsonl");
  ASSERT_EQ(run_cli("analyze " + kTrace + " -o " + md.path()).exit_code, 0);
  EXPECT_EQ(file_text(md.path()).rfind("### `", 0), 0u) << file_text(md.path());
  ASSERT_EQ(run_cli("analyze " + kTrace + " --output " + json.path()).exit_code, 0);
  const std::string analyzed = file_text(json.path());
  EXPECT_EQ(analyzed.rfind("{\n  \"schemaVersion\": ", 0), 0u);
  EXPECT_EQ(analyzed.back(), '\n');
  // The JSON streamed into the file is the JSON streamed to standard output, byte for byte.
  EXPECT_EQ(analyzed, run_command(std::string(ATTNPROF_CLI) + " analyze " + kTrace +
                                  " --format json 2>/dev/null")
                          .output);
  ASSERT_EQ(run_cli("analyze " + kTrace + " -o " + csv.path()).exit_code, 0);
  EXPECT_EQ(file_text(csv.path()).rfind("trace,rank,", 0), 0u) << file_text(csv.path());
  ASSERT_EQ(run_cli("analyze " + kTrace + " -o " + summary.path()).exit_code, 0);
  EXPECT_EQ(lines_of(file_text(summary.path())), 1u);

  TempFile diff("d.json"), check("c.xml"), merged("m.md"), report("r.md"), page("r.html");
  ASSERT_EQ(run_cli("diff " + kTrace + " " + kTrace + " -o " + diff.path()).exit_code, 0);
  EXPECT_NE(file_text(diff.path()).find("\"tool\": \"attnprof diff\""), std::string::npos);
  ASSERT_EQ(run_cli("check " + kTrace + " --expect 'kernels > 0' -o " + check.path()).exit_code, 0);
  EXPECT_EQ(file_text(check.path()).rfind("<?xml", 0), 0u);
  ASSERT_EQ(run_cli("merge " + summary.path() + " -o " + merged.path()).exit_code, 0);
  EXPECT_EQ(file_text(merged.path()).rfind("#", 0), 0u) << file_text(merged.path());
  ASSERT_EQ(run_cli("report " + kTrace + " -o " + report.path()).exit_code, 0);
  EXPECT_EQ(file_text(report.path()).rfind("# attnprof report", 0), 0u);
  ASSERT_EQ(run_cli("report " + kTrace + " -o " + page.path()).exit_code, 0);
  EXPECT_NE(file_text(page.path()).find("<html"), std::string::npos);
}

TEST(CliHabits, StandardOutputByDefaultAndForDash) {
  for (const std::string& command :
       {"analyze " + kTrace, "diff " + kTrace + " " + kTrace,
        "check " + kTrace + " --expect 'kernels > 0'", "report " + kTrace}) {
    SCOPED_TRACE(command);
    const auto plain = run_cli(command);
    EXPECT_EQ(plain.exit_code, 0) << plain.output;
    EXPECT_GT(lines_of(plain.output), 2u);
    for (const std::string out : {" -o -", " --output /dev/stdout"})
      EXPECT_EQ(run_cli(command + out).output, plain.output) << out;
  }
  // report needs no -o: its text, the bench's table.txt, on standard output.
  EXPECT_EQ(run_cli("report " + kTrace).output.rfind("attnprof report: NVIDIA H200", 0), 0u);
  // annotate keeps --out beside -o and --output.
  TempFile a("a.json"), b("b.json");
  ASSERT_EQ(run_cli("annotate " + kTrace + " --out " + a.path()).exit_code, 0);
  ASSERT_EQ(run_cli("annotate " + kTrace + " --output " + b.path()).exit_code, 0);
  EXPECT_EQ(file_text(a.path()), file_text(b.path()));
  EXPECT_GT(file_text(a.path()).size(), 1000u);
}

TEST(CliHabits, AFormatTheFileNameContradictsIsRefusedInOneLine) {
  TempFile md("x.md", "kept");
  const auto conflict = run_cli("analyze " + kTrace + " --format json -o " + md.path());
  EXPECT_EQ(conflict.exit_code, 2);
  EXPECT_EQ(conflict.output, "attnprof: --format json but -o " + md.path() +
                                 " names a Markdown file: drop --format, or name the file for "
                                 "json\n");
  EXPECT_EQ(file_text(md.path()), "kept");
  TempFile html("x.html", "kept");
  const auto unwritable = run_cli("check " + kTrace + " --expect 'kernels > 0' -o " + html.path());
  EXPECT_EQ(unwritable.exit_code, 2);
  EXPECT_EQ(lines_of(unwritable.output), 1u);
  EXPECT_NE(unwritable.output.find("which check does not write: give --format "
                                   "text|json|md|csv|junit"),
            std::string::npos)
      << unwritable.output;
  EXPECT_EQ(file_text(html.path()), "kept");
  // An agreeing pair, and a name the table does not know (the format is then --format's).
  TempFile txt("x.txt"), log("x.log");
  EXPECT_EQ(run_cli("report " + kTrace + " --format headline --wide -o " + txt.path()).exit_code,
            0);
  EXPECT_EQ(lines_of(file_text(txt.path())), 1u);
  EXPECT_EQ(run_cli("diff " + kTrace + " " + kTrace + " --format md -o " + log.path()).exit_code,
            0);
  EXPECT_EQ(file_text(log.path()).rfind("### attnprof diff", 0), 0u);
}

TEST(CliHabits, NoCommandWritesOverItsInput) {
  TempFile copy("trace.json.gz");
  std::filesystem::copy_file(kTrace, copy.path(),
                             std::filesystem::copy_options::overwrite_existing);
  const std::string before = file_text(copy.path());
  for (const std::string& command :
       {"analyze " + copy.path(), "diff " + kTrace + " " + copy.path(),
        "check " + copy.path() + " --expect 'kernels > 0'", "report " + copy.path()}) {
    SCOPED_TRACE(command);
    const auto r = run_cli(command + " -o " + copy.path());
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.output.find("over an input of the command"), std::string::npos) << r.output;
  }
  EXPECT_EQ(file_text(copy.path()), before);
}

TEST(CliHabits, QuietCheckStillWritesTheFileItWasAskedFor) {
  TempFile out("c.json");
  const auto r = run_cli("--quiet check " + kTrace + " --expect 'kernels > 100' -o " + out.path());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.output, "");
  EXPECT_NE(file_text(out.path()).find("\"holds\": false"), std::string::npos)
      << file_text(out.path());
}

TEST(CliHabits, AnalyzeReadsAStudyFolderOverItsForwardRegions) {
  const auto r = run_cli("analyze " + kStudy);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // Its seven variants' traces, each over the bench's five `forward` calls; not summary.json.
  const std::regex region_line("5 region\\(s\\) matching \"forward\"");
  EXPECT_EQ(std::distance(std::sregex_iterator(r.output.begin(), r.output.end(), region_line),
                          std::sregex_iterator()),
            7)
      << r.output;
  EXPECT_EQ(r.output.find("summary.json"), std::string::npos);
  // --region still chooses.
  EXPECT_NE(
      run_cli("analyze " + kStudy + " --region 'forward*'").output.find("matching \"forward*\""),
      std::string::npos);
  // A study folder and another trace would need two defaults: refused with the flag to give.
  const auto mixed = run_cli("analyze " + kStudy + " " + kTrace);
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_EQ(lines_of(mixed.output), 1u);
  EXPECT_NE(mixed.output.find("give --region"), std::string::npos) << mixed.output;
}

TEST(CliHabits, TheWholeTraceFallbackNamesTheAnnotationsToPick) {
  // A study's trace read alone: no ProfilerStep#*, five `forward` calls.
  const std::string trace = kStudy + "/traces/naive.json.gz";
  const auto text = run_cli("analyze " + trace);
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("1 region(s) (no ProfilerStep#*: the whole trace)\n"
                             "  5 \"forward\" regions exist: --region forward"),
            std::string::npos)
      << text.output;
  EXPECT_NE(run_cli("analyze " + trace + " --format md")
                .output.find("5 \"forward\" regions exist: --region forward"),
            std::string::npos);
  // Regions found by their pattern say nothing more.
  EXPECT_EQ(run_cli("analyze " + kTrace).output.find("regions exist"), std::string::npos);
  EXPECT_EQ(run_cli("analyze " + trace + " --region forward").output.find("regions exist"),
            std::string::npos);
}

TEST(CliHabits, DiffSaysWhenTheSidesRanDifferentWork) {
  // An H200 trace against an A100 one (HTA's, tests/data/foreign).
  const auto gpus = run_cli("diff " + kTrace + " " + fixture("foreign/hta_cuda_sync.json.gz"));
  ASSERT_EQ(gpus.exit_code, 0) << gpus.output;
  EXPECT_NE(gpus.output.find("Not like for like: the sides ran different work, which the numbers "
                             "below include:\n  device: NVIDIA H200 (132 SMs, sm_90) vs NVIDIA "
                             "A100-PG509-200 (108 SMs, sm_80)\n"),
            std::string::npos)
      << gpus.output;
  // Llama's prefill (512 queries per head) against its decode (one), both bf16 on an H200: the
  // typical regions' attention calls (docs/ATTENTION_CALLS.md).
  const std::string prefill = fixture("models/llama-prefill-sdpa.json.gz");
  const std::string decode = fixture("models/llama-decode-sdpa.json.gz");
  const auto shapes = run_cli("diff --format json " + prefill + " " + decode);
  ASSERT_EQ(shapes.exit_code, 0);
  EXPECT_NE(shapes.output.find("\"unlike\": [\n    \"attention shapes (heads x queries x keys x "
                               "head dim): 16x512x512x64 vs 16x1x528x64\"\n  ]"),
            std::string::npos)
      << shapes.output.substr(0, 800);
  EXPECT_EQ(shapes.output.find("\"device:"), std::string::npos);
  EXPECT_EQ(shapes.output.find("dtype"), std::string::npos);
  // SDPA called in bf16, fp32 and fp64 (tests/data/op_families) against a bf16 study.
  EXPECT_NE(run_cli("diff " + kTrace + " " + fixture("op_families/sdpa-default.json.gz"))
                .output.find("  attention dtype: bf16 vs bf16, fp32, fp64\n"),
            std::string::npos);
  // Two bench run folders: their summary.json's problems (the shipped GQA study has 4 KV heads).
  const auto runs = run_cli("diff --wide " + kStudy + " " + kStudy + "/gqa");
  ASSERT_EQ(runs.exit_code, 0) << runs.output;
  EXPECT_EQ(runs.output.rfind("Not like for like: the sides ran different work, which the numbers "
                              "below include:\n  problem: batch 4, heads 16/16, seq 2048/2048, "
                              "head_dim 64, causal vs batch 4, heads 16/4, seq 2048/2048, "
                              "head_dim 64, causal\n\n",
                              0),
            0u)
      << runs.output;
  // The same work says nothing.
  const auto same = run_cli("diff " + kTrace + " " + kTrace);
  EXPECT_EQ(same.output.find("Not like for like"), std::string::npos);
  EXPECT_NE(run_cli("diff --format json " + kTrace + " " + kTrace).output.find("\"unlike\": []"),
            std::string::npos);
}

TEST(CliHabits, DiffColumnsStayAlignedAtAnyWidth) {
  // Llama's decode: walls of five digits and more beside the prefill's four.
  const auto r = run_cli("diff " + fixture("models/llama-prefill-sdpa.json.gz") + " " +
                         fixture("models/llama-decode-sdpa.json.gz"));
  ASSERT_EQ(r.exit_code, 0);
  std::istringstream lines(r.output);
  std::string line;
  while (std::getline(lines, line) && line.rfind("  per region", 0) != 0) {
  }
  ASSERT_FALSE(line.empty()) << r.output;
  const size_t b_column = line.find("B: median");
  const size_t delta_column = line.find("B - A");
  size_t rows = 0;
  while (std::getline(lines, line) && !line.empty()) {
    ++rows;
    // Each value starts in its header's column, after a space (µs is two bytes, one column).
    std::u32string wide;
    for (size_t at = 0; at < line.size();) {
      const auto lead = static_cast<unsigned char>(line[at]);
      const size_t length = lead < 0x80 ? 1 : lead >= 0xE0 ? 3 : 2;
      wide += static_cast<char32_t>(lead);
      at += length;
    }
    ASSERT_GT(wide.size(), delta_column) << line;
    EXPECT_EQ(wide[b_column - 1], U' ') << line;
    EXPECT_NE(wide[b_column], U' ') << line;
    EXPECT_EQ(wide[delta_column - 1], U' ') << line;
    EXPECT_NE(wide[delta_column], U' ') << line;
    EXPECT_LE(wide.size(), 120u) << line;
  }
  // kernels, memcpy, memset, seven times, and the waits that changed (region_waits.h)
  EXPECT_GE(rows, 10u) << r.output;
  EXPECT_NE(r.output.find(" 47295.8 (45566.2..49025.5) "), std::string::npos) << r.output;
}

// docs/json-schema.md says a CSV row's rank is empty without distributedInfo (it said 0, which a
// second trace would share) and the rank where the trace gives it, in every table.
TEST(CliHabits, CsvRankIsEmptyWithoutDistributedInfo) {
  for (const std::string table : {"activities", "kernels", "ops"}) {
    SCOPED_TRACE(table);
    const std::string single =
        run_cli("analyze --format csv --table " + table + " " + kTrace).output;
    const std::string first_row = single.substr(single.find('\n') + 1);
    EXPECT_EQ(first_row.rfind(kTrace + ",,", 0), 0u) << first_row.substr(0, 120);
    const std::string ranks =
        run_cli("analyze --format csv --table " + table + " " + fixture("ranks")).output;
    for (const char* rank : {"0", "1"}) {
      std::string row = "\n";  // appended, not added: g++ 12 warns falsely on "x" + string
      row += fixture("ranks/ddp_rank");
      row += rank;
      row += ".json.gz,";
      row += rank;
      EXPECT_NE(ranks.find(row + ","), std::string::npos) << row;
    }
  }
  std::ifstream schema(std::string(ATTNPROF_SOURCE_DIR) + "/docs/json-schema.md");
  const std::string doc((std::istreambuf_iterator<char>(schema)), std::istreambuf_iterator<char>());
  EXPECT_NE(doc.find("its rank (empty without `distributedInfo`"), std::string::npos);
  EXPECT_EQ(doc.find("0 without `distributedInfo`"), std::string::npos);
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
  if (run_cli("--version").output.find("\nLibTorch ") != std::string::npos)
    GTEST_SKIP() << "this build has the bench (LibTorch was found)";
  for (const std::string args : {"", " --seq 1024", " --variants naive --out x", " --sq 1"}) {
    const auto r = run_cli("bench" + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(r.output.rfind("attnprof: this build has no GPU bench: LibTorch was not found", 0),
              0u)
        << args << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1) << args << ": " << r.output;
  }
}

// Its help lists the bench's flags in every build, under the line that says how to get it.
TEST(CliHabits, BenchHelpShowsTheFlagsWithoutLibTorch) {
  for (const std::string args : {"bench --help", "bench -h", "bench --seq 1024 --help"}) {
    const auto r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args << ": " << r.output;
    for (const char* flag : {"--variants", "--seq", "--head-dim", "--from-trace", "--sweep"})
      EXPECT_NE(r.output.find(flag), std::string::npos) << args << ": " << flag;
  }
  if (run_cli("--version").output.find("\nLibTorch ") == std::string::npos) {
    EXPECT_NE(run_cli("bench --help").output.find("CMAKE_PREFIX_PATH"), std::string::npos);
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
  // A file name with spaces is one completion, not one per word.
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("attnprof-completion-" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  std::ofstream(folder / "my trace.json") << "{}";
  EXPECT_EQ(complete("attnprof analyze " + (folder / "my").string()),
            (folder / "my trace.json").string() + "\n");
  std::filesystem::remove_all(folder);
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
