// The reader's limits (include/attnprof/limits.h): each one trips on a small generated input with
// one line that names the file, the byte offset, the limit and the flag that raises it, and the
// same input passes just under the limit or with the flag raised. Inputs are built so that the
// offending value lands in a later batch than the first, and each is read by one worker and by
// several, so the threaded reader's re-cuts report the same error as the one-thread reader.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <vector>

#include "gzip_file_writer.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::run_cli;
using testing::TempFile;

std::string cpu_op(int i, const std::string& name = "op", const std::string& extra_args = "") {
  return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
         "\", \"pid\": 1, \"tid\": 1, \"ts\": " + std::to_string(1000 + i) +
         ", \"dur\": 1, \"args\": {\"External id\": " + std::to_string(i) + extra_args + "}}";
}

// A trace whose traceEvents hold `before` ordinary events (more than a 1 MiB batch for 20000),
// then `special`, then one more; `special_offset` is where `special` starts.
struct Built {
  std::string json;
  size_t special_offset = 0;
};
Built trace_with(const std::string& special, int before = 20000) {
  Built b;
  b.json = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
  for (int i = 0; i < before; ++i) b.json += cpu_op(i) + ",\n";
  b.special_offset = b.json.size();
  b.json += special + ",\n" + cpu_op(before + 1) + "\n]}";
  return b;
}

// `levels` nested arrays inside an event's args: the innermost is at document depth 4 + levels
// (the top-level object, traceEvents, the event, args).
std::string nested_args(int levels) {
  return cpu_op(7, "deep", ", \"x\": " + std::string(levels, '[') + std::string(levels, ']'));
}

// Reads `path` with one worker and with three, expecting the same error (or none).
void expect_reader_error(const std::string& path, const Limits& limits,
                         const std::string& expected) {
  for (size_t workers : {1u, 3u}) {
    SCOPED_TRACE(workers);
    auto t = read_trace(path, limits, {}, workers);
    if (expected.empty()) {
      EXPECT_TRUE(t.ok()) << t.error().message;
    } else {
      ASSERT_FALSE(t.ok());
      EXPECT_EQ(t.error().message, expected);
    }
  }
}

// `attnprof analyze` fails with exit code 2 and one line holding each of `parts`.
void expect_cli_error(const std::string& arguments, const std::vector<std::string>& parts) {
  auto r = run_cli("analyze " + arguments);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  ASSERT_FALSE(r.output.empty());
  EXPECT_EQ(r.output.find('\n'), r.output.size() - 1) << "more than one line:\n" << r.output;
  for (const auto& part : parts)
    EXPECT_NE(r.output.find(part), std::string::npos) << part << "\n" << r.output;
}

void expect_cli_ok(const std::string& arguments) {
  auto r = run_cli("analyze " + arguments);
  EXPECT_EQ(r.exit_code, 0) << r.output;
}

TEST(Limits, DepthOfAnEvent) {
  // At the default limit (1024): depth 1024 passes, 1025 trips at its 1021st nested bracket.
  const Limits limits;
  Built ok = trace_with(nested_args(1024 - 4));
  Built deep = trace_with(nested_args(1025 - 4));
  TempFile ok_file("ok.json", ok.json), deep_file("deep.json", deep.json);
  const size_t bracket = deep.json.find('[', deep.special_offset) + (1025 - 4) - 1;
  expect_reader_error(ok_file.path(), limits, "");
  expect_reader_error(deep_file.path(), limits,
                      deep_file.path() + ": the JSON at byte " + std::to_string(bracket) +
                          " is nested 1025 deep (arrays and objects), more than the limit of "
                          "1024; raise it with --max-depth");
  expect_cli_error(deep_file.path(), {deep_file.path(), "byte " + std::to_string(bracket),
                                      "limit of 1024", "--max-depth"});
  expect_cli_ok("--max-depth 1025 " + deep_file.path());
}

TEST(Limits, DepthBelowTheDefaultTripsEveryDeepEnoughEvent) {
  // A low limit scans every event longer than twice the depth: Kineto's own shapes (depth 6)
  // are refused at 5, and an ordinary event (args at depth 4) passes at 4.
  Built shapes = trace_with(cpu_op(3, "aten::mm", ", \"Input Dims\": [[4, 16], [16, 8]]"));
  TempFile file("shapes.json", shapes.json);
  const size_t inner = shapes.json.find("[[", shapes.special_offset) + 1;
  expect_cli_error("--max-depth 5 " + file.path(), {file.path(), "byte " + std::to_string(inner),
                                                    "nested 6 deep", "limit of 5", "--max-depth"});
  expect_cli_ok("--max-depth 6 " + file.path());
  expect_cli_error(
      "--max-depth 4 " + file.path(),
      {"byte " + std::to_string(shapes.json.find("[[", shapes.special_offset)), "nested 5 deep"});
}

