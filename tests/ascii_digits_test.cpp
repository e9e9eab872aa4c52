#include "reader/ascii_digits.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

namespace attnprof {
namespace {

uint64_t word_of(const std::string& eight) {
  return ascii_digits::load8(eight.data());
}

// Every byte value, at every position, among digits: leading_digits stops exactly at the first
// byte that is no digit, and all_digits holds only where every byte is one.
TEST(AsciiDigits, EveryByteValueAtEveryPositionIsToldFromADigit) {
  for (int position = 0; position < 8; ++position) {
    for (int byte = 0; byte < 256; ++byte) {
      std::string text = "12345678";
      text[position] = static_cast<char>(byte);
      const bool digit = byte >= '0' && byte <= '9';
      const uint64_t w = word_of(text);
      EXPECT_EQ(ascii_digits::leading_digits(w), digit ? 8u : static_cast<unsigned>(position))
          << "byte " << byte << " at " << position;
      EXPECT_EQ(ascii_digits::all_digits(w), digit) << "byte " << byte << " at " << position;
    }
  }
}

// The value of the first `count` digits of a word, padded, against std::stoull, for random digits
// followed by random bytes (which must not count).
TEST(AsciiDigits, ValueOfTheFirstDigitsAgreesWithStoull) {
  std::mt19937_64 random(8);
  for (int round = 0; round < 100000; ++round) {
    const unsigned count = 1 + static_cast<unsigned>(random() % 8);
    std::string text;
    for (unsigned i = 0; i < 8; ++i)
      text += i < count ? static_cast<char>('0' + random() % 10) : static_cast<char>(random());
    const uint64_t padded = ascii_digits::padded(word_of(text), count);
    ASSERT_TRUE(ascii_digits::all_digits(padded)) << text.substr(0, count);
    ASSERT_EQ(ascii_digits::value(padded), std::stoull(text.substr(0, count)))
        << text.substr(0, count);
  }
  EXPECT_EQ(ascii_digits::value(word_of("99999999")), 99999999u);
  EXPECT_EQ(ascii_digits::value(word_of("00000000")), 0u);
  EXPECT_EQ(ascii_digits::value(word_of("10000001")), 10000001u);
}

}  // namespace
}  // namespace attnprof
