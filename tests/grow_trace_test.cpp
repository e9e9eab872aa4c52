// tools/grow_trace, run as a program on a real trace: the grown trace has K times the events,
// each copy shifted exactly in time, fresh ids per copy, and the input's top level unchanged.

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <simdjson.h>

#include "io/byte_stream.h"

namespace attnprof {
namespace {

namespace fs = std::filesystem;
namespace od = simdjson::ondemand;

const fs::path kFixture = fs::path(ATTNPROF_TEST_DATA) / "train_step.json.gz";
// Tools are built next to the CLI (the top-level CMakeLists.txt).
const fs::path kGrowTrace = fs::path(ATTNPROF_CLI).parent_path() / "grow_trace";

// The id fields grow_trace renumbers (flow event "id" is read separately).
const std::set<std::string> kIdArgs = {"External id", "correlation",      "Ev Idx",
                                       "Python id",   "Python parent id", "Sequence number"};

struct Event {
  std::string raw;  // the event's JSON text
  std::string ph;
  std::string name;
  std::string ts;                      // the raw token
  std::string dur;                     // the raw token, empty if none
  std::map<std::string, int64_t> ids;  // integer id fields, flow "id" as "flow id"
};

struct Trace {
  std::vector<std::pair<std::string, std::string>> top_level;  // key -> raw value (not events)
  std::vector<Event> events;
};

std::string trimmed(std::string_view token) {
  while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back()))) {
    token.remove_suffix(1);
  }
  return std::string(token);
}

// Microseconds with up to 3 decimals as nanoseconds, without a double in between.
int64_t exact_ns(const std::string& token) {
  const size_t dot = token.find('.');
  std::string fraction = dot == std::string::npos ? "" : token.substr(dot + 1);
  EXPECT_LE(fraction.size(), 3u) << token;
  fraction.resize(3, '0');
  return std::stoll(token.substr(0, dot)) * 1000 + std::stoll(fraction);
}

std::string read_text(const fs::path& path) {
  Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(path.string(), Limits{});
  EXPECT_TRUE(stream.ok()) << stream.error().message;
  if (!stream) return {};
  std::string text;
  char buffer[1 << 16];
  for (;;) {
    Result<size_t> got = (*stream)->read(buffer, sizeof buffer);
    EXPECT_TRUE(got.ok()) << got.error().message;
    if (!got || *got == 0) return text;
    text.append(buffer, *got);
  }
}

Event read_event(od::object object) {
  Event event;
  std::string_view raw;
  EXPECT_FALSE(object.raw_json().get(raw));
  event.raw = trimmed(raw);
  object.reset();
  std::optional<int64_t> flow_id;
  for (auto field : object) {
    std::string_view key;
    EXPECT_FALSE(field.unescaped_key().get(key));
    od::value value = field.value();
    const std::string token = trimmed(value.raw_json_token());
    if (key == "ph") {
      event.ph = std::string(value.get_string().value());
    } else if (key == "name") {
      event.name = std::string(value.get_string().value());
    } else if (key == "ts") {
      event.ts = token;
    } else if (key == "dur") {
      event.dur = token;
    } else if (key == "id") {
      int64_t id;
      if (!value.get_int64().get(id)) flow_id = id;
    } else if (key == "args") {
      od::object args;
      if (value.get_object().get(args)) continue;
      for (auto arg : args) {
        std::string_view arg_key;
        EXPECT_FALSE(arg.unescaped_key().get(arg_key));
        int64_t id;
        if (kIdArgs.count(std::string(arg_key)) && !arg.value().get_int64().get(id)) {
          event.ids[std::string(arg_key)] = id;
        }
      }
    }
  }
  if (flow_id && (event.ph == "s" || event.ph == "f" || event.ph == "t")) {
    event.ids["flow id"] = *flow_id;
  }
  return event;
}

Trace parse_trace(const fs::path& path) {
  Trace trace;
  const simdjson::padded_string json(read_text(path));
  od::parser parser;
  od::document doc = parser.iterate(json);
  for (auto field : doc.get_object()) {
    const std::string key(field.unescaped_key().value());
    od::value value = field.value();
    if (key == "traceEvents") {
      for (auto element : value.get_array()) trace.events.push_back(read_event(element));
      continue;
    }
    std::string_view raw;
    switch (value.type().value()) {
      case od::json_type::object:
        raw = value.get_object().value().raw_json().value();
        break;
      case od::json_type::array:
        raw = value.get_array().value().raw_json().value();
        break;
      default:
        raw = value.raw_json_token();
    }
    trace.top_level.emplace_back(key, trimmed(raw));
  }
  return trace;
}

class GrowTraceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(fs::exists(kGrowTrace)) << kGrowTrace << " is not built";
    const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = fs::temp_directory_path() /
           ("attnprof_grow_trace_" + std::to_string(getpid()) + "_" + test->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Runs grow_trace with `arguments`; returns its exit status, its output in log_.
  int grow(const std::string& arguments) {
    const fs::path log = dir_ / "log.txt";
    // fmt, not operator+: g++ 12 warns falsely (-Wrestrict) on long chains of string additions.
    const std::string command =
        fmt::format("'{}' {} > '{}' 2>&1", kGrowTrace.string(), arguments, log.string());
    const int status = std::system(command.c_str());
    log_ = read_text(log);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }

  fs::path dir_;
  std::string log_;
};

