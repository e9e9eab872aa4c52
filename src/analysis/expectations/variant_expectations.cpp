#include "analysis/expectations/variant_expectations.h"

#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "analysis/expectations/expectation_parser.h"

namespace attnprof {

namespace {

bool is_variant_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == '*';
}

// The "VARIANT:" prefix of a line: a run of name characters followed by a colon. A metric never
// is followed by a colon, so a line without a prefix is an expression for every variant.
size_t prefix_end(std::string_view text, size_t start) {
  size_t end = start;
  while (end < text.size() && is_variant_char(text[end])) ++end;
  return end > start && end < text.size() && text[end] == ':' ? end : std::string_view::npos;
}

}  // namespace

Result<std::vector<VariantExpectation>> parse_variant_expectations(
    std::string_view content, std::string_view source, const std::vector<std::string>& variants) {
  std::vector<VariantExpectation> out;
  size_t line_number = 0;
  while (!content.empty()) {
    const size_t newline = content.find('\n');
    std::string_view line = content.substr(0, newline);
    content = newline == std::string_view::npos ? std::string_view() : content.substr(newline + 1);
    ++line_number;
    const size_t first = line.find_first_not_of(" \t\r");
    if (first == std::string_view::npos || line[first] == '#') continue;
    std::string variant = "*";
    size_t expression_start = first;
    if (const size_t colon = prefix_end(line, first); colon != std::string_view::npos) {
      variant = std::string(line.substr(first, colon - first));
      if (variant != "*" && std::find(variants.begin(), variants.end(), variant) == variants.end())
        return make_error(ErrorKind::kMalformed,
                          "{}:{}:{}: unknown variant '{}' (variants: {}, or *)", source,
                          line_number, first + 1, variant, fmt::join(variants, ", "));
      expression_start = colon + 1;
    }
    const std::string_view expression = line.substr(expression_start);
    auto parsed = parse_expression(expression);
    if (auto* e = std::get_if<SyntaxError>(&parsed)) {
      const size_t last = line.find_last_not_of(" \t\r");
      return make_error(ErrorKind::kMalformed, "{}:{}:{}: {}: {}{}", source, line_number,
                        expression_start + e->column, e->what, line.substr(first, last + 1 - first),
                        e->hint.empty() ? "" : " (" + e->hint + ")");
    }
    Expectation expectation = std::get<Expectation>(std::move(parsed));
    expectation.source = fmt::format("{}:{}", source, line_number);
    out.push_back({std::move(variant), std::move(expectation)});
  }
  return out;
}

std::vector<Expectation> expectations_for(const std::vector<VariantExpectation>& all,
                                          std::string_view variant) {
  std::vector<Expectation> out;
  for (const auto& e : all)
    if (e.variant == "*" || e.variant == variant) out.push_back(e.expectation);
  return out;
}

}  // namespace attnprof
