// Reading an expectations file (the parsing is analysis/expectations/expectation_parser.cpp).

#include "pipeline/expectations_file.h"

#include "attnprof/expectations.h"
#include "attnprof/limits.h"
#include "io/side_file.h"

namespace attnprof {

namespace {

// The lines that hold an expression (not blank, not only a comment): each parsed one costs a few
// hundred bytes, more than its text, so they are counted before any is parsed.
uint64_t expression_lines(std::string_view content) {
  uint64_t count = 0;
  size_t start = 0;
  while (start < content.size()) {
    size_t end = content.find('\n', start);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view line = content.substr(start, end - start);
    const size_t first = line.find_first_not_of(" \t\r");
    if (first != std::string_view::npos && line[first] != '#') ++count;
    start = end + 1;
  }
  return count;
}

Result<std::string> bounded_content(const std::string& path, const Limits& limits) {
  // Bounded, and a directory refused (docs/SECURITY.md: /dev/zero grew to 4.7 GB).
  Result<std::string> content =
      read_side_file(path, limits.max_side_file_bytes, "expectations file");
  if (!content) return content;
  if (const uint64_t n = expression_lines(*content); n > limits.max_expectations)
    return make_error(ErrorKind::kLimit,
                      "{}: {} expressions, more than --max-expectations allows ({}): split the "
                      "file, or raise --max-expectations",
                      path, n, limits.max_expectations);
  return content;
}

}  // namespace

Result<std::vector<Expectation>> load_expectations(const std::string& path, const Limits& limits) {
  Result<std::string> content = bounded_content(path, limits);
  if (!content) return content.take_error();
  return parse_expectations(*content, path);
}

Result<std::vector<VariantExpectation>> load_variant_expectations(
    const std::string& path, const std::vector<std::string>& variants, const Limits& limits) {
  Result<std::string> content = bounded_content(path, limits);
  if (!content) return content.take_error();
  return parse_variant_expectations(*content, path, variants);
}

}  // namespace attnprof
