// The reader's cutting of traceEvents into chunks: every event read once, whatever the chunk
// boundaries, strings that look like event boundaries, or events larger than a chunk.

#include <gtest/gtest.h>

#include <string>

#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::TempFile;

// "External id" is i + 1: Kineto writes 0 for none.
std::string cpu_op(int i, const std::string& name) {
  return "{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name +
         "\", \"pid\": 1, \"tid\": 1, "
         "\"ts\": " +
         std::to_string(1000 + i) +
         ".125, \"dur\": 0.5, \"args\": {\"External id\": " + std::to_string(i + 1) + "}}";
}

// Some texts below hold a name longer than a 1 MiB chunk, over the default string limit.
Trace read_ok(const std::string& path) {
  Limits limits;
  limits.max_string_bytes = uint64_t{16} << 20;
  auto trace = read_trace(path, limits);
  if (!trace.ok()) throw std::runtime_error(trace.error().message);
  return std::move(trace).value();
}

TEST(TraceDocument, ReadsEveryEventOnceAcrossManyChunksWithTrickyStrings) {
  // ~6 MB of events (the reader cuts at 1 MiB): names hold `}, {`, escaped quotes and
  // backslashes, so a cut placed by looking for `}, {` falls inside strings again and again.
  std::string json = "{\"schemaVersion\": 1, \"traceEvents\": [\n";
  const int kEvents = 40000;
  for (int i = 0; i < kEvents; ++i) {
    std::string name = "op" + std::to_string(i);
    if (i % 3 == 0) name += "}, {\\\"ph\\\": \\\"X\\\"}, {";
    if (i % 7 == 0) name += "\\\\";
    if (i % 11 == 0) name += std::string(200, 'x') + "},{";
    json += cpu_op(i, name);
    json += i + 1 < kEvents ? ",\n  " : "\n";
  }
  json +=
      "],\n \"deviceProperties\": [{\"id\": 0, \"name\": \"X\"}, {\"id\": 1, \"name\": \"Y\"}],"
      " \"traceName\": \"t\"}";
  TempFile file("big.json", json);
  Trace t = read_ok(file.path());
  ASSERT_EQ(t.host_events.size(), static_cast<size_t>(kEvents));
  EXPECT_EQ(t.events_read, static_cast<uint64_t>(kEvents));
  std::vector<bool> seen(kEvents, false);
  for (const auto& e : t.host_events) {
    const int64_t i = e.external_id - 1;
    ASSERT_GE(i, 0);
    ASSERT_LT(i, kEvents);
    EXPECT_FALSE(seen[i]) << "event " << i << " read twice";
    seen[i] = true;
    EXPECT_EQ(e.start_ns, (1000 + i) * 1000 + 125);
    std::string_view name = t.strings.view(e.name);
    EXPECT_EQ(name.substr(0, 2), "op");
    if (i % 3 == 0) {
      EXPECT_NE(name.find("}, {\"ph\": \"X\"}, {"), std::string_view::npos);
    }
    if (i % 7 == 0) {
      EXPECT_NE(name.find('\\'), std::string_view::npos);
    }
  }
  ASSERT_EQ(t.devices.size(), 2u);  // a top-level key after traceEvents
  EXPECT_EQ(t.devices[1].name, "Y");
  EXPECT_EQ(t.trace_name, "t");
}

TEST(TraceDocument, ReadsAnEventLargerThanAChunk) {
  std::string huge(3 << 20, 'k');
  std::string json = "{\"traceEvents\": [" + cpu_op(0, "small") + "," + cpu_op(1, huge) + "," +
                     cpu_op(2, "after") + "]}";
  TempFile file("huge.json", json);
  Trace t = read_ok(file.path());
  ASSERT_EQ(t.host_events.size(), 3u);
  EXPECT_EQ(t.strings.view(t.host_events[1].name).size(), huge.size());
}

TEST(TraceDocument, AcceptsABareArrayOfEvents) {
  // Appended, not "[" + string: g++ 12's false -Wrestrict (GCC bug 105329).
  std::string events = "[";
  events += cpu_op(0, "a") + ", " + cpu_op(1, "b") + "]";
  TempFile file("bare.json", events);
  Trace t = read_ok(file.path());
  EXPECT_EQ(t.host_events.size(), 2u);
}

TEST(TraceDocument, AcceptsAnEmptyEventListAndKeysInAnyOrder) {
  TempFile file("empty.json",
                "{ \"traceName\": \"x\", \"traceEvents\" : [ ] , \"baseTimeNanoseconds\": 17 }");
  Trace t = read_ok(file.path());
  EXPECT_TRUE(t.host_events.empty());
  EXPECT_EQ(t.base_time_ns, 17);
}

TEST(TraceDocument, ReadsTheSameFromGzipAndPlainText) {
  auto gz = read_trace(testing::fixture("train_step.json.gz"), Limits{});
  ASSERT_TRUE(gz.ok());
  auto plain_text = testing::run_command("zcat " + testing::fixture("train_step.json.gz"));
  TempFile plain("train_step.json", plain_text.output);
  Trace p = read_ok(plain.path());
  EXPECT_EQ(p.host_events.size(), gz->host_events.size());
  EXPECT_EQ(p.gpu_activities.size(), gz->gpu_activities.size());
  EXPECT_EQ(p.events_read, gz->events_read);
  EXPECT_EQ(p.json_bytes, gz->json_bytes);
}

}  // namespace
}  // namespace attnprof
