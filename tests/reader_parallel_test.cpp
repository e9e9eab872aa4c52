// The reader parses events on several threads: the Trace must not depend on how many, on where
// the batches were cut, or on which thread parsed which batch. Traces are read with 1 to 5
// workers and compared table by table; the text is made to trip the quick cut (names holding
// `}, {`), to hold events larger than a chunk, text thread ids, values too wide for the reader's
// compact rows, and diagnostics of every kind spread over many batches.
// Also: the pieces under it (string pool, row blocks, the nearly-sorted sort, the time parser's
// fast path).

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "model/row_blocks.h"
#include "model/sorted_runs.h"
#include "model/string_pool.h"
#include "reader/read_trace.h"
#include "reader/time_parse.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::TempFile;

Trace read_with(const std::string& path, size_t workers) {
  auto t = read_trace(path, Limits{}, {}, workers);
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
}

// Every field of every table, the strings behind the ids, the links and the diagnostics.
void expect_same(const Trace& a, const Trace& b) {
  ASSERT_EQ(a.strings.size(), b.strings.size());
  for (StringId i = 0; i < a.strings.size(); ++i)
    ASSERT_EQ(a.strings.view(i), b.strings.view(i)) << i;
  ASSERT_EQ(a.host_events.size(), b.host_events.size());
  for (size_t i = 0; i < a.host_events.size(); ++i) {
    const HostEvent &x = a.host_events[i], &y = b.host_events[i];
    ASSERT_TRUE(x.start_ns == y.start_ns && x.dur_ns == y.dur_ns &&
                x.external_id == y.external_id && x.correlation == y.correlation &&
                x.pid == y.pid && x.tid == y.tid && x.name == y.name && x.kind == y.kind)
        << "host event " << i;
  }
  ASSERT_EQ(a.gpu_activities.size(), b.gpu_activities.size());
  for (size_t i = 0; i < a.gpu_activities.size(); ++i) {
    const GpuActivity &x = a.gpu_activities[i], &y = b.gpu_activities[i];
    ASSERT_TRUE(
        x.start_ns == y.start_ns && x.dur_ns == y.dur_ns && x.correlation == y.correlation &&
        x.external_id == y.external_id && x.bytes == y.bytes && x.name == y.name &&
        x.kind == y.kind && x.device == y.device && x.stream == y.stream && x.grid == y.grid &&
        x.block == y.block && x.registers_per_thread == y.registers_per_thread &&
        x.shared_memory == y.shared_memory && x.kineto_occupancy_pct == y.kineto_occupancy_pct)
        << "GPU activity " << i;
  }
  ASSERT_EQ(a.instants.size(), b.instants.size());
  for (size_t i = 0; i < a.instants.size(); ++i) {
    const InstantEvent &x = a.instants[i], &y = b.instants[i];
    ASSERT_TRUE(x.ts_ns == y.ts_ns && x.pid == y.pid && x.tid == y.tid && x.name == y.name &&
                x.bytes == y.bytes && x.total_allocated == y.total_allocated &&
                x.device == y.device)
        << "instant " << i;
  }
  ASSERT_EQ(a.flows.size(), b.flows.size());
  for (size_t i = 0; i < a.flows.size(); ++i) {
    const FlowEvent &x = a.flows[i], &y = b.flows[i];
    ASSERT_TRUE(x.id == y.id && x.ts_ns == y.ts_ns && x.pid == y.pid && x.tid == y.tid &&
                x.category == y.category && x.phase == y.phase)
        << "flow " << i;
  }
  ASSERT_EQ(a.thread_names.size(), b.thread_names.size());
  for (size_t i = 0; i < a.thread_names.size(); ++i) {
    const ThreadName &x = a.thread_names[i], &y = b.thread_names[i];
    ASSERT_TRUE(x.pid == y.pid && x.tid == y.tid && x.name == y.name &&
                x.is_process == y.is_process)
        << "thread name " << i;
  }
  EXPECT_EQ(a.host_parent, b.host_parent);
  EXPECT_EQ(a.activity_launch, b.activity_launch);
  EXPECT_EQ(a.activity_op, b.activity_op);
  EXPECT_EQ(a.events_read, b.events_read);
  EXPECT_EQ(a.json_bytes, b.json_bytes);
  EXPECT_EQ(a.devices.size(), b.devices.size());
  EXPECT_EQ(a.trace_name, b.trace_name);
  for (size_t k = 0; k < static_cast<size_t>(DiagnosticKind::kCount); ++k)
    EXPECT_EQ(a.diagnostics.count(static_cast<DiagnosticKind>(k)),
              b.diagnostics.count(static_cast<DiagnosticKind>(k)));
  ASSERT_EQ(a.diagnostics.first().size(), b.diagnostics.first().size());
  for (size_t i = 0; i < a.diagnostics.first().size(); ++i) {
    const Diagnostic &x = a.diagnostics.first()[i], &y = b.diagnostics.first()[i];
    EXPECT_TRUE(x.kind == y.kind && x.byte_offset == y.byte_offset && x.detail == y.detail)
        << "diagnostic " << i << ": " << x.detail << " / " << y.detail;
  }
}

