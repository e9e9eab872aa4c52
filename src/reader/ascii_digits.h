#pragma once
// Eight ASCII digits at a time, in one 64-bit word (SWAR): read a digit at a time, a multiply and
// an add per digit in one dependency chain, the reader's numbers (start times, durations, ids)
// take a tenth of analyze's CPU time (docs/PERFORMANCE.md, "Numbers eight digits at a time"). A
// word holds eight bytes read little-endian: its first byte is the text's first digit, the most
// significant.

#include <bit>
#include <cstdint>
#include <cstring>

namespace attnprof::ascii_digits {

inline uint64_t load8(const char* p) {
  uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}

// Whether all eight bytes are ASCII digits: each byte's high nibble is 3, and adding 6 leaves it
// 3 (the low nibble is at most 9).
inline bool all_digits(uint64_t w) {
  constexpr uint64_t kHigh = 0xF0F0F0F0F0F0F0F0;
  return ((w & kHigh) | (((w + 0x0606060606060606) & kHigh) >> 4)) == 0x3333333333333333;
}

// How many of the first bytes are ASCII digits (0 to 8). A byte XOR '0' is 0-9 for a digit; its
// low seven bits plus 0x76 reach bit 7 from 10 on, without a carry into the next byte, and a byte
// with bit 7 set is no digit either.
inline unsigned leading_digits(uint64_t w) {
  const uint64_t x = w ^ 0x3030303030303030;
  const uint64_t not_digit =
      (((x & 0x7F7F7F7F7F7F7F7F) + 0x7676767676767676) | x) & 0x8080808080808080;
  return not_digit ? static_cast<unsigned>(std::countr_zero(not_digit)) / 8 : 8;
}

// The first `count` (1 to 8) bytes moved to the end of the word, '0's before them: eight digits
// with the same value.
inline uint64_t padded(uint64_t w, unsigned count) {
  const unsigned pad = 8 * (8 - count);
  return pad ? w << pad | 0x3030303030303030 >> (64 - pad) : w;
}

// The value of eight ASCII digits: neighbours combined pairwise, two digits in each 16-bit lane,
// then four in each 32-bit lane, then eight; no lane overflows (99 < 2^8, 9999 < 2^16).
inline uint64_t value(uint64_t w) {
  w -= 0x3030303030303030;
  w = (w * 10 + (w >> 8)) & 0x00FF00FF00FF00FF;
  w = (w * 100 + (w >> 16)) & 0x0000FFFF0000FFFF;
  return (w & 0xFFFFFFFF) * 10000 + (w >> 32);
}

}  // namespace attnprof::ascii_digits
