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
#include "model/small_first_rows.h"
#include "model/sorted_runs.h"
#include "model/string_pool.h"
#include "reader/read_trace.h"
#include "reader/time_parse.h"
#include "reader_test_traces.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::awkward_trace;
using testing::expect_same;
using testing::TempFile;

Trace read_with(const std::string& path, size_t workers) {
  auto t = read_trace(path, testing::awkward_trace_limits(), {}, workers);
  if (!t.ok()) throw std::runtime_error(t.error().message);
  return std::move(t).value();
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

// A decode step recorded with shapes (examples/h200-study/decode): each op's recorded inputs, the
// same whatever the workers (their attention rows: op_arguments_test).
TEST(ReaderParallel, RecordedInputsOfADecodeStep) {
  const std::string path =
      std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/decode/traces/naive.json.gz";
  Trace one = read_with(path, 1);
  EXPECT_GT(one.op_input_texts.size(), 10u);
  expect_same(one, read_with(path, 3));
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
    auto one = read_trace(file.path(), testing::awkward_trace_limits(), {}, 1);
    ASSERT_FALSE(one.ok());
    for (size_t workers : {2u, 4u}) {
      auto many = read_trace(file.path(), testing::awkward_trace_limits(), {}, workers);
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

// A thread's rows: the head in the heap, the rest in blocks; a rollback may cut either part, and
// a span that crosses from the head into the blocks comes in two pieces.
TEST(SmallFirstRows, GrowsTruncatesAndReleasesAcrossTheHead) {
  using Rows = SmallFirstRows<int64_t>;
  const size_t head = Rows::kHeadRows;
  Rows rows;
  for (size_t i = 0; i < head + 100; ++i) rows.push_back(static_cast<int64_t>(i));
  EXPECT_EQ(rows.size(), head + 100);
  rows.truncate(head + 50);  // inside the blocks
  EXPECT_EQ(rows.size(), head + 50);
  rows.truncate(head - 10);  // back into the head: the blocks hold nothing
  EXPECT_EQ(rows.size(), head - 10);
  for (size_t i = rows.size(); i < head + 20; ++i) rows.push_back(-static_cast<int64_t>(i));
  std::vector<int64_t> seen;
  size_t spans = 0;
  rows.for_each_span(head - 12, head + 2, [&](const int64_t* r, size_t count) {
    seen.insert(seen.end(), r, r + count);
    ++spans;
  });
  EXPECT_EQ(spans, 2u);
  std::vector<int64_t> expected;
  for (size_t i = head - 12; i < head + 2; ++i)
    expected.push_back(i < head - 10 ? static_cast<int64_t>(i) : -static_cast<int64_t>(i));
  EXPECT_EQ(seen, expected);
  rows.release_before(head + 5);  // the head has been copied out; the rows stay counted
  EXPECT_EQ(rows.size(), head + 20);
  std::vector<int64_t> last;
  rows.for_each_span(head + 18, head + 20,
                     [&](const int64_t* r, size_t count) { last.assign(r, r + count); });
  EXPECT_EQ(last, (std::vector<int64_t>{-static_cast<int64_t>(head + 18),
                                        -static_cast<int64_t>(head + 19)}));
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
