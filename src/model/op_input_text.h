#pragma once
// One text holds an op's three recorded input fields ("Input Dims", "Input type", "Concrete
// Inputs", each the raw JSON of its array), so that the reader interns one text per op, not three.
// The text starts with the byte lengths of the first two fields, so it splits exactly whatever
// bytes the fields hold. The analyses parse the fields (analysis/op_arguments.h).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnprof {

struct OpInputFields {
  std::string_view dims;      // "[[2, 512, 1024], []]", or empty when not recorded
  std::string_view types;     // "[\"float\", \"Scalar\"]", or empty
  std::string_view concrete;  // "[\"\", \"1048576\"]", or empty
};

// Writes the joined text of `fields` into `out` (cleared first).
void join_op_input_fields(const OpInputFields& fields, std::string& out);

// The fields of a text join_op_input_fields made; none for any other text.
std::optional<OpInputFields> split_op_input_fields(std::string_view text);

}  // namespace attnprof
