#include "render/display_text.h"

#include <algorithm>

#include <fmt/format.h>

namespace attnprof {

size_t utf8_length(std::string_view text, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char b = byte(at);
  if (b < 0x80) return 1;
  if (b < 0xc2 || b > 0xf4) return 0;  // continuation bytes, overlong leads, beyond U+10FFFF
  const size_t length = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
  if (at + length > text.size()) return 0;
  for (size_t i = 1; i < length; ++i)
    if ((byte(at + i) & 0xc0) != 0x80) return 0;
  const unsigned char second = byte(at + 1);
  if (b == 0xe0 && second < 0xa0) return 0;   // overlong
  if (b == 0xed && second >= 0xa0) return 0;  // surrogates
  if (b == 0xf0 && second < 0x90) return 0;   // overlong
  if (b == 0xf4 && second >= 0x90) return 0;  // above U+10FFFF
  return length;
}

namespace {

// True for one UTF-8 character (its 3 bytes) that changes how the text around it displays or
// that XML forbids, so that escape_control writes its bytes as \xNN in every format: the
// bidirectional embeddings and overrides U+202A..U+202E and isolates U+2066..U+2069 (a kernel
// name that displays as another), the line and paragraph separators U+2028 and U+2029, and the
// non-characters U+FFFE and U+FFFF (a JUnit report with them is not XML 1.0).
bool is_hidden_format(std::string_view character) {
  if (character.size() != 3) return false;
  const auto b0 = static_cast<unsigned char>(character[0]);
  const auto b1 = static_cast<unsigned char>(character[1]);
  const auto b2 = static_cast<unsigned char>(character[2]);
  // U+2028 and U+2029 (line and paragraph separators), U+202A..U+202E (embeddings, overrides).
  if (b0 == 0xe2 && b1 == 0x80 && b2 >= 0xa8 && b2 <= 0xae) return true;
  // U+2066..U+2069 (isolates).
  if (b0 == 0xe2 && b1 == 0x81 && b2 >= 0xa6 && b2 <= 0xa9) return true;
  // U+FFFE and U+FFFF: non-characters that XML 1.0 forbids.
  return b0 == 0xef && b1 == 0xbf && (b2 == 0xbe || b2 == 0xbf);
}

// The length of the character at `at` when it is valid UTF-8 and no control; 0 when the byte
// must be escaped.
size_t printable_length(std::string_view text, size_t at) {
  const auto b = static_cast<unsigned char>(text[at]);
  if (b < 0x20 || b == 0x7f) return 0;  // C0 controls and DEL
  const size_t length = utf8_length(text, at);
  // C1 controls U+0080..U+009F: c2 80..c2 9f.
  if (length == 2 && b == 0xc2 && static_cast<unsigned char>(text[at + 1]) < 0xa0) return 0;
  if (length == 3 && is_hidden_format(text.substr(at, 3))) return 0;
  return length;
}

void append_escape(std::string& out, unsigned char b) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\x";
  out += kHex[b >> 4];
  out += kHex[b & 0xf];
}

}  // namespace

std::string escape_control(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t at = 0; at < text.size();) {
    if (const size_t length = printable_length(text, at)) {
      out.append(text, at, length);
      at += length;
    } else {
      append_escape(out, static_cast<unsigned char>(text[at++]));
    }
  }
  return out;
}

bool has_raw_control(std::string_view text, bool newlines_allowed) {
  for (size_t at = 0; at < text.size();) {
    if (newlines_allowed && text[at] == '\n') {
      ++at;
      continue;
    }
    const size_t length = printable_length(text, at);
    if (length == 0) return true;
    at += length;
  }
  return false;
}

namespace {

// The columns fmt gives `character` (one UTF-8 sequence) when it pads a field: 2 for East Asian
// wide and fullwidth characters and most emoji, 1 otherwise. Asking fmt itself keeps a clipped
// name and the padding after it in agreement, so the next column starts where it should.
size_t columns_of(std::string_view character) {
  if (character.size() == 1) return 1;
  constexpr size_t kField = 4;
  const size_t padded = fmt::formatted_size("{:<{}}", character, kField);
  return kField + character.size() - padded;
}

}  // namespace

size_t display_width(std::string_view text) {
  size_t columns = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t length = printable_length(text, at);
    columns += length ? columns_of(text.substr(at, length)) : 4;
    at += length ? length : 1;
  }
  return columns;
}

std::string clip(std::string_view text, size_t width) {
  std::string out;
  size_t columns = 0;
  size_t fits = 0;  // the bytes of `out` that leave room for "..."
  const size_t room = width > 3 ? width - 3 : 0;
  for (size_t at = 0; at < text.size();) {
    const size_t length = printable_length(text, at);
    // A character, or an escape \xNN.
    const size_t piece_columns = length ? columns_of(text.substr(at, length)) : 4;
    if (columns + piece_columns > width) {
      out.resize(fits);
      return out + std::string(std::min<size_t>(width, 3), '.');
    }
    if (length) {
      out.append(text, at, length);
      at += length;
    } else {
      append_escape(out, static_cast<unsigned char>(text[at++]));
    }
    columns += piece_columns;
    if (columns <= room) fits = out.size();
  }
  return out;
}

std::string markdown_cell(std::string_view text) {
  std::string out;
  for (char c : escape_control(text)) {
    if (c == '|')
      out += "\\|";
    else if (c == '\\')
      out += "\\\\";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '[' || c == ']' || c == '(' || c == ')' || c == '!' || c == '`')
      out += {'\\', c};  // no link, image or code span from a name, whatever the renderer
    else
      out += c;
  }
  return out;
}

std::string markdown_code(std::string_view text) {
  const std::string escaped = escape_control(text);
  size_t run = 0, longest = 0;
  for (char c : escaped) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  // A space keeps a backtick at either end from joining the fence (CommonMark strips one).
  const bool pad = !escaped.empty() && (escaped.front() == '`' || escaped.back() == '`');
  std::string out = fence + (pad ? " " : "");
  for (size_t i = 0; i < escaped.size(); ++i) {
    // GFM cuts table cells at each `|` not escaped by a backslash, even inside a code span, and
    // reads a backslash pair as one escape: a `\` right before a `|` is doubled so the `|` stays
    // escaped.
    if (escaped[i] == '|') out += '\\';
    if (escaped[i] == '\\' && i + 1 < escaped.size() && escaped[i + 1] == '|') out += '\\';
    out += escaped[i];
  }
  return out + (pad ? " " : "") + fence;
}

}  // namespace attnprof
