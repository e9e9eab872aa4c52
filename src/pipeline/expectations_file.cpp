// Reading an expectations file (the parsing is analysis/expectation_parser.cpp).

#include "attnprof/expectations.h"
#include "io/side_file.h"

namespace attnprof {

Result<std::vector<Expectation>> load_expectations(const std::string& path, uint64_t max_bytes) {
  // Bounded, and a directory refused (issue 12: /dev/zero grew to 4.7 GB).
  Result<std::string> content = read_side_file(path, max_bytes, "expectations file");
  if (!content) return content.take_error();
  return parse_expectations(*content, path);
}

}  // namespace attnprof
