#pragma once
// A small streaming JSON writer: correct escaping and commas, two-space indentation. The bench's
// summary.json and analyze's JSON output both use it. It builds the text in memory (take()), or
// writes it to a file as it goes, a few dozen KiB at a time: analyze's JSON lists every activity
// of every region, and holding all of it at once cost more memory than the trace's model
// (docs/PERFORMANCE.md).

#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace attnprof {

class JsonWriter {
 public:
  JsonWriter() = default;
  // kCompact: one line, no spaces (the events annotate adds to a trace, one per line).
  enum Layout { kIndented, kCompact };
  explicit JsonWriter(Layout layout) : compact_(layout == kCompact) {}
  // Writes to `sink` (not owned) rather than into memory; call flush() at the end.
  explicit JsonWriter(std::FILE* sink);
  // Hands the text to `sink` as it goes (a file of io/output_file.h); `sink` returns false on a
  // failed write. Call flush() at the end.
  using Sink = std::function<bool(std::string_view)>;
  explicit JsonWriter(Sink sink) : sink_(std::move(sink)) {}
  JsonWriter(const JsonWriter&) = delete;
  JsonWriter& operator=(const JsonWriter&) = delete;

  JsonWriter& begin_object() { return open('{'); }
  JsonWriter& end_object() { return close('}'); }
  JsonWriter& begin_array() { return open('['); }
  JsonWriter& end_array() { return close(']'); }
  JsonWriter& key(std::string_view k);
  JsonWriter& string(std::string_view s);
  JsonWriter& number(double v);  // NaN and infinities become null
  template <typename T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
  JsonWriter& number(T v) {
    value_prefix();
    out_ += std::to_string(v);
    return written();
  }
  // A number already spelled as JSON (Kineto's "ts": microseconds with exactly three decimals).
  JsonWriter& raw_number(std::string_view text);
  JsonWriter& boolean(bool v);
  JsonWriter& null();
  // Raw text between values, such as the final newline.
  JsonWriter& text(std::string_view raw);
  // The text written, when it is written into memory.
  std::string take() { return std::move(out_); }
  // Writes out what is buffered; false when the sink reported an error (now or before).
  bool flush();

 private:
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  void value_prefix();
  void newline();
  // Hands the buffer to the sink once it holds enough.
  JsonWriter& written() {
    if (sink_ && out_.size() >= kSinkChunk) flush();
    return *this;
  }

  static constexpr size_t kSinkChunk = size_t{64} << 10;
  Sink sink_;
  bool sink_failed_ = false;
  std::string out_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
  bool compact_ = false;
};

// Appends `s` as a JSON string literal (with quotes) to `out`.
void append_json_string(std::string& out, std::string_view s);

}  // namespace attnprof