TEST(Limits, DepthOfATopLevelValueAndOfABareArray) {
  TempFile top("top.json", "{\"meta\": {\"a\": [[[1]]]}, \"traceEvents\": [" + cpu_op(1) + "]}");
  // meta's object is depth 2, its innermost array (byte 17) depth 5.
  expect_cli_error("--max-depth 4 " + top.path(),
                   {top.path(), "byte 17", "nested 5 deep", "limit of 4", "--max-depth"});
  expect_cli_ok("--max-depth 5 " + top.path());
  // The top-level object is depth 1 and traceEvents depth 2.
  TempFile empty("empty.json", "{\"traceEvents\": []}");
  expect_cli_error("--max-depth 1 " + empty.path(), {empty.path(), "byte 16", "nested 2 deep"});
  expect_cli_ok("--max-depth 2 " + empty.path());
  // A top-level value is held to --max-event-bytes too: meta's is 14 bytes.
  expect_cli_error("--max-event-bytes 13 " + top.path(),
                   {top.path(), "the top-level value \"meta\" at byte 9", "--max-event-bytes"});
  expect_cli_ok("--max-event-bytes 200 " + top.path());
  // In a bare array an event is at depth 2 and its args at 3.
  TempFile bare("bare.json", "[" + cpu_op(1) + ", " + cpu_op(2) + "]");
  expect_cli_ok("--max-depth 3 " + bare.path());
  expect_cli_error("--max-depth 2 " + bare.path(), {bare.path(), "nested 3 deep", "--max-depth"});
}

TEST(Limits, StringLength) {
  // The default limit is 1 MiB of JSON text between the quotes; a name exactly that long passes.
  const Limits limits;
  const size_t max = limits.max_string_bytes;
  Built ok = trace_with(cpu_op(5, std::string(max, 'n')), 100);
  Built long_name = trace_with(cpu_op(5, std::string(max + 1, 'n')), 100);
  TempFile ok_file("ok.json", ok.json), long_file("long.json", long_name.json);
  const size_t quote = long_name.json.find("\"nnn", long_name.special_offset);
  expect_reader_error(ok_file.path(), limits, "");
  expect_reader_error(long_file.path(), limits,
                      long_file.path() + ": the string at byte " + std::to_string(quote) + " is " +
                          std::to_string(max + 1) + " bytes, more than the limit of " +
                          std::to_string(max) + "; raise it with --max-string-bytes");
  expect_cli_error(long_file.path(), {long_file.path(), "byte " + std::to_string(quote),
                                      "limit of 1048576", "--max-string-bytes"});
  expect_cli_ok("--max-string-bytes 2000000 " + long_file.path());
}

TEST(Limits, StringLengthCountsEveryStringAndKey) {
  // A string the reader never keeps (a call stack in args) and a top-level key count too.
  Built stack = trace_with(cpu_op(2, "op", ", \"Call stack\": \"" + std::string(300, 's') + "\""));
  TempFile file("stack.json", stack.json);
  const size_t quote = stack.json.find("\"sss", stack.special_offset);
  expect_cli_error("--max-string-bytes 299 " + file.path(),
                   {file.path(), "byte " + std::to_string(quote), "is 300 bytes", "limit of 299",
                    "--max-string-bytes"});
  expect_cli_ok("--max-string-bytes 300 " + file.path());

  // A key is refused before it is read whole.
  TempFile key("key.json", "{\"" + std::string(3 << 20, 'k') + "\": 1, \"traceEvents\": []}");
  expect_cli_error(key.path(), {key.path(),
                                "the string at byte 1 is longer than the limit of "
                                "1048576 bytes",
                                "--max-string-bytes"});
}

TEST(Limits, EventSize) {
  // Exactly the limit passes, one byte more trips, wherever the event lies.
  const std::string special = cpu_op(9, "an event with a longer name");
  Built b = trace_with(special);
  const size_t size = special.size();
  ASSERT_LT(cpu_op(20001).size(), size - 1);  // every other event is shorter
  TempFile file("events.json", b.json);
  Limits limits;
  limits.max_event_bytes = size;
  expect_reader_error(file.path(), limits, "");
  limits.max_event_bytes = size - 1;
  expect_reader_error(file.path(), limits,
                      file.path() + ": the event at byte " + std::to_string(b.special_offset) +
                          " is " + std::to_string(size) + " bytes, more than the limit of " +
                          std::to_string(size - 1) + "; raise it with --max-event-bytes");
  expect_cli_error("--max-event-bytes " + std::to_string(size - 1) + " " + file.path(),
                   {file.path(), "byte " + std::to_string(b.special_offset), "--max-event-bytes"});
}

