#pragma once
// A small streaming JSON writer: correct escaping and commas, two-space indentation. The bench's
// summary.json and analyze's JSON output both use it.

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace attnprof {

class JsonWriter {
 public:
  // kCompact: one line, no spaces (the events annotate adds to a trace, one per line).
  enum Layout { kIndented, kCompact };
  explicit JsonWriter(Layout layout = kIndented) : compact_(layout == kCompact) {}

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
    return *this;
  }
  // A number already spelled as JSON (Kineto's "ts": microseconds with exactly three decimals).
  JsonWriter& raw_number(std::string_view text);
  JsonWriter& boolean(bool v);
  JsonWriter& null();
  std::string take() { return std::move(out_); }

 private:
  JsonWriter& open(char bracket);
  JsonWriter& close(char bracket);
  void value_prefix();
  void newline();

  std::string out_;
  std::vector<bool> has_items_;  // per open container
  bool after_key_ = false;
  bool compact_ = false;
};

// Appends `s` as a JSON string literal (with quotes) to `out`.
void append_json_string(std::string& out, std::string_view s);

}  // namespace attnprof
