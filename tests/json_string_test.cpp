// append_json_string finds the runs that need no escape eight bytes at a time
// (render/json_writer.cpp): every byte that needs one is found wherever it falls in a word.
#include <gtest/gtest.h>

#include <string>

#include "render/json_writer.h"

namespace attnprof {
namespace {

std::string json_string(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

// Each byte (or sequence) that needs more than a copy, alone and then at every offset inside
// plain text of every length: the plain text is copied around it, and it is written as it is
// alone.
TEST(JsonString, EveryEscapeIsFoundAtEveryOffsetInAWord) {
  const std::string specials[] = {
      "\"",   "\\",   "\n",   "\r",       "\t",           std::string(1, '\0'),
      "\x01", "\x1f", "\x7f", "\xc3\xa9", "\xe2\x82\xac", "\xc2\x85",
      "\xff", "\x80"};
  for (const std::string& special : specials) {
    const std::string alone = json_string(special);
    const std::string escaped = alone.substr(1, alone.size() - 2);
    ASSERT_NE(escaped, "") << special;
    for (size_t before = 0; before < 20; ++before) {
      for (size_t after = 0; after < 12; ++after) {
        const std::string prefix(before, 'a'), suffix(after, ' ');
        EXPECT_EQ(json_string(prefix + special + suffix), '"' + prefix + escaped + suffix + '"')
            << "special " << static_cast<int>(static_cast<unsigned char>(special[0])) << " after "
            << before << " bytes";
      }
    }
  }
  // The bytes next to the escapes' ranges need none: '#' (0x23) and ']' (0x5d) beside the quote
  // and the backslash, the space (0x20) and '~' (0x7e) at the ends of printable ASCII.
  const std::string plain = "# ] ~ !a[b^c_`{|}0123456789 #]~";
  EXPECT_EQ(json_string(plain), '"' + plain + '"');
}

}  // namespace
}  // namespace attnprof
