#include "render/text_wrap.h"

#include <algorithm>
#include <vector>

#include "render/display_text.h"

namespace attnprof {

namespace {

constexpr size_t kNarrowest = 40;

// The bytes of the first UTF-8 character of `text` (1 for a stray byte).
size_t character_length(std::string_view text) {
  const auto lead = static_cast<unsigned char>(text[0]);
  const size_t length = lead < 0x80    ? 1
                        : lead >= 0xF0 ? 4
                        : lead >= 0xE0 ? 3
                        : lead >= 0xC0 ? 2
                                       : 1;
  return std::min(length, text.size());
}

// The longest start of `word` that takes at most `columns` columns (at least one character).
size_t prefix_within(std::string_view word, size_t columns) {
  size_t bytes = 0, used = 0;
  while (bytes < word.size()) {
    const size_t length = character_length(word.substr(bytes));
    const size_t width = display_width(word.substr(bytes, length));
    if (bytes > 0 && used + width > columns) break;
    used += width;
    bytes += length;
  }
  return bytes;
}

void wrap_line(std::string_view line, size_t width, std::string& out) {
  const size_t text_start = std::min(line.find_first_not_of(' '), line.size());
  size_t hanging = text_start;
  const std::string_view body = line.substr(text_start);
  if (body.starts_with("- ") || body.starts_with("* ")) {
    hanging += 2;
  } else if (body.starts_with("-> ")) {
    hanging += 3;
  } else if (const size_t gap = body.find("  "); gap != std::string_view::npos && gap > 0) {
    // A label and its text, as a headline's "backward/            sdpa-cudnn is ...": the text
    // goes on under itself.
    const size_t text = body.find_first_not_of(' ', gap);
    if (text != std::string_view::npos) hanging += text;
  }
  // A continuation keeps at least half the width for its text.
  const std::string indent(std::min(hanging, width / 2), ' ');

  std::vector<std::string_view> words;  // the spaces between them are one each, or empty words
  for (size_t at = text_start; at <= line.size();) {
    const size_t end = std::min(line.find(' ', at), line.size());
    words.push_back(line.substr(at, end - at));
    at = end + 1;
  }
  std::string current(line.substr(0, text_start));
  size_t columns = text_start;
  bool has_text = false;   // a word was put on the current line
  bool continued = false;  // the current line is a continuation
  auto finish = [&] {
    current.erase(current.find_last_not_of(' ') + 1);
    out += current;
    out += '\n';
    current = indent;
    columns = indent.size();
    has_text = false;
    continued = true;
  };
  for (std::string_view word : words) {
    if (word.empty() && continued && !has_text) continue;  // no spaces open a continuation
    // The word's width is counted once and what each cut takes is subtracted: counting the rest
    // anew at every cut made a 1 MB name (one word) take 13 s, its length squared over the width
    // (tests/hostile_input_test.cpp, AMegabyteWordWrapsInLinearTime).
    size_t word_columns = display_width(word);
    if (has_text && columns + 1 + word_columns > width) finish();
    if (has_text) {
      current += ' ';
      ++columns;
    }
    // A word wider than the room left: cut between characters, the rest on the next lines.
    while (!word.empty() && columns + word_columns > width) {
      if (columns >= width) {
        finish();
        continue;
      }
      const size_t cut = prefix_within(word, width - columns);
      const size_t cut_columns = display_width(word.substr(0, cut));
      current.append(word.substr(0, cut));
      columns += cut_columns;
      word_columns -= std::min(word_columns, cut_columns);
      word.remove_prefix(cut);
      has_text = true;
      if (!word.empty()) finish();
    }
    current.append(word);
    columns += word.empty() ? 0 : word_columns;
    has_text = has_text || !word.empty();
  }
  current.erase(current.find_last_not_of(' ') + 1);
  out += current;
}

}  // namespace

std::string wrap_text(std::string_view text, size_t width) {
  width = std::max(width, kNarrowest);
  std::string out;
  out.reserve(text.size() + text.size() / 16);
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    const std::string_view line = text.substr(at, end - at);
    if (display_width(line) <= width)
      out += line;
    else
      wrap_line(line, width, out);
    if (end < text.size()) out += '\n';
    at = end + 1;
  }
  return out;
}

}  // namespace attnprof
