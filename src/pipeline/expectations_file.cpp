// Reading an expectations file (the parsing is analysis/expectation_parser.cpp).

#include "pipeline/expectations_file.h"

#include <fstream>
#include <sstream>

#include "attnprof/expectations.h"

namespace attnprof {

Result<std::vector<Expectation>> load_expectations(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("{}: cannot open the expectations file", path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return make_error("{}: cannot read the expectations file", path);
  return parse_expectations(content.str(), path);
}

Result<std::vector<VariantExpectation>> load_variant_expectations(
    const std::string& path, const std::vector<std::string>& variants) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error("{}: cannot open the expectations file; check the path", path);
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return make_error("{}: cannot read the expectations file", path);
  return parse_variant_expectations(content.str(), path, variants);
}

}  // namespace attnprof
