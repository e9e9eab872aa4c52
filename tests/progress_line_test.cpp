// The progress line of reading traces (docs/ARCHITECTURE.md), driven by a fake clock: what it says,
// when it first appears, and that it leaves the terminal clean.

#include <gtest/gtest.h>

#include "render/analyze/analyze_progress_line.h"

namespace attnprof {
namespace {

ReadingTally eight_traces() {
  ReadingTally t;
  t.traces = 8;
  t.traces_done = 3;
  t.bytes_read = 1'200'000'000;
  t.bytes_total = 4'500'000'000;
  t.events_read = 6'200'000;
  return t;
}

TEST(ProgressLine, SaysTracesBytesAndRates) {
  // 1.2 GB in 2 s: 600 MB/s; 6.2 M events in 2 s: 3.1 M events/s; 1.2 of 4.5 is 26.7 %.
  EXPECT_EQ(format_progress_line(eight_traces(), 2.0),
            "reading 3/8 traces  1.2/4.5 GB (26%)  600 MB/s  3.1 M events/s");
}

TEST(ProgressLine, OneTraceIsNamed) {
  ReadingTally t;
  t.single_name = "gpt2_train.json.gz";
  t.bytes_read = 400'000'000;
  t.bytes_total = 1'100'000'000;
  t.events_read = 900'000;
  EXPECT_EQ(format_progress_line(t, 4.0),
            "reading gpt2_train.json.gz  0.4/1.1 GB (36%)  100 MB/s  225 k events/s");
}

TEST(ProgressLine, SmallRatesAndUnknownSizes) {
  ReadingTally t;
  t.traces = 2;
  t.traces_failed = 1;
  t.traces_done = 1;
  t.bytes_read = 2'500'000;  // from a pipe: no total
  t.events_read = 700;
  EXPECT_EQ(format_progress_line(t, 0.5),
            "reading 1/2 traces (1 failed)  2.5 MB  5.0 MB/s  1.4 k events/s");
  EXPECT_EQ(format_progress_line(t, 0),
            "reading 1/2 traces (1 failed)  2.5 MB  0.0 MB/s  0 events/s");
  t.events_read = 40;
  EXPECT_EQ(format_progress_line(t, 0.5),
            "reading 1/2 traces (1 failed)  2.5 MB  5.0 MB/s  80 events/s");
}

TEST(ProgressLine, NothingForTheFirstThreeTenthsOfASecond) {
  ProgressLine line;
  EXPECT_EQ(line.frame(eight_traces(), 0.0, 120), "");
  EXPECT_EQ(line.frame(eight_traces(), 0.29, 120), "");
  EXPECT_FALSE(line.drawn());
  EXPECT_EQ(line.erase(), "");  // nothing drawn, nothing to erase
  const std::string first = line.frame(eight_traces(), 0.3, 120);
  EXPECT_EQ(first, "\r\033[K" + format_progress_line(eight_traces(), 0.3));
  EXPECT_TRUE(line.drawn());
}

TEST(ProgressLine, RedrawnInPlaceThenErased) {
  ProgressLine line;
  ReadingTally t = eight_traces();
  ASSERT_FALSE(line.frame(t, 0.4, 120).empty());
  t.traces_done = 4;
  const std::string next = line.frame(t, 0.5, 120);
  EXPECT_EQ(next.substr(0, 4), "\r\033[K");
  EXPECT_NE(next.find("4/8 traces"), std::string::npos);
  EXPECT_EQ(next.find('\n'), std::string::npos);
  EXPECT_EQ(line.erase(), "\r\033[K");
  EXPECT_EQ(line.erase(), "");  // once
}

TEST(ProgressLine, CutToTheTerminalWidth) {
  ProgressLine line;
  const std::string frame = line.frame(eight_traces(), 1.0, 30);
  EXPECT_EQ(frame, "\r\033[K" + format_progress_line(eight_traces(), 1.0).substr(0, 29));
}

}  // namespace
}  // namespace attnprof
