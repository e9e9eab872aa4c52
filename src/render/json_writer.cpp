#include "render/json_writer.h"

#include <cmath>
#include <cstdint>
#include <cstring>

#include <fmt/compile.h>
#include <fmt/format.h>

#include "render/display_text.h"

namespace attnprof {

namespace {

// Whether any of the eight bytes of `w` needs more than a copy in a JSON string: a control (below
// 0x20), DEL or a byte of a multi-byte sequence (0x7f and up), a quote or a backslash. Each test
// is exact for "any byte": a borrow or a carry only leaves a byte that matches itself.
bool any_needs_escape(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101, kHigh = 0x8080808080808080;
  auto any_zero = [&](uint64_t v) { return (v - kOnes) & ~v & kHigh; };
  const uint64_t control = (w - kOnes * 0x20) & ~w & kHigh;
  const uint64_t high = (w | (w + kOnes)) & kHigh;
  return (control | high | any_zero(w ^ (kOnes * '"')) | any_zero(w ^ (kOnes * '\\'))) != 0;
}

}  // namespace

void append_json_string(std::string& out, std::string_view s) {
  out.reserve(out.size() + s.size() + 2);
  out += '"';
  for (size_t at = 0; at < s.size();) {
    // A run of printable ASCII that needs no escape, the common case (kernel names run to
    // kilobytes), copied at once rather than a character at a time; found eight bytes at a time
    // (a byte at a time is 13 % of analyze --format json's instructions, docs/PERFORMANCE.md), then
    // byte by byte up to the first that needs an escape.
    size_t run = at;
    uint64_t w;
    for (; run + 8 <= s.size(); run += 8) {
      std::memcpy(&w, s.data() + run, 8);
      if (any_needs_escape(w)) break;
    }
    // Fewer than eight bytes left: the last eight of the text, read again in part, tell at once
    // whether they are plain (most keys and names end so).
    if (run < s.size() && run + 8 > s.size() && s.size() - at >= 8) {
      std::memcpy(&w, s.data() + s.size() - 8, 8);
      if (!any_needs_escape(w)) run = s.size();
    }
    while (run < s.size()) {
      const auto b = static_cast<unsigned char>(s[run]);
      if (b < 0x20 || b >= 0x7f || b == '"' || b == '\\') break;
      ++run;
    }
    if (run > at) {
      out.append(s, at, run - at);
      at = run;
      continue;
    }
    const auto c = static_cast<unsigned char>(s[at]);
    const size_t length = utf8_length(s, at);
    if (length == 0) {
      // Not UTF-8 (a file name can be any bytes; simdjson checked the trace's strings): JSON
      // must be UTF-8, so the byte becomes U+FFFD, as a decoder would show it.
      out += "\\ufffd";
      ++at;
      continue;
    }
    if (length == 2 && c == 0xc2 && static_cast<unsigned char>(s[at + 1]) < 0xa0) {
      // A C1 control, which some terminals obey: escaped, so that `cat` of the output is safe.
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", static_cast<unsigned char>(s[at + 1]));
      at += 2;
      continue;
    }
    at += length;
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20 || c == 0x7f)
          fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
        else
          out.append(s, at - length, length);
    }
  }
  out += '"';
}

void JsonWriter::newline() {
  if (compact_) return;
  out_ += '\n';
  out_.append(2 * has_items_.size(), ' ');
}

void JsonWriter::value_prefix() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!has_items_.empty()) {
    if (has_items_.back()) out_ += ',';
    has_items_.back() = true;
    newline();
  }
}

JsonWriter& JsonWriter::open(char bracket) {
  value_prefix();
  out_ += bracket;
  has_items_.push_back(false);
  return written();
}

JsonWriter& JsonWriter::close(char bracket) {
  bool had_items = has_items_.back();
  has_items_.pop_back();
  if (had_items) newline();
  out_ += bracket;
  return written();
}

JsonWriter& JsonWriter::key(std::string_view k) {
  value_prefix();
  append_json_string(out_, k);
  out_ += compact_ ? ":" : ": ";
  after_key_ = true;
  return *this;
}

JsonWriter& JsonWriter::string(std::string_view s) {
  value_prefix();
  append_json_string(out_, s);
  return written();
}

JsonWriter& JsonWriter::number(double v) {
  value_prefix();
  if (!std::isfinite(v)) {
    out_ += "null";
  } else {
    // fmt's shortest form, written into a buffer on the stack with the format compiled: a string
    // made per number (fmt::format) costs 6 % of `analyze --format json`'s instructions, half a
    // million numbers on a 716-step trace (docs/PERFORMANCE.md). The shortest form of a finite
    // double is at most 24 bytes ("-2.2250738585072014e-308"); format_to_n's bounds check per
    // byte cost more than the string did.
    char text[32];
    const char* end = fmt::format_to(text, FMT_COMPILE("{}"), v);
    out_.append(text, static_cast<size_t>(end - text));
  }
  return written();
}

JsonWriter& JsonWriter::raw_number(std::string_view text) {
  value_prefix();
  out_ += text;
  return written();
}

JsonWriter& JsonWriter::boolean(bool v) {
  value_prefix();
  out_ += v ? "true" : "false";
  return written();
}

JsonWriter& JsonWriter::null() {
  value_prefix();
  out_ += "null";
  return written();
}

JsonWriter& JsonWriter::text(std::string_view raw) {
  out_ += raw;
  return written();
}

JsonWriter::JsonWriter(std::FILE* sink)
    : sink_([sink](std::string_view bytes) {
        return std::fwrite(bytes.data(), 1, bytes.size(), sink) == bytes.size();
      }) {}

bool JsonWriter::flush() {
  if (!sink_) return true;
  if (!out_.empty() && !sink_(out_)) sink_failed_ = true;
  out_.clear();
  return !sink_failed_;
}

}  // namespace attnprof
