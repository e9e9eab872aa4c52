// summary.json's field tables (study/run/run_summary_fields.h) drive both its reader and its
// writer: every shipped bench run (examples/**/summary.json, written on the H200) is read and
// written again by the core's writer (which the bench calls), and must be the file byte for byte: a
// key the tables do not declare, a number spelled otherwise or a key out of order fails.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "study/run/run_summary.h"
#include "study/run/run_summary_json.h"

namespace attnprof {
namespace {

namespace fs = std::filesystem;

std::vector<std::string> shipped_summaries() {
  std::vector<std::string> paths;
  for (const auto& entry :
       fs::recursive_directory_iterator(fs::path(ATTNPROF_SOURCE_DIR) / "examples"))
    if (entry.path().filename() == "summary.json") paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// The round trip is the proof that one table drives both sides: read with the core's reader and
// written with the core's writer, every shipped summary.json is the file again, byte for byte, old
// files (sweep/ predates GQA's keys and the counters) included.
TEST(RunSummaryFields, EveryShippedRunWritesBackByteForByte) {
  const std::vector<std::string> paths = shipped_summaries();
  ASSERT_GE(paths.size(), 18u) << "examples/ holds the shipped studies and model runs";
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    auto read = read_run_summary(path);
    ASSERT_TRUE(read.ok()) << read.error().message;
    ASSERT_FALSE(read->points.empty());
    const std::string file = file_bytes(path);
    const std::string written = write_run_summary(*read);
    if (written == file) continue;
    size_t at = 0;
    while (at < file.size() && at < written.size() && file[at] == written[at]) ++at;
    ADD_FAILURE() << "first difference at byte " << at << ": file has «"
                  << file.substr(at > 80 ? at - 80 : 0, 160) << "», the writer «"
                  << written.substr(at > 80 ? at - 80 : 0, 160) << "»";
  }
}

// An older file is written back without the keys of the additions it predates, and a run filled
// by the bench (every addition) has them all.
TEST(RunSummaryFields, AdditionsFollowTheFile) {
  auto sweep = read_run_summary(std::string(ATTNPROF_SOURCE_DIR) +
                                "/examples/h200-study/sweep/summary.json");
  ASSERT_TRUE(sweep.ok()) << sweep.error().message;
  EXPECT_EQ(sweep->additions & addition_bit(SummaryAddition::kShapes), 0u);
  EXPECT_EQ(sweep->additions & addition_bit(SummaryAddition::kCounters), 0u);
  EXPECT_EQ(write_run_summary(*sweep).find("\"kv_heads\""), std::string::npos);
  RunSummary all = *sweep;
  all.additions = kEveryAddition;
  const std::string written = write_run_summary(all);
  EXPECT_NE(written.find("\"kv_heads\": 16,"), std::string::npos);
  EXPECT_NE(written.find("\"counters\": null"), std::string::npos);
  // Read back, the run has every addition, and the same points.
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / "attnprof_run_summary_additions_test";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / "summary.json").string();
  std::ofstream(path, std::ios::binary) << written;
  auto back = read_run_summary(path);
  std::filesystem::remove_all(dir);
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(back->additions, kEveryAddition);
  EXPECT_EQ(write_run_summary(*back), written);
}

// What the tables promise the reader of an older file: the options added later fall back to
// what the run had without them, and the real values of a shipped GQA decode are read as written.
TEST(RunSummaryFields, ProblemsOfOlderFilesTakeTheirFallbacks) {
  simdjson::dom::parser parser;
  const std::string old_file = R"({"schemaVersion": 2, "environment": {"device": "NVIDIA H200",
      "sm_count": 132, "compute_capability": "9.0"}, "points": [{"problem": {"batch": 4,
      "heads": 16, "seq": 2048, "head_dim": 64, "dtype": "bf16", "mask": "causal",
      "backward": false, "device": "cuda"}, "variants": []}]})";
  const fs::path dir = fs::temp_directory_path() / "attnprof_run_summary_fields_test";
  fs::create_directories(dir);
  const std::string path = (dir / "summary.json").string();
  {
    std::FILE* f = std::fopen(path.c_str(), "wb");
    ASSERT_NE(f, nullptr);
    std::fwrite(old_file.data(), 1, old_file.size(), f);
    std::fclose(f);
  }
  auto read = read_run_summary(path);
  fs::remove_all(dir);
  ASSERT_TRUE(read.ok()) << read.error().message;
  const RunProblem& p = read->points.at(0).problem;
  EXPECT_EQ(p.kv_heads, 16);
  EXPECT_EQ(p.q_seq, 2048);
  EXPECT_EQ(p.window, 0);
  EXPECT_EQ(read->l2_bytes, 0);
  EXPECT_FALSE(read->tf32_matmul);

  auto decode = read_run_summary(std::string(ATTNPROF_SOURCE_DIR) +
                                 "/examples/h200-study/decode/summary.json");
  ASSERT_TRUE(decode.ok()) << decode.error().message;
  const RunProblem& d = decode->points.at(0).problem;
  EXPECT_EQ(d.q_seq, 1);
  EXPECT_LT(d.kv_heads, d.heads);
  EXPECT_EQ(decode->l2_bytes, 62914560);
}

