#include "analysis/op_arguments.h"

#include <cstdint>
#include <string>

#include "model/op_input_text.h"

namespace attnprof {

namespace {

bool is_json_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// A cursor over JSON text that knows just enough for "Input Dims": arrays, integers, and skipping
// any other value (strings, numbers, literals) up to the next ',' or ']' of its level.
struct DimsCursor {
  std::string_view text;
  size_t at = 0;

  void skip_space() {
    while (at < text.size() && is_json_space(text[at])) ++at;
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
           !is_json_space(text[at]))
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
bool read_dims_input(DimsCursor& c, std::vector<int64_t>& sizes) {
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
bool read_json_string(DimsCursor& c, std::string& out) {
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

// The sizes of each input of an "Input Dims" text: [[2, 512, 1024], [], 7] gives {2, 512, 1024},
// {}, {}. An input that is not a list of integers (a scalar, a list of tensors' sizes) has no
// sizes. None when the text is not a JSON array, or a size is negative or beyond int64.
std::optional<std::vector<std::vector<int64_t>>> parse_input_dims(std::string_view text) {
  DimsCursor c{text};
  if (!c.eat('[')) return std::nullopt;
  std::vector<std::vector<int64_t>> inputs;
  if (c.eat(']')) return inputs;
  do {
    std::vector<int64_t> sizes;
    if (!read_dims_input(c, sizes)) return std::nullopt;
    inputs.push_back(std::move(sizes));
  } while (c.eat(','));
  if (!c.eat(']')) return std::nullopt;
  return inputs;
}

// The strings of a JSON array of strings ("Input type", "Concrete Inputs"), unescaped; an element
// that is no string gives "". None when the text is not a JSON array.
std::optional<std::vector<std::string>> parse_string_list(std::string_view text) {
  DimsCursor c{text};
  if (!c.eat('[')) return std::nullopt;
  std::vector<std::string> out;
  if (c.eat(']')) return out;
  do {
    out.emplace_back();
    const size_t begin = c.at;
    if (!read_json_string(c, out.back())) {
      out.back().clear();
      c.at = begin;
      if (!c.skip_value()) return std::nullopt;
    }
  } while (c.eat(','));
  if (!c.eat(']')) return std::nullopt;
  return out;
}

}  // namespace

std::optional<StringId> op_inputs_text(const Trace& trace, HostEventId op) {
  if (op.index() >= trace.host_events.size()) return std::nullopt;
  const HostEvent& e = trace.host_events[op];
  if (e.kind != HostKind::kCpuOp || e.inputs() == StringPool::kEmpty) return std::nullopt;
  return e.inputs();
}

std::optional<std::vector<OpArgument>> op_arguments_of_text(std::string_view inputs_text) {
  const std::optional<OpInputFields> fields = split_op_input_fields(inputs_text);
  if (!fields || fields->dims.empty()) return std::nullopt;
  auto dims = parse_input_dims(fields->dims);
  if (!dims) return std::nullopt;
  // Types and values are optional: older PyTorch recorded only the shapes.
  std::vector<std::string> types, values;
  if (auto parsed = parse_string_list(fields->types)) types = std::move(*parsed);
  if (auto parsed = parse_string_list(fields->concrete)) values = std::move(*parsed);
  std::vector<OpArgument> args(dims->size());
  for (size_t i = 0; i < args.size(); ++i) {
    args[i].dims = std::move((*dims)[i]);
    if (i < types.size()) args[i].type = std::move(types[i]);
    if (i < values.size()) args[i].concrete = std::move(values[i]);
  }
  return args;
}

std::optional<std::vector<OpArgument>> op_arguments(const Trace& trace, HostEventId op) {
  const std::optional<StringId> text = op_inputs_text(trace, op);
  if (!text) return std::nullopt;
  return op_arguments_of_text(trace.op_input_texts.view(*text));
}

}  // namespace attnprof
