#pragma once
// The expression language of `check` (docs/check-and-diff.md has the grammar):
//
//   expression := comparison ("and" comparison)*
//   comparison := METRIC OP VALUE
//   OP         := == | != | < | <= | > | >= | ~ | !~
//   VALUE      := NUMBER | BARE_WORD | "quoted string"
//
// Metrics come from region_metrics.h; a metric is a number or text, and each operator and value
// must fit its type. `#` outside a quoted string ends the expression (a comment).
// The public entry points are in attnprof/expectations.h; this header adds what the CLI needs to
// draw a caret under a syntax error. The evaluation is
// analysis/expectations/expectation_evaluation.h.

#include <string>
#include <string_view>
#include <variant>

#include "analysis/regions/region_metrics.h"
#include "attnprof/expectations.h"

namespace attnprof {

struct SyntaxError {
  int column = 0;    // 1-based, into the text given to the parser
  std::string what;  // "expected an operator"
  std::string hint;  // "operators: == != < <= > >= ~ !~", "did you mean kernels?"; may be empty
};

// "WHAT at column N: TEXT (HINT)".
std::string describe(const SyntaxError& error, std::string_view text);

std::variant<Expectation, SyntaxError> parse_expression(std::string_view text);

std::string_view op_text(CompareOp op);

}  // namespace attnprof