TEST_F(GrowTraceTest, RepeatThreeTimes) {
  const fs::path out = dir_ / "grown.json";
  ASSERT_EQ(grow(fmt::format("'{}' '{}' --repeat 3", kFixture.string(), out.string())), 0) << log_;
  EXPECT_FALSE(fs::exists(dir_ / "grown.json.tmp"));

  const Trace input = parse_trace(kFixture);
  const Trace grown = parse_trace(out);
  const size_t n = input.events.size();
  ASSERT_GT(n, 100u);
  ASSERT_EQ(grown.events.size(), 3 * n);

  // The top level, but for traceEvents, is the input's, key by key, byte for byte.
  EXPECT_EQ(grown.top_level, input.top_level);

  // Every time is shifted by exactly k * one step, and the copies do not overlap.
  const int64_t step = exact_ns(grown.events[n].ts) - exact_ns(input.events[0].ts);
  int64_t first = INT64_MAX, end = INT64_MIN;
  for (const Event& event : input.events) {
    first = std::min(first, exact_ns(event.ts));
    end = std::max(end, exact_ns(event.ts) + (event.dur.empty() ? 0 : exact_ns(event.dur)));
  }
  EXPECT_GT(step, end - first);

  // Ids: one step per copy for every id field, so links between fields stay within a copy.
  int64_t id_step = 0;
  for (const auto& [field, id] : grown.events[n].ids) {
    id_step = id - input.events[0].ids.at(field);
    break;
  }
  ASSERT_GT(id_step, 0);
  std::map<std::string, std::set<int64_t>> seen;  // field -> ids in all copies
  size_t id_count = 0;
  for (size_t k = 0; k < 3; ++k) {
    for (size_t i = 0; i < n; ++i) {
      const Event& original = input.events[i];
      const Event& copy = grown.events[k * n + i];
      SCOPED_TRACE("copy " + std::to_string(k) + ", event " + std::to_string(i));
      if (k == 0) {
        EXPECT_EQ(copy.raw, original.raw);  // copy 0 is the input, byte for byte
      }
      EXPECT_EQ(exact_ns(copy.ts), exact_ns(original.ts) + static_cast<int64_t>(k) * step);
      EXPECT_EQ(copy.dur, original.dur);
      EXPECT_EQ(copy.ph, original.ph);
      if (original.name.rfind("ProfilerStep#", 0) != 0) {
        EXPECT_EQ(copy.name, original.name);
      }
      ASSERT_EQ(copy.ids.size(), original.ids.size());
      for (const auto& [field, id] : original.ids) {
        EXPECT_EQ(copy.ids.at(field), id + static_cast<int64_t>(k) * id_step) << field;
        ++id_count;
      }
      for (const auto& [field, id] : copy.ids) seen[field].insert(id);
    }
  }
  ASSERT_GT(id_count, 3 * n);
  // No id of one copy appears in another: each field has 3x its distinct values in the input.
  for (const auto& [field, ids] : seen) {
    std::set<int64_t> original;
    for (const Event& event : input.events) {
      if (event.ids.count(field)) original.insert(event.ids.at(field));
    }
    EXPECT_EQ(ids.size(), 3 * original.size()) << field;
  }

  // ProfilerStep#1, #2 become #4, #5 and #7, #8: fresh step numbers, in order.
  std::vector<std::string> steps;
  for (const Event& event : grown.events) {
    if (event.name.rfind("ProfilerStep#", 0) == 0) steps.push_back(event.name);
  }
  EXPECT_EQ(steps,
            (std::vector<std::string>{"ProfilerStep#1", "ProfilerStep#2", "ProfilerStep#4",
                                      "ProfilerStep#5", "ProfilerStep#7", "ProfilerStep#8"}));
}

TEST_F(GrowTraceTest, TargetBytesPicksTheNumberOfCopies) {
  const fs::path out = dir_ / "grown.json";
  ASSERT_EQ(grow(fmt::format("'{}' '{}' --target-bytes 2M", kFixture.string(), out.string())), 0)
      << log_;
  const uint64_t once = read_text(kFixture).size();
  EXPECT_GE(fs::file_size(out), uint64_t{2} << 20);
  EXPECT_LT(fs::file_size(out), (uint64_t{2} << 20) + once);
  EXPECT_EQ(parse_trace(out).events.size() % parse_trace(kFixture).events.size(), 0u);
}

TEST_F(GrowTraceTest, MissingInputFailsWithOneLine) {
  const fs::path out = dir_ / "grown.json";
  EXPECT_EQ(
      grow(fmt::format("'{}' '{}' --repeat 2", (dir_ / "missing.json.gz").string(), out.string())),
      1);
  EXPECT_NE(log_.find("no such file"), std::string::npos) << log_;
  EXPECT_EQ(std::count(log_.begin(), log_.end(), '\n'), 1) << log_;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_FALSE(fs::exists(dir_ / "grown.json.tmp"));
}

}  // namespace
}  // namespace attnprof
