// Reading an expectations file (the parsing is analysis/expectation_parser.cpp).

#include "pipeline/expectations_file.h"

#include "attnprof/expectations.h"
#include "attnprof/limits.h"
#include "io/side_file.h"

namespace attnprof {

Result<std::vector<Expectation>> load_expectations(const std::string& path, uint64_t max_bytes) {
  // Bounded, and a directory refused (docs/SECURITY.md: /dev/zero grew to 4.7 GB).
  Result<std::string> content = read_side_file(path, max_bytes, "expectations file");
  if (!content) return content.take_error();
  return parse_expectations(*content, path);
}

Result<std::vector<VariantExpectation>> load_variant_expectations(
    const std::string& path, const std::vector<std::string>& variants) {
  // Bounded, and a directory refused, as every side file (io/side_file.h).
  Result<std::string> content =
      read_side_file(path, Limits{}.max_side_file_bytes, "expectations file");
  if (!content) return content.take_error();
  return parse_variant_expectations(*content, path, variants);
}

}  // namespace attnprof
