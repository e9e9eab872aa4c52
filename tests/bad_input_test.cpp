// Bad input gets one clear line naming the file (and the byte offset for JSON errors), exit
// code 2, and no crash.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "test_support.h"
#include "trace_set.h"

namespace attnprof {
namespace {

using testing::run_cli;
using testing::TempFile;

// Runs `analyze` on a file and checks the one-line error.
void expect_one_line_error(const std::string& path, const std::string& must_contain) {
  auto r = run_cli("analyze '" + path + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  ASSERT_FALSE(r.output.empty());
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "more than one line:\n" << r.output;
  EXPECT_NE(r.output.find(path), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(must_contain), std::string::npos) << r.output;
}

TEST(BadInput, MissingFile) {
  expect_one_line_error("/nonexistent/trace.json", "no such file");
}

TEST(BadInput, Directory) {
  TempFile file("x");
  expect_one_line_error(file.dir(), "directory");
}

TEST(BadInput, EmptyFile) {
  TempFile file("empty.json", "");
  expect_one_line_error(file.path(), "empty");
}

TEST(BadInput, NotJson) {
  TempFile file("notes.txt", "hello, this is not JSON\n");
  expect_one_line_error(file.path(), "not a JSON trace");
}

TEST(BadInput, JsonThatIsNotATrace) {
  TempFile file("config.json", R"({"name": "resnet", "layers": [1, 2, 3]})");
  expect_one_line_error(file.path(), "traceEvents");
}

TEST(BadInput, TraceEventsOfTheWrongType) {
  TempFile file("wrong.json", R"({"traceEvents": {"ph": "X"}})");
  expect_one_line_error(file.path(), "byte 16");
}

// A top level that is valid JSON but no trace: each command that reads traces says so in one
// line with the byte, and exits 2. `[1, 2, 3]` once read as a bare array of three mistyped events
// and exited 0 with warnings.
TEST(BadInput, ValidJsonThatIsNotATraceFailsEveryCommand) {
  const std::pair<const char*, const char*> cases[] = {
      {"[1, 2, 3]", "none of the 3 elements of the top-level array is an event"},
      {"[{\"name\": \"a\"}, {\"name\": \"b\"}]", "at byte 1, event without a valid \"ph\""},
      {"42", "byte 0 is '4'"},
      {"  \"x\"", "byte 2 is '\"'"},
      {"null", "byte 0 is 'n'"},
      {"{\"traceEvents\": [1, \"x\", null]}", "at byte 17, a number where an event object belongs"},
      {"{\"traceEvents\": 5}", "\"traceEvents\" at byte 16 is not an array"},
      {"{\"name\": \"resnet\"}", "without \"traceEvents\""},
  };
  testing::TraceSet set;
  const std::string good = testing::fixture("study_naive.json.gz");
  for (const auto& [json, must_contain] : cases) {
    SCOPED_TRACE(json);
    const std::string path = set.write("not_trace.json", json);
    expect_one_line_error(path, must_contain);
    for (const std::string& command :
         {"diff " + good + " " + path, "check --expect 'kernels > 0' " + path,
          "report " + path + " -o " + set.path("r.html"),
          "annotate " + path + " -o " + set.path("a.json")}) {
      auto r = run_cli(command);
      EXPECT_EQ(r.exit_code, 2) << command << "\n" << r.output;
      EXPECT_NE(r.output.find(path + ": not a"), std::string::npos) << command << "\n" << r.output;
    }
  }
  // A gzip of bytes that are not JSON says so once inflated.
  const std::string garbage = set.write("garbage", std::string("\xe2\x01\x7f binary", 10));
  testing::run_command("gzip -f " + garbage);
  expect_one_line_error(garbage + ".gz", "not a JSON trace: byte 0 is 0xe2");
}

// An empty event array is a trace of nothing (the format allows it; a profiler whose schedule
// never reached an active step writes one): read without warnings, and said plainly.
TEST(BadInput, AnEmptyEventArrayIsAnEmptyTrace) {
  testing::TraceSet set;
  for (const char* json : {"{\"traceEvents\": []}", "[ ]"}) {
    auto r = run_cli("analyze " + set.write("empty_events.json", json));
    EXPECT_EQ(r.exit_code, 0) << r.output;
    EXPECT_NE(r.output.find("0 events"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("the trace holds no events"), std::string::npos) << r.output;
  }
}

TEST(BadInput, TruncatedJsonAtManyPoints) {
  auto text = testing::run_command("zcat " + testing::fixture("study_naive.json.gz")).output;
  ASSERT_GT(text.size(), 10000u);
  for (size_t cut :
       {size_t{4}, size_t{50}, size_t{700}, text.size() / 2, text.size() - 40, text.size() - 2}) {
    SCOPED_TRACE(cut);
    TempFile file("cut.json", text.substr(0, cut));
    expect_one_line_error(file.path(), "truncated");
  }
}

TEST(BadInput, MalformedJsonInsideAnEventGivesItsByteOffset) {
  std::string json =
      R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "ts": 1, "dur": 1},)"
      R"( {"ph": "X", "cat": "cpu_op", "name": "b" "ts": 2, "dur": 1}]})";
  TempFile file("bad.json", json);
  auto r = run_cli("analyze " + file.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("invalid JSON at byte"), std::string::npos) << r.output;
}

TEST(BadInput, TruncatedGzip) {
  auto gz = testing::run_command("cat " + testing::fixture("study_naive.json.gz")).output;
  for (size_t cut : {size_t{5}, size_t{20}, gz.size() / 2, gz.size() - 4}) {
    SCOPED_TRACE(cut);
    TempFile file("cut.json.gz", gz.substr(0, cut));
    expect_one_line_error(file.path(), "truncated");
  }
}

TEST(BadInput, CorruptGzip) {
  auto gz = testing::run_command("cat " + testing::fixture("study_naive.json.gz")).output;
  gz[gz.size() / 2] ^= 0x55;
  TempFile file("corrupt.json.gz", gz);
  auto r = run_cli("analyze " + file.path());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(file.path()), std::string::npos) << r.output;
}

TEST(BadInput, MistypedAndNegativeFieldsAreCountedNotFatal) {
  std::string json = R"({"traceEvents": [
    {"ph": "X", "cat": "cpu_op", "name": "ok", "pid": 1, "tid": 1, "ts": 1, "dur": 5},
    {"ph": "X", "cat": "cpu_op", "name": "negative", "pid": 1, "tid": 1, "ts": 2, "dur": -1},
    {"ph": "X", "cat": "cpu_op", "name": "text time", "pid": 1, "tid": 1, "ts": "2", "dur": 1},
    {"ph": "X", "cat": "cpu_op", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
    {"ph": "X", "cat": "mystery", "name": "m", "pid": 1, "tid": 1, "ts": 2, "dur": 1},
    {"ph": "Q", "name": "odd phase"},
    42
  ]})";
  TempFile file("odd.json", json);
  auto r = run_cli("analyze --format json " + file.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  for (const char* expected :
       {"\"negative_duration\": 1", "\"mistyped_field\": 2", "\"missing_field\": 1",
        "\"unknown_category\": 1", "\"unknown_phase\": 1"})
    EXPECT_NE(r.output.find(expected), std::string::npos) << expected << "\n" << r.output;
}

