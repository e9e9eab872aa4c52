#pragma once
// One text holds an op's three recorded input fields ("Input Dims", "Input type", "Concrete
// Inputs", each the raw JSON of its array), so that the reader interns one text per op, not three.
// The text starts with the byte lengths of the first two fields, so it splits exactly whatever
// bytes the fields hold.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

// The sizes of each input of an "Input Dims" text: [[2, 512, 1024], [], 7] gives {2, 512, 1024},
// {}, {}. An input that is not a list of integers (a scalar, a list of tensors' sizes) has no
// sizes. None when the text is not a JSON array, or a size is negative or beyond int64.
std::optional<std::vector<std::vector<int64_t>>> parse_input_dims(std::string_view text);

// The strings of a JSON array of strings ("Input type", "Concrete Inputs"), unescaped; an element
// that is no string gives "". None when the text is not a JSON array.
std::optional<std::vector<std::string>> parse_string_list(std::string_view text);

}  // namespace attnprof
