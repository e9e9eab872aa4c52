#pragma once
// A small streaming JSON writer for summary.json: indented, strings escaped, and NaN or
// infinity (which JSON cannot hold) written as null.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof::bench {

class JsonWriter {
 public:
  JsonWriter& begin_object();
  JsonWriter& end_object();
  JsonWriter& begin_array();
  JsonWriter& end_array();
  JsonWriter& key(std::string_view name);  // inside an object, before each value

  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(const std::string& text) { return value(std::string_view(text)); }
  JsonWriter& value(double number);
  JsonWriter& value(int64_t number);
  JsonWriter& value(int number) { return value(static_cast<int64_t>(number)); }
  JsonWriter& value(bool flag);
  JsonWriter& null();
  template <typename T>
  JsonWriter& value(const std::optional<T>& maybe) {
    return maybe ? value(*maybe) : null();
  }

  // The document so far; complete once every object and array is closed.
  const std::string& text() const { return out_; }

 private:
  void before_value();
  void open(char bracket);
  void close(char bracket);

  std::string out_;
  std::vector<bool> has_items_;  // one per open object or array
  bool after_key_ = false;
};

}  // namespace attnprof::bench