TEST(BadInput, UnknownRegionIsAnErrorThatListsTheRegionNames) {
  auto r = run_cli("analyze --region nosuch " + testing::fixture("study_naive.json.gz"));
  EXPECT_EQ(r.exit_code, 2) << r.output;  // 0 before, with "no region matches" in the report
  EXPECT_NE(r.output.find("no region matches \"nosuch\"; the trace's annotations: "
                          "ProfilerStep#* (3), forward (3)"),
            std::string::npos)
      << r.output;
}

TEST(BadInput, ExpectationsFilesAreBounded) {
  const std::string trace = " " + testing::fixture("study_naive.json.gz");
  // /dev/zero grew to 4.7 GB before.
  auto zero = run_cli("check --expectations /dev/zero --max-side-file-bytes 1M" + trace);
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.output.find("expectations file /dev/zero is larger than 1048576 bytes"),
            std::string::npos)
      << zero.output;
  TempFile dir("x");
  auto folder = run_cli("check --expectations " + dir.dir() + trace);
  EXPECT_EQ(folder.exit_code, 2);
  EXPECT_NE(folder.output.find("is a directory"), std::string::npos) << folder.output;
  auto from_stdin = testing::run_command("echo 'kernels >= 1' | " + std::string(ATTNPROF_CLI) +
                                         " check --expectations -" + trace);
  EXPECT_EQ(from_stdin.exit_code, 0) << from_stdin.output;
}

// RFC 1952's CRC-32, bit by bit.
uint32_t crc32(const std::string& bytes) {
  uint32_t crc = 0xffffffffu;
  for (unsigned char b : bytes) {
    crc ^= b;
    for (int k = 0; k < 8; ++k) crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1)));
  }
  return ~crc;
}

TEST(BadInput, AGzipHeaderWithACrcIsValid) {
  // gzip writes no FHCRC; RFC 1952 allows it: the low 16 bits of the header's CRC-32.
  std::ifstream in(testing::fixture("study_naive.json.gz"), std::ios::binary);
  std::string gz((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_GE(gz.size(), 10u);
  size_t header = 10;
  const auto flags = static_cast<unsigned char>(gz[3]);
  ASSERT_EQ(flags & 0x06, 0);               // no FEXTRA, no FHCRC yet
  for (unsigned char field : {0x08, 0x10})  // FNAME, FCOMMENT: zero-terminated
    if (flags & field) header = gz.find('\0', header) + 1;
  std::string with_crc = gz.substr(0, header);
  with_crc[3] = static_cast<char>(flags | 0x02);
  const uint32_t crc = crc32(with_crc);
  with_crc += static_cast<char>(crc & 0xff);
  with_crc += static_cast<char>((crc >> 8) & 0xff);
  with_crc += gz.substr(header);
  TempFile file("fhcrc.json.gz", with_crc);
  auto r = run_cli("analyze " + file.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;  // "corrupt" before
  // A wrong header CRC is still corruption.
  with_crc[header] = static_cast<char>(with_crc[header] ^ 0xff);
  TempFile bad("bad_fhcrc.json.gz", with_crc);
  auto b = run_cli("analyze " + bad.path());
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.output.find("CRC16"), std::string::npos) << b.output;
}

TEST(BadInput, BadFlagsExitWithTwo) {
  EXPECT_EQ(run_cli("analyze --format xml " + testing::fixture("study_naive.json.gz")).exit_code,
            2);
  EXPECT_EQ(run_cli("analyze").exit_code, 2);
  EXPECT_EQ(run_cli("frobnicate").exit_code, 2);
}

}  // namespace
}  // namespace attnprof