// A summary.json that is not JSON is refused with the byte where it goes wrong (the DOM parser
// says what, the on-demand parser where): a shipped file with a comma dropped, an atom misspelt,
// a comma missing inside a nested object; a file cut short is said to end early.
TEST(RunSummaryFields, MalformedJsonIsRefusedWithItsByteOffset) {
  const std::string shipped =
      file_bytes(std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/decode/summary.json");
  const fs::path dir = fs::temp_directory_path() / "attnprof_malformed_summary";
  fs::create_directories(dir);
  const std::string path = (dir / "summary.json").string();
  auto message_for = [&](const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
    Result<RunSummary> run = read_run_summary(path);
    EXPECT_FALSE(run.ok());
    return run.ok() ? std::string() : run.error().message;
  };
  // The first comma after a value, dropped: the next key is out of place.
  const size_t comma = shipped.find(",\n");
  ASSERT_NE(comma, std::string::npos);
  std::string dropped = shipped;
  dropped.erase(comma, 1);
  const size_t next_key = dropped.find('"', comma);
  EXPECT_EQ(message_for(dropped),
            fmt::format("{}: not valid JSON at byte {} (The JSON document has an improper "
                        "structure: missing or superfluous commas, braces, missing keys, etc.)",
                        path, next_key));
  EXPECT_EQ(message_for(R"({"schemaVersion": 2, "tool": tru})"),
            path +
                ": not valid JSON at byte 29 (Problem while parsing an atom starting with the "
                "letter 't')");
  EXPECT_NE(message_for(R"({"a": {"b": [1, {"c": 2 "d": 3}]}})").find("not valid JSON at byte 24 "),
            std::string::npos);
  // Cut short: inside a list, inside a string, after a value. The byte is the document's end.
  const std::string cut = shipped.substr(0, shipped.find("\"variants\"") + 20);
  EXPECT_EQ(message_for(cut),
            fmt::format("{}: the JSON ends early (after {} bytes): the file is truncated; run the "
                        "bench again to write it whole",
                        path, cut.size()));
  EXPECT_NE(message_for(R"({"schemaVersion": 2, "points": [)").find("ends early (after 32 bytes)"),
            std::string::npos);
  EXPECT_NE(message_for(R"({"tool": "attn)").find("ends early (after 14 bytes)"),
            std::string::npos);
  // A bracket that closes nothing, and a second document after a whole one, are their bytes.
  EXPECT_NE(message_for(R"({"a": 1}})").find("not valid JSON at byte 8 "), std::string::npos);
  EXPECT_NE(message_for(R"({"a": 1} x)").find("not valid JSON at byte 9 "), std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace attnprof