// About `bytes` of trace text mixing every kind of event and every oddity the reader handles.
std::string awkward_trace(size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  auto pick = [&](int n) { return static_cast<int>(random() % n); };
  std::string json =
      "{\"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\", "
      "\"numSms\": 132}], \"traceEvents\": [\n";
  int64_t ts = 1000000;
  int correlation = 1;
  bool first = true;
  auto add = [&](const std::string& event) {
    if (!first) json += pick(2) ? ",\n  " : ",";
    first = false;
    json += event;
  };
  auto name = [&](int i) {
    std::string n = "op" + std::to_string(i % 97);
    switch (pick(9)) {
      case 0:
        n += "}, {\\\"ph\\\": \\\"X\\\"}, {";
        break;  // a quick cut falls in here
      case 1:
        n += "},{";
        break;
      case 2:
        n += "\\\\";
        break;
      case 3:
        n += "\\u00e9";
        break;
      default:
        break;
    }
    return n;
  };
  auto time = [&](int64_t ns) {
    return std::to_string(ns / 1000) + "." + std::to_string(1000 + ns % 1000).substr(1);
  };
  for (int i = 0; json.size() < bytes; ++i) {
    ts += 1 + pick(5000);
    std::string pid = pick(50) == 0 ? "\"Spans\"" : (pick(40) == 0 ? "-3" : "100");
    std::string tid = pick(30) == 0 ? "\"Traces\"" : std::to_string(100 + pick(4));
    switch (pick(12)) {
      case 0:
      case 1:
      case 2: {
        int64_t dur = pick(100) == 0 ? int64_t{5000000000000} : 100 + pick(100000);  // wide
        int64_t ext = pick(100) == 0 ? int64_t{1} << 40 : i;                         // wide
        add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" + name(i) + "\", \"pid\": " + pid +
            ", \"tid\": " + tid + ", \"ts\": " + time(ts) + ", \"dur\": " + time(dur) +
            ", \"args\": {\"External id\": " + std::to_string(ext) +
            ", \"Input Dims\": [[8, 1024], [], [3]], \"Concrete Inputs\": [\"\", \"}, {\"]}}");
        break;
      }
      case 3:
        add("{\"ph\": \"X\", \"cat\": \"python_function\", \"name\": \"" + name(i) +
            "\", \"pid\": " + pid + ", \"tid\": " + tid + ", \"ts\": " + time(ts) + ", \"dur\": " +
            time(10 + pick(9000)) + ", \"args\": {\"Python id\": " + std::to_string(i) + "}}");
        break;
      case 4: {
        int c = correlation++;
        add("{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", \"pid\": "
            "100, "
            "\"tid\": 101, \"ts\": " +
            time(ts) + ", \"dur\": 4.5, \"args\": {\"External id\": " + std::to_string(i) +
            ", \"correlation\": " + std::to_string(c) + "}}");
        add("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"kernel_" + std::to_string(c % 13) +
            "\", \"pid\": 0, \"tid\": 7, \"ts\": " + time(ts + 9000) +
            ", \"dur\": 3.25, "
            "\"args\": {\"External id\": " +
            std::to_string(i) + ", \"correlation\": " + std::to_string(c) +
            ", \"device\": 0, \"stream\": 7, \"grid\": [" + std::to_string(1 + pick(9)) +
            ", 1, 1], \"block\": [128, 1, 1], "
            "\"registers per thread\": 32, \"shared memory\": 0, \"est. achieved occupancy %\": "
            "50}}");
        break;
      }
      case 5:
        add("{\"ph\": \"i\", \"cat\": \"cpu_instant_event\", \"s\": \"t\", \"name\": \"[memory]\", "
            "\"pid\": " +
            pid + ", \"tid\": " + tid + ", \"ts\": " + time(ts) +
            ", \"args\": {\"Total Reserved\": 0, \"Total Allocated\": " + std::to_string(i) +
            ", \"Bytes\": " + std::to_string(512 - pick(1024)) + ", \"Device Id\": 0}}");
        break;
      case 6:
        add("{\"ph\": \"" + std::string(pick(2) ? "s" : "f") +
            "\", \"id\": " + std::to_string(i / 2) + ", \"pid\": " + pid + ", \"tid\": " + tid +
            ", \"ts\": " + time(ts) + ", \"cat\": \"fwdbwd\", \"name\": \"fwdbwd\"}");
        break;
      case 7:
        add("{\"name\": \"thread_name\", \"ph\": \"M\", \"ts\": 0, \"pid\": " + pid +
            ", \"tid\": " + tid + ", \"args\": {\"name\": \"thread " + std::to_string(i) + "\"}}");
        break;
      case 8:  // diagnostics of several kinds, in every batch
        switch (pick(5)) {
          case 0:
            add("{\"ph\": \"X\", \"cat\": \"mystery\", \"name\": \"m" + std::to_string(i) +
                "\", \"ts\": 1, \"dur\": 1}");
            break;
          case 1:
            add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"neg" + std::to_string(i) +
                "\", \"ts\": 5, \"dur\": -1}");
            break;
          case 2:
            add("{\"ph\": \"Q\", \"name\": \"q\"}");
            break;
          case 3:
            add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 5, \"dur\": 1}");
            break;
          default:
            add("[1, 2]");
            break;
        }
        break;
      case 9:
        if (pick(400) == 0) {  // larger than a chunk
          add("{\"ph\": \"X\", \"cat\": \"cpu_op\", \"name\": \"" +
              std::string((1 << 20) + pick(1000), 'k') +
              "\", \"pid\": 100, \"tid\": 100, \"ts\": " + time(ts) + ", \"dur\": 1}");
          break;
        }
        [[fallthrough]];
      default:
        add("{\n    \"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#" +
            std::to_string(i % 5) + "\", \"pid\": 100, \"tid\": 100,\n    \"ts\": " + time(ts) +
            ", \"dur\": " + time(100000) + "\n  }");
    }
  }
  json += "\n], \"traceName\": \"awkward\"}";
  return json;
}

