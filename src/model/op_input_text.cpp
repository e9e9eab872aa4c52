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

}  // namespace attnprof
