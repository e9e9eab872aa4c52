// Errors carry a kind (include/attnprof/result.h), as simdjson's error codes do: a program tells
// a truncated trace from a limit, a file that is not a trace, or one that cannot be opened,
// without reading the message; analyze's JSON and the Python module carry its name.

#include <gtest/gtest.h>

#include <string>

#include "attnprof/analysis.h"
#include "attnprof/result.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::fixture;
using testing::TempFile;

Error error_of(const std::string& path, AnalyzeOptions options = {}) {
  Result<TraceAnalysis> result = analyze_file(path, options);
  EXPECT_FALSE(result.ok()) << path;
  return result.ok() ? Error{} : result.error();
}

std::string gzip_bytes_of(const std::string& name) {
  return testing::run_command("cat " + fixture(name)).output;
}

TEST(ErrorKinds, NamesAreStable) {
  EXPECT_EQ(error_kind_name(ErrorKind::kIo), "io");
  EXPECT_EQ(error_kind_name(ErrorKind::kNotATrace), "not_a_trace");
  EXPECT_EQ(error_kind_name(ErrorKind::kMalformed), "malformed");
  EXPECT_EQ(error_kind_name(ErrorKind::kTruncated), "truncated");
  EXPECT_EQ(error_kind_name(ErrorKind::kLimit), "limit");
  EXPECT_EQ(error_kind_name(ErrorKind::kUsage), "usage");
  EXPECT_EQ(error_kind_name(ErrorKind::kUnmatched), "unmatched");
}

TEST(ErrorKinds, AMissingFileIsIo) {
  EXPECT_EQ(error_of("/nonexistent/trace.json").kind, ErrorKind::kIo);
}

TEST(ErrorKinds, ATruncatedGzipOrJsonIsTruncated) {
  const std::string gz = gzip_bytes_of("study_naive.json.gz");
  for (size_t cut : {size_t{20}, gz.size() / 2, gz.size() - 4}) {
    TempFile file("cut.json.gz", gz.substr(0, cut));
    const Error e = error_of(file.path());
    EXPECT_EQ(e.kind, ErrorKind::kTruncated) << cut << ": " << e.message;
  }
  TempFile json("cut.json", R"({"traceEvents": [{"ph": "X", "name": "a", "ts": 1)");
  EXPECT_EQ(error_of(json.path()).kind, ErrorKind::kTruncated);
}

TEST(ErrorKinds, CorruptBytesAreMalformed) {
  std::string gz = gzip_bytes_of("study_naive.json.gz");
  gz[gz.size() / 2] ^= 0x55;
  TempFile corrupt("corrupt.json.gz", gz);
  EXPECT_EQ(error_of(corrupt.path()).kind, ErrorKind::kMalformed);
  TempFile syntax("bad.json", R"({"traceEvents": [{"ph": "X" "ts": 2}]})");
  EXPECT_EQ(error_of(syntax.path()).kind, ErrorKind::kMalformed);
}

TEST(ErrorKinds, ValidJsonThatIsNoTraceIsNotATrace) {
  // A bench run's summary.json: valid JSON, no traceEvents.
  const Error e = error_of(std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/summary.json");
  EXPECT_EQ(e.kind, ErrorKind::kNotATrace) << e.message;
  TempFile empty("empty.json", "");
  EXPECT_EQ(error_of(empty.path()).kind, ErrorKind::kNotATrace);
  // Valid JSON of another shape: a top-level array without one event, traceEvents of a wrong type.
  for (const char* json : {"[1, 2, 3]", "{\"traceEvents\": [null]}", "{\"traceEvents\": 5}"}) {
    TempFile other("other.json", json);
    const Error o = error_of(other.path());
    EXPECT_EQ(o.kind, ErrorKind::kNotATrace) << json << ": " << o.message;
  }
}

TEST(ErrorKinds, ALimitReachedIsLimit) {
  AnalyzeOptions few_events;
  few_events.limits.max_events = 10;
  const Error e = error_of(fixture("study_naive.json.gz"), few_events);
  EXPECT_EQ(e.kind, ErrorKind::kLimit) << e.message;
  AnalyzeOptions small;
  small.limits.max_decompressed_bytes = 1000;
  EXPECT_EQ(error_of(fixture("study_naive.json.gz"), small).kind, ErrorKind::kLimit);
}

TEST(ErrorKinds, ARegionThatMatchesNothingIsUnmatched) {
  AnalyzeOptions options;
  options.region_pattern = "nosuch";
  EXPECT_EQ(error_of(fixture("study_naive.json.gz"), options).kind, ErrorKind::kUnmatched);
}

TEST(ErrorKinds, AnalyzesJsonNamesTheKindOfEachUnreadTrace) {
  TempFile cut("cut.json", R"({"traceEvents": [)");
  auto r = testing::run_cli("analyze --format json " + fixture("study_naive.json.gz") +
                            " /nonexistent/trace.json " + cut.path());
  EXPECT_EQ(r.exit_code, 2);
  const std::string errors = r.output.substr(r.output.find("\"errors\""));
  EXPECT_NE(errors.find("\"path\": \"/nonexistent/trace.json\",\n      \"kind\": \"io\""),
            std::string::npos)
      << errors;
  EXPECT_NE(errors.find("\"kind\": \"truncated\""), std::string::npos) << errors;
}

}  // namespace
}  // namespace attnprof
