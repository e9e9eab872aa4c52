#include "model/op_input_text.h"

#include <cstring>

namespace attnprof {

namespace {

void append_length(std::string& out, size_t n) {
  const uint32_t length = static_cast<uint32_t>(n);
  char bytes[4];
  std::memcpy(bytes, &length, 4);
  out.append(bytes, 4);
}

uint32_t read_length(const char* p) {
  uint32_t n;
  std::memcpy(&n, p, 4);
  return n;
}

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A cursor over JSON text that knows just enough for "Input Dims": arrays, integers, and skipping
// any other value (strings, numbers, literals) up to the next ',' or ']' of its level.
struct DimsCursor {
  std::string_view text;
  size_t at = 0;

  void skip_space() {
    while (at < text.size() && is_space(text[at])) ++at;
  }
  bool eat(char c) {
    skip_space();
    if (at < text.size() && text[at] == c) {
      ++at;
      return true;
    }
    return false;
  }
  // Skips one value of any kind; false on text that is no JSON value.
  bool skip_value() {
    skip_space();
    if (at >= text.size()) return false;
    if (text[at] == '"') {
      for (++at; at < text.size(); ++at) {
        if (text[at] == '\\') {
          ++at;
        } else if (text[at] == '"') {
          ++at;
          return true;
        }
      }
      return false;
    }
    if (text[at] == '[' || text[at] == '{') {
      const char close = text[at] == '[' ? ']' : '}';
      ++at;
      if (eat(close)) return true;
      do {
        if (close == '}' && !(skip_value() && eat(':'))) return false;
        if (!skip_value()) return false;
      } while (eat(','));
      return eat(close);
    }
    const size_t begin = at;
    while (at < text.size() && text[at] != ',' && text[at] != ']' && text[at] != '}' &&
           !is_space(text[at]))
      ++at;
    return at > begin;
  }
  // One non-negative integer; false (and the cursor where it was) for anything else.
  bool integer(int64_t& out) {
    skip_space();
    const size_t begin = at;
    uint64_t n = 0;
    while (at < text.size() && text[at] >= '0' && text[at] <= '9') {
      if (n > (uint64_t{INT64_MAX} - 9) / 10) return false;
      n = n * 10 + static_cast<uint64_t>(text[at++] - '0');
    }
    if (at == begin) return false;
    out = static_cast<int64_t>(n);
    return true;
  }
};

// One input of "Input Dims": a list of sizes gives them; any other value gives none.
bool read_input(DimsCursor& c, std::vector<int64_t>& sizes) {
  c.skip_space();
  const size_t begin = c.at;
  if (c.eat('[')) {
    if (c.eat(']')) return true;
    do {
      int64_t n;
      if (!c.integer(n)) {
        sizes.clear();
        c.at = begin;
        return c.skip_value();  // a list of lists (a TensorList's sizes)
      }
      sizes.push_back(n);
    } while (c.eat(','));
    return c.eat(']');
  }
  return c.skip_value();
}

// One JSON string at the cursor, unescaped (\uXXXX beyond ASCII becomes '?': types and scalar
// values are ASCII); false when the value is no string.
bool read_string(DimsCursor& c, std::string& out) {
  c.skip_space();
  const std::string_view t = c.text;
  if (c.at >= t.size() || t[c.at] != '"') return false;
  for (size_t i = c.at + 1; i < t.size(); ++i) {
    if (t[i] == '"') {
      c.at = i + 1;
      return true;
    }
    if (t[i] != '\\') {
      out.push_back(t[i]);
      continue;
    }
    if (++i >= t.size()) return false;
    switch (t[i]) {
      case 'n':
        out.push_back('\n');
        break;
      case 't':
        out.push_back('\t');
        break;
      case 'r':
        out.push_back('\r');
        break;
      case 'b':
        out.push_back('\b');
        break;
      case 'f':
        out.push_back('\f');
        break;
      case 'u': {
        if (i + 4 >= t.size()) return false;
        unsigned code = 0;
        for (size_t k = 1; k <= 4; ++k) {
          const char h = t[i + k];
          const int digit = h >= '0' && h <= '9'   ? h - '0'
                            : h >= 'a' && h <= 'f' ? h - 'a' + 10
                            : h >= 'A' && h <= 'F' ? h - 'A' + 10
                                                   : -1;
          if (digit < 0) return false;
          code = code * 16 + static_cast<unsigned>(digit);
        }
        out.push_back(code < 0x80 ? static_cast<char>(code) : '?');
        i += 4;
        break;
      }
      default:  // '"', '\\', '/'
        out.push_back(t[i]);
    }
  }
  return false;
}

}  // namespace

void join_op_input_fields(const OpInputFields& fields, std::string& out) {
  out.clear();
  append_length(out, fields.dims.size());
  append_length(out, fields.types.size());
  out.append(fields.dims);
  out.append(fields.types);
  out.append(fields.concrete);
}

std::optional<OpInputFields> split_op_input_fields(std::string_view text) {
  if (text.size() < 8) return std::nullopt;
  const size_t dims = read_length(text.data()), types = read_length(text.data() + 4);
  if (dims + types > text.size() - 8) return std::nullopt;
  OpInputFields f;
  f.dims = text.substr(8, dims);
  f.types = text.substr(8 + dims, types);
  f.concrete = text.substr(8 + dims + types);
  return f;
}

std::optional<std::vector<std::vector<int64_t>>> parse_input_dims(std::string_view text) {
  DimsCursor c{text};
  if (!c.eat('[')) return std::nullopt;
  std::vector<std::vector<int64_t>> inputs;
  if (c.eat(']')) return inputs;
  do {
    std::vector<int64_t> sizes;
    if (!read_input(c, sizes)) return std::nullopt;
    inputs.push_back(std::move(sizes));
  } while (c.eat(','));
  if (!c.eat(']')) return std::nullopt;
  return inputs;
}

std::optional<std::vector<std::string>> parse_string_list(std::string_view text) {
  DimsCursor c{text};
  if (!c.eat('[')) return std::nullopt;
  std::vector<std::string> out;
  if (c.eat(']')) return out;
  do {
    out.emplace_back();
    const size_t begin = c.at;
    if (!read_string(c, out.back())) {
      out.back().clear();
      c.at = begin;
      if (!c.skip_value()) return std::nullopt;
    }
  } while (c.eat(','));
  if (!c.eat(']')) return std::nullopt;
  return out;
}

}  // namespace attnprof