TEST(ReaderParallel, TheTraceDoesNotDependOnTheNumberOfWorkers) {
  for (unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE(seed);
    TempFile file("awkward.json", awkward_trace(size_t{7} << 20, seed));
    Trace one = read_with(file.path(), 1);
    EXPECT_GT(one.host_events.size(), 10000u);
    EXPECT_GT(one.diagnostics.total(), 100u);
    for (size_t workers : {2u, 3u, 5u}) {
      SCOPED_TRACE(workers);
      expect_same(one, read_with(file.path(), workers));
    }
  }
}

TEST(ReaderParallel, GzipAndPlainTextGiveTheSameTrace) {
  auto plain_text = testing::run_command("zcat " + testing::fixture("train_step.json.gz")).output;
  TempFile plain("train_step.json", plain_text);
  expect_same(read_with(testing::fixture("train_step.json.gz"), 2), read_with(plain.path(), 2));
}

TEST(ReaderParallel, ErrorsAreThoseOfOneWorker) {
  std::string good = awkward_trace(size_t{3} << 20, 9);
  size_t event = good.find("{\"ph\": \"X\", \"cat\": \"cpu_op\"", good.size() / 3);
  ASSERT_NE(event, std::string::npos);
  const std::vector<std::string> bad = {
      good.substr(0, good.size() / 2),                              // truncated
      good.substr(0, event) + "@" + good.substr(event),             // a stray byte
      good.substr(0, event) + "{\"ph\": }, " + good.substr(event),  // a broken event
      good.substr(0, good.size() - 40) + "]]}",                     // a broken end
  };
  for (size_t i = 0; i < bad.size(); ++i) {
    SCOPED_TRACE(i);
    TempFile file("bad.json", bad[i]);
    auto one = read_trace(file.path(), Limits{}, {}, 1);
    ASSERT_FALSE(one.ok());
    for (size_t workers : {2u, 4u}) {
      auto many = read_trace(file.path(), Limits{}, {}, workers);
      ASSERT_FALSE(many.ok());
      EXPECT_EQ(one.error().message, many.error().message);
    }
  }
}

