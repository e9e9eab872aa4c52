#include "reader/time_parse.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>

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

// The exact value of "[-]<int>[.<fraction>]" in ns, rounded half away from zero, by schoolbook
// arithmetic on 128 bits; nothing past int64.
std::optional<int64_t> reference_ns(const std::string& sign, const std::string& whole,
                                    const std::string& fraction) {
  __int128 ns = 0;
  for (char c : whole) ns = ns * 10 + (c - '0');
  ns *= 1000;
  for (size_t i = 0, scale = 100; i < 3; ++i, scale /= 10)
    ns += (i < fraction.size() ? fraction[i] - '0' : 0) * static_cast<int>(scale);
  if (fraction.size() > 3 && fraction[3] >= '5') ++ns;
  if (ns > std::numeric_limits<int64_t>::max()) return std::nullopt;
  return sign.empty() ? static_cast<int64_t>(ns) : -static_cast<int64_t>(ns);
}

// Kineto's three decimals are read sixteen digits at a time (reader/time_parse.cpp): every length
// of the whole part, with and without the point, other fraction lengths, a sign, trailing space
// and a stray byte in place of a digit agree with the schoolbook value, or are refused.
TEST(MicrosecondsTextToNs, EveryLengthAgreesWithSchoolbookArithmetic) {
  std::mt19937_64 random(20261203);
  auto digits = [&](size_t n) {
    std::string s;
    for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + random() % 10);
    return s;
  };
  for (int round = 0; round < 200000; ++round) {
    const size_t whole_digits = 1 + random() % 19;
    const size_t fraction_digits = random() % 3 == 0 ? random() % 7 : 3;
    const std::string sign = random() % 8 == 0 ? "-" : "";
    const std::string whole = digits(whole_digits), fraction = digits(fraction_digits);
    std::string text = sign + whole + (fraction_digits ? "." + fraction : "");
    if (random() % 8 == 0) text += "  ";
    const std::optional<int64_t> expected = reference_ns(sign, whole, fraction);
    ASSERT_EQ(microseconds_text_to_ns(text), expected) << text;
    // One byte that is no digit, in place of any digit, is refused.
    std::string stray = text;
    size_t at = random() % stray.size();
    if (stray[at] >= '0' && stray[at] <= '9') {
      stray[at] = "/:a"[random() % 3];
      ASSERT_EQ(microseconds_text_to_ns(stray), std::nullopt) << stray;
    }
  }
}

}  // namespace
}  // namespace attnprof