TEST(Limits, EventLargerThanTheLimitIsRefusedBeforeItIsWhole) {
  // A 3 MiB event with a 1 MiB limit: the reader stops buffering it past the limit.
  Built b = trace_with(cpu_op(4, std::string(3 << 20, 'x')), 100);
  TempFile file("huge.json", b.json);
  expect_cli_error("--max-event-bytes 1048576 --max-string-bytes 4000000 " + file.path(),
                   {file.path(), "the event at byte " + std::to_string(b.special_offset),
                    "larger than the limit of 1048576 bytes", "--max-event-bytes"});
  expect_cli_ok("--max-event-bytes 4000000 --max-string-bytes 4000000 " + file.path());
}

TEST(Limits, EventCount) {
  // 20002 events (several batches); the error names event max + 1 and where it is.
  Built b = trace_with(cpu_op(9), 20000);
  TempFile file("count.json", b.json);
  Limits limits;
  limits.max_events = 20002;
  expect_reader_error(file.path(), limits, "");
  limits.max_events = 15000;
  size_t offset = b.json.find("{\"ph\"");
  for (int i = 0; i < 15000; ++i) offset = b.json.find("{\"ph\"", offset + 1);
  expect_reader_error(file.path(), limits,
                      file.path() + ": the event at byte " + std::to_string(offset) +
                          " is event number 15001, more than the limit of 15000 events; raise it "
                          "with --max-events");
  expect_cli_error(
      "--max-events 15000 " + file.path(),
      {file.path(), "byte " + std::to_string(offset), "limit of 15000", "--max-events"});
  expect_cli_ok("--max-events 20002 " + file.path());
}

TEST(Limits, JsonSize) {
  Built b = trace_with(cpu_op(1), 10);
  TempFile file("size.json", b.json);
  expect_cli_ok("--max-json-bytes " + std::to_string(b.json.size()) + " " + file.path());
  expect_cli_error("--max-json-bytes " + std::to_string(b.json.size() - 1) + " " + file.path(),
                   {file.path(), std::to_string(b.json.size() - 1), "--max-json-bytes"});
}

// `prefix`, `spaces` spaces, then `suffix`, deflated by ISA-L at level 1 (about 1000:1 on
// spaces) into a gzip file: a bomb whose JSON is valid, so only the ratio can stop it.
void write_space_bomb(const std::string& path, const std::string& prefix, uint64_t spaces,
                      const std::string& suffix) {
  testing::GzipFileWriter file(path);
  ASSERT_TRUE(file.write(prefix, false));
  ASSERT_TRUE(file.write_repeated(' ', spaces, false));
  ASSERT_TRUE(file.write(suffix, true));
}

TEST(Limits, GzipBombIsStoppedWithTheDefaultLimits) {
  // 96 MiB of spaces inside traceEvents, gzipped to ~100 KB: valid JSON, so the reader keeps
  // reading until the ratio, judged past 64 MiB, stops it.
  TempFile bomb("bomb.json.gz");
  write_space_bomb(bomb.path(), "{\"traceEvents\": [", uint64_t{96} << 20, cpu_op(1) + "]}");
  expect_cli_error(bomb.path(), {bomb.path(), "gzip bomb", "more than 200x", "--max-gzip-ratio"});
  auto r = run_cli("analyze --max-gzip-ratio 5000 " + bomb.path());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("1 events"), std::string::npos) << r.output;
}

TEST(Limits, EveryCommandThatReadsTracesTakesTheFlags) {
  Built b = trace_with(nested_args(3), 10);
  TempFile file("t.json", b.json);
  for (const std::string command : {"analyze", "check --expect 'kernels == 0'", "diff", "report"}) {
    SCOPED_TRACE(command);
    std::string traces = command == "diff" ? file.path() + " " + file.path() : file.path();
    std::string out = command == "report" ? " -o " + file.dir() + "/r.html" : "";
    auto r = run_cli(command + " --max-depth 5 " + traces + out);
    EXPECT_EQ(r.exit_code, 2) << r.output;
    EXPECT_NE(r.output.find("--max-depth"), std::string::npos) << r.output;
    r = run_cli(command + " --max-depth 7 --max-string-bytes 100 " + traces + out);
    EXPECT_EQ(r.exit_code, 0) << r.output;
  }
}

}  // namespace
}  // namespace attnprof
