// Text fitted to a width (render/text_wrap.h): long lines wrap at spaces under their
// own indent, past a bullet; short lines, tables within the width and blank lines stay as they
// are; a word wider than the width is cut between characters, never inside a UTF-8 sequence.

#include "render/text_wrap.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "render/display_text.h"

namespace attnprof {
namespace {

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  size_t at = 0;
  for (size_t end; (end = text.find('\n', at)) != std::string::npos; at = end + 1)
    lines.push_back(text.substr(at, end - at));
  lines.push_back(text.substr(at));
  return lines;
}

TEST(TextWrap, ShortLinesAreLeftAsTheyAre) {
  const std::string text = "a table  with   aligned    columns\n\n  indented\n";
  EXPECT_EQ(wrap_text(text, 120), text);
}

TEST(TextWrap, AFindingWrapsUnderItsBullet) {
  const std::string finding =
      "  - naive: [hidden-copy] aten::masked_fill copies its input before writing (out of place): "
      "a device-to-device copy in 5 of 5 regions -> use the in-place masked_fill_";
  const std::string wrapped = wrap_text(finding + "\nnext", 60);
  const std::vector<std::string> lines = lines_of(wrapped);
  ASSERT_EQ(lines.size(), 4u) << wrapped;
  EXPECT_EQ(lines[0], "  - naive: [hidden-copy] aten::masked_fill copies its input");
  EXPECT_EQ(lines[1], "    before writing (out of place): a device-to-device copy");
  EXPECT_EQ(lines[2], "    in 5 of 5 regions -> use the in-place masked_fill_");
  EXPECT_EQ(lines[3], "next");
  // The words, in order, are all there: nothing lost or repeated.
  std::string joined;
  for (size_t i = 0; i < 3; ++i) {
    if (i > 0) joined += ' ';
    joined += lines[i].substr(lines[i].find_first_not_of(' '));
  }
  EXPECT_EQ(joined, finding.substr(2));
}

TEST(TextWrap, ALabelOrAnArrowKeepsItsTextInAColumn) {
  const std::string headline =
      "backward/            sdpa-cudnn is the fastest: 393.7 us GPU median per call (forward and "
      "backward), 12.2x faster than naive (4.80 ms).";
  EXPECT_EQ(wrap_text(headline, 80),
            "backward/            sdpa-cudnn is the fastest: 393.7 us GPU median per call\n"
            "                     (forward and backward), 12.2x faster than naive (4.80 ms).");
  EXPECT_EQ(
      wrap_text("      -> use the in-place form (aten::masked_fill_) when autograd is off and "
                "the input is not needed afterwards",
                60),
      "      -> use the in-place form (aten::masked_fill_) when\n"
      "         autograd is off and the input is not needed\n"
      "         afterwards");
}

TEST(TextWrap, ALongNameIsCutBetweenCharacters) {
  // 40 columns at least; a kernel name of 90 "µ" (two bytes each) is cut into pieces of whole
  // characters.
  std::string name;
  for (int i = 0; i < 90; ++i) name += "\xc2\xb5";
  const std::string wrapped = wrap_text("  " + name + " end", 40);
  for (const std::string& line : lines_of(wrapped)) {
    EXPECT_LE(display_width(line), 40u) << line;
    EXPECT_EQ(escape_control(line), line) << "a UTF-8 sequence was cut";
  }
  // 90 characters: 38 on the first line and the second (under its two spaces), 14 on the last.
  std::string last = "  ";
  for (int i = 0; i < 14; ++i) last += "\xc2\xb5";
  EXPECT_EQ(lines_of(wrapped).size(), 3u);
  EXPECT_EQ(lines_of(wrapped).back(), last + " end") << wrapped;
}

TEST(TextWrap, EveryLineFitsTheWidth) {
  std::string prose;
  for (int i = 0; i < 200; ++i) prose += "word" + std::to_string(i) + (i % 7 ? " " : "  ");
  for (size_t width : {40u, 80u, 120u})
    for (const std::string& line : lines_of(wrap_text(prose, width)))
      EXPECT_LE(display_width(line), width) << line;
}

}  // namespace
}  // namespace attnprof
