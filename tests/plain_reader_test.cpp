// The streaming reader against a plain one. The plain reader is what the streaming one replaces:
// the whole file in one buffer, one simdjson on-demand pass over the whole document, every event
// handed to the builder in one batch, one thread. It has no chunks, no cuts, no rollbacks and no
// workers, so a Trace that differs between the two is a bug of the streaming machinery. Every
// fixture is read both ways and compared table by table, string by string, diagnostic by
// diagnostic (offsets included).

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <simdjson.h>

#include "io/byte_stream.h"
#include "reader/linker.h"
#include "reader/read_trace.h"
#include "reader/trace_builder.h"
#include "reader_test_traces.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::expect_same;

std::string whole_file(const std::string& path) {
  auto stream = ByteStream::open(path, Limits{});
  if (!stream.ok()) throw std::runtime_error(stream.error().message);
  std::string text;
  std::vector<char> buffer(1 << 20);
  for (;;) {
    auto n = (*stream)->read(buffer.data(), buffer.size());
    if (!n.ok()) throw std::runtime_error(n.error().message);
    if (*n == 0) return text;
    text.append(buffer.data(), *n);
  }
}

// A member's value as its raw JSON text, whatever its type.
std::string_view raw_value(simdjson::ondemand::value value) {
  switch (value.type().value()) {
    case simdjson::ondemand::json_type::object:
      return value.get_object().value().raw_json().value();
    case simdjson::ondemand::json_type::array:
      return value.get_array().value().raw_json().value();
    default:
      return value.raw_json_token();
  }
}

Trace read_plain(const std::string& path) {
  simdjson::padded_string json(whole_file(path));
  const char* base = json.data();
  simdjson::ondemand::parser parser(json.size() + 64);
  simdjson::ondemand::document doc = parser.iterate(json);
  TraceBuilder builder(path, 1);
  EventBatchSink& events = *builder.worker_sinks()[0];
  for (auto field : doc.get_object()) {
    std::string_view key = field.unescaped_key().value();
    simdjson::ondemand::value value = field.value().value();
    uint64_t offset = static_cast<uint64_t>(value.current_location().value() - base);
    if (key != "traceEvents") {
      auto status = builder.top_level_member(key, raw_value(value), offset);
      if (!status.ok()) throw std::runtime_error(status.error().message);
      continue;
    }
    events.begin_batch(0);
    for (auto element : value.get_array()) {
      simdjson::ondemand::value event = element.value();
      auto at = static_cast<uint64_t>(event.current_location().value() - base);
      if (auto error = events.event(event, at); error != simdjson::SUCCESS)
        throw std::runtime_error(path + ": event at byte " + std::to_string(at) + ": " +
                                 simdjson::error_message(error));
    }
    events.end_batch(true);
    builder.commit_batch(0, 0);
  }
  Trace trace = std::move(builder).finish();
  // What the streaming reader counts as it reads (the builder never sees it).
  trace.json_bytes = json.size();
  link_trace(trace);
  return trace;
}

Trace read_streaming(const std::string& path, size_t workers) {
  auto trace = read_trace(path, testing::awkward_trace_limits(), {}, workers);
  if (!trace.ok()) throw std::runtime_error(trace.error().message);
  return std::move(trace).value();
}

std::vector<std::string> every_fixture() {
  std::vector<std::string> paths;
  for (const auto& entry :
       std::filesystem::recursive_directory_iterator(std::string(ATTNPROF_TEST_DATA)))
    if (entry.path().string().ends_with(".json.gz")) paths.push_back(entry.path().string());
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(PlainReader, EveryFixtureReadsAsTheStreamingReaderReadsIt) {
  auto fixtures = every_fixture();
  ASSERT_GE(fixtures.size(), 14u);
  for (const auto& path : fixtures) {
    SCOPED_TRACE(path);
    Trace plain = read_plain(path);
    EXPECT_GT(plain.events_read, 0u);
    for (size_t workers : {1u, 2u}) {
      SCOPED_TRACE(workers);
      expect_same(plain, read_streaming(path, workers));
    }
  }
}

// Fixtures fit in one chunk; this one is cut into many batches, some of them wrongly at first.
TEST(PlainReader, AnAwkwardTraceOfManyChunksReadsTheSame) {
  testing::TempFile file("awkward.json", testing::awkward_trace(size_t{5} << 20, 4));
  Trace plain = read_plain(file.path());
  EXPECT_GT(plain.host_events.size(), 10000u);
  expect_same(plain, read_streaming(file.path(), 1));
  expect_same(plain, read_streaming(file.path(), 3));
}

}  // namespace
}  // namespace attnprof