TEST(StringPool, InternsAndForgets) {
  StringPool pool;
  EXPECT_EQ(pool.intern(""), StringPool::kEmpty);
  // Names alike in every byte the sampled hash reads: the pool must still tell them apart.
  std::vector<std::string> names;
  for (int i = 0; i < 3000; ++i) {
    std::string n(64, 'a');
    n[20 + i % 7] = static_cast<char>('A' + i % 26);
    n[40 + i / 26 % 5] = static_cast<char>('A' + i / 130 % 26);
    n[58] = static_cast<char>('0' + i % 10);
    names.push_back(n + std::to_string(i));
  }
  std::vector<StringId> ids;
  for (const auto& n : names) ids.push_back(pool.intern(n));
  for (size_t i = 0; i < names.size(); ++i) {
    EXPECT_EQ(pool.intern(names[i]), ids[i]);
    EXPECT_EQ(pool.view(ids[i]), names[i]);
  }
  pool.truncate(1001);
  EXPECT_EQ(pool.size(), 1001u);
  EXPECT_EQ(pool.intern(names[999]), ids[999]);
  EXPECT_EQ(pool.intern(names[2000]), 1001u);  // forgotten, so new
}

TEST(RowBlocks, GrowsTruncatesAndReleases) {
  RowBlocks<int64_t> rows;
  const size_t n = 3 * RowBlocks<int64_t>::kRowsPerBlock + 17;
  for (size_t i = 0; i < n; ++i) rows.push_back(static_cast<int64_t>(i));
  rows.truncate(RowBlocks<int64_t>::kRowsPerBlock);
  for (size_t i = rows.size(); i < n; ++i) rows.push_back(-static_cast<int64_t>(i));
  int64_t sum = 0;
  rows.for_each_span(RowBlocks<int64_t>::kRowsPerBlock - 1, RowBlocks<int64_t>::kRowsPerBlock + 2,
                     [&](const int64_t* r, size_t count) {
                       for (size_t i = 0; i < count; ++i) sum += r[i];
                     });
  const auto k = static_cast<int64_t>(RowBlocks<int64_t>::kRowsPerBlock);
  EXPECT_EQ(sum, (k - 1) - k - (k + 1));
  rows.release_before(2 * RowBlocks<int64_t>::kRowsPerBlock);
  std::vector<int64_t> tail;
  rows.for_each_span(n - 2, n, [&](const int64_t* r, size_t count) { tail.assign(r, r + count); });
  EXPECT_EQ(tail,
            (std::vector<int64_t>{-static_cast<int64_t>(n - 2), -static_cast<int64_t>(n - 1)}));
}

TEST(StableSortRuns, SortsLikeStableSort) {
  std::mt19937 random(5);
  for (int shape = 0; shape < 4; ++shape) {
    std::vector<std::pair<int, int>> v;  // (key, original position)
    for (int i = 0; i < 20000; ++i) {
      int key = shape == 0 ? i : shape == 1 ? i % 3000 : shape == 2 ? int(random() % 50) : i / 7;
      v.push_back({key, i});
    }
    if (shape == 3) std::reverse(v.begin() + 5000, v.begin() + 5100);
    auto expected = v;
    auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    std::stable_sort(expected.begin(), expected.end(), by_key);
    stable_sort_runs(v.begin(), v.end(), by_key);
    EXPECT_EQ(v, expected) << shape;
  }
}

TEST(MicrosecondsTextToNs, FastAndGeneralPathsAgree) {
  EXPECT_EQ(microseconds_text_to_ns("999999999999999.999"), 999999999999999999);  // 15 digits
  EXPECT_EQ(microseconds_text_to_ns("9999999999999999.999"), std::nullopt);       // overflows
  EXPECT_EQ(microseconds_text_to_ns("1234567890123456.5"), 1234567890123456500);  // 16 digits
  EXPECT_EQ(microseconds_text_to_ns("-0.0005"), -1);
  EXPECT_EQ(microseconds_text_to_ns("01.5"), 1500);
  EXPECT_EQ(microseconds_text_to_ns("7.1234999\n  "), 7123);
  EXPECT_EQ(microseconds_text_to_ns("7.12e1"), 71200);
  EXPECT_EQ(microseconds_text_to_ns("7.1x"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("-"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("5 5"), std::nullopt);
}

}  // namespace
}  // namespace attnprof
