// summary.json's field tables (reader/run_summary_fields.h) drive both its reader and its writer:
// every shipped bench run (examples/**/summary.json, written on the H200 by the bench) is read,
// its environment and each point's problem written again by the core's writer (which the bench
// calls), and the objects written must be the file's objects (minified, byte for byte; key for
// key where the file predates a field); a key of the file that no table declares fails too.

#include <gtest/gtest.h>
#include <simdjson.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "reader/run_summary.h"
#include "reader/run_summary_fields.h"
#include "render/json_writer.h"
#include "render/run_summary_json.h"

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

// An object as the writer alone writes it, minified (so that the bench's indentation at the
// object's depth in the file does not matter).
template <typename Write>
std::string written(Write write) {
  JsonWriter json;
  write(json);
  simdjson::dom::parser parser;
  return simdjson::minify(parser.parse(json.take()).value());
}

// The written object against the file's: the same bytes when the bench wrote the file with every
// field; otherwise key for key: scripts/gpu/record_flex.py writes the same keys in its own order
// (flex/ has seq before q_seq), and a file written before a field existed lacks it (sweep/
// predates kv_heads, q_seq and window): every key it has is written with its value, and the rest
// are fields added later.
template <typename Owner, size_t N>
void expect_written_back(const std::string& written_text, simdjson::dom::object file,
                         const std::array<SummaryField<Owner>, N>& fields, bool by_the_bench) {
  if (by_the_bench && file.size() == N) {
    EXPECT_EQ(written_text, simdjson::minify(file));
    return;
  }
  simdjson::dom::parser parser;
  simdjson::dom::object back = parser.parse(written_text).get_object();
  for (const auto& f : fields) {
    simdjson::dom::element in_file;
    if (file.at_key(f.key).get(in_file) == simdjson::SUCCESS) {
      EXPECT_EQ(simdjson::minify(back.at_key(f.key).value()), simdjson::minify(in_file)) << f.key;
    } else {
      EXPECT_FALSE(f.required) << f.key << " is required but absent";
    }
  }
}

template <typename Owner, size_t N>
std::set<std::string> keys_of(const std::array<SummaryField<Owner>, N>& fields) {
  std::set<std::string> keys;
  for (const auto& f : fields) keys.insert(std::string(f.key));
  return keys;
}

template <typename Owner, size_t N>
void expect_declared(simdjson::dom::object object, const std::array<SummaryField<Owner>, N>& fields,
                     const std::string& where) {
  const std::set<std::string> declared = keys_of(fields);
  std::set<std::string> present;
  for (auto field : object) {
    present.insert(std::string(field.key));
    EXPECT_TRUE(declared.count(std::string(field.key)))
        << where << "." << field.key << " is not in reader/run_summary_fields.h";
  }
  for (const auto& f : fields) {
    if (f.required) {
      EXPECT_TRUE(present.count(std::string(f.key))) << where << " lacks " << f.key;
    }
  }
}

TEST(RunSummaryFields, EveryShippedRunReadsAndWritesBackToItsOwnObjects) {
  const std::vector<std::string> paths = shipped_summaries();
  ASSERT_GE(paths.size(), 10u) << "examples/ holds the shipped studies and model runs";
  size_t problems = 0;
  for (const std::string& path : paths) {
    SCOPED_TRACE(path);
    auto read = read_run_summary(path);
    ASSERT_TRUE(read.ok()) << read.error().message;
    simdjson::dom::parser parser;
    simdjson::dom::element file = parser.load(path);
    const bool by_the_bench =
        std::string_view(file["tool"].get_string().value()) == "attnprof bench";
    simdjson::dom::object environment = file["environment"].get_object();
    expect_declared(environment, kEnvironmentFields, "environment");
    expect_written_back(written([&](JsonWriter& j) { write_run_environment(j, *read); }),
                        environment, kEnvironmentFields, by_the_bench);
    simdjson::dom::array points = file["points"].get_array();
    ASSERT_EQ(points.size(), read->points.size());
    size_t i = 0;
    for (simdjson::dom::element point : points) {
      simdjson::dom::object problem = point["problem"].get_object();
      expect_declared(problem, kProblemFields, "points[].problem");
      SCOPED_TRACE("point " + std::to_string(i));
      expect_written_back(
          written([&](JsonWriter& j) { write_run_problem(j, read->points[i].problem); }), problem,
          kProblemFields, by_the_bench);
      ++i;
      ++problems;
    }
  }
  EXPECT_GE(problems, paths.size());
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

}  // namespace
}  // namespace attnprof
