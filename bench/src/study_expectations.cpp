#include "study_expectations.h"

#include <sstream>

#include <fmt/format.h>

#include "attnprof/limits.h"
#include "io/side_file.h"
#include "problem.h"

namespace attnprof::bench {

namespace {

bool is_variant_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '*';
}

bool known_variant(std::string_view name) {
  if (name == "*") return true;
  for (Variant v : kAllVariants)
    if (attnprof::bench::name(v) == name) return true;
  return false;
}

}  // namespace

Result<std::vector<VariantExpectation>> load_study_expectations(const std::string& path) {
  // Bounded, and a directory refused, as every side file (io/side_file.h).
  Result<std::string> content =
      read_side_file(path, Limits{}.max_side_file_bytes, "expectations file");
  if (!content) return content.take_error();
  std::istringstream in(std::move(*content));
  std::vector<VariantExpectation> out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::string_view text = line;
    if (size_t hash = text.find('#'); hash != std::string_view::npos) text = text.substr(0, hash);
    size_t start = text.find_first_not_of(" \t\r");
    if (start == std::string_view::npos) continue;
    // "VARIANT:" prefix: a run of name characters followed by a colon.
    size_t end = start;
    while (end < text.size() && is_variant_char(text[end])) ++end;
    std::string variant = "*";
    size_t expression_start = start;
    if (end > start && end < text.size() && text[end] == ':') {
      variant = std::string(text.substr(start, end - start));
      if (!known_variant(variant))
        return make_error(
            "{}:{}:{}: unknown variant '{}' (variants: naive, inplace, sdpa-math, "
            "sdpa-efficient, sdpa-flash, sdpa-cudnn, sdpa-auto, or *)",
            path, number, start + 1, variant);
      expression_start = end + 1;
    }
    auto parsed = parse_expectation(text.substr(expression_start));
    if (!parsed.ok())
      return make_error("{}:{}: {} (after column {})", path, number, parsed.error().message,
                        expression_start);
    parsed->source = fmt::format("{}:{}", path, number);
    out.push_back({variant, std::move(*parsed)});
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

}  // namespace attnprof::bench
