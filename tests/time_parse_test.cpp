#include "reader/time_parse.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace attnprof {
namespace {

TEST(MicrosecondsTextToNs, KeepsNanosecondsOfLargeTimestampsExactly) {
  // A double would lose the last digit of this real Kineto timestamp.
  EXPECT_EQ(microseconds_text_to_ns("5145954783975.973"), 5145954783975973);
  EXPECT_EQ(microseconds_text_to_ns("5145954783975.973 "), 5145954783975973);
  EXPECT_EQ(microseconds_text_to_ns("0.768"), 768);
  EXPECT_EQ(microseconds_text_to_ns("2471.802"), 2471802);
  EXPECT_EQ(microseconds_text_to_ns("12"), 12000);
  EXPECT_EQ(microseconds_text_to_ns("1.5"), 1500);
  EXPECT_EQ(microseconds_text_to_ns("-3.25"), -3250);
}

TEST(MicrosecondsTextToNs, RoundsSubNanosecondDigits) {
  EXPECT_EQ(microseconds_text_to_ns("1.0004"), 1000);
  EXPECT_EQ(microseconds_text_to_ns("1.0005"), 1001);
  EXPECT_EQ(microseconds_text_to_ns("1.000999999"), 1001);
}

TEST(MicrosecondsTextToNs, AcceptsExponents) {
  EXPECT_EQ(microseconds_text_to_ns("1.5e3"), 1500000);
  EXPECT_EQ(microseconds_text_to_ns("2E-3"), 2);
}

TEST(MicrosecondsTextToNs, RejectsWhatIsNotANumber) {
  EXPECT_EQ(microseconds_text_to_ns(""), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("abc"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("1."), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("1.2.3"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("-"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("99999999999999999999"), std::nullopt);  // overflows int64 ns
}

TEST(MicrosecondsTextToNs, RejectsFractionsPastInt64) {
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.807"), kMax);
  EXPECT_EQ(microseconds_text_to_ns("-9223372036854775.807"), -kMax);
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.808"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.8065"), kMax);          // rounds up to it
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.8075"), std::nullopt);  // rounds past
  EXPECT_EQ(microseconds_text_to_ns("9223372036854775.999"), std::nullopt);
}

}  // namespace
}  // namespace attnprof
