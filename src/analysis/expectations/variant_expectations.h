#pragma once
// A study's expectations file: each line an expression for one variant's trace, for every
// variant (`*:`), or, with no prefix, for every variant too (examples/study.expect).
//
//   naive: memcpy_dtod == 1          # VARIANT: EXPRESSION
//   sdpa-flash: kernels == 1 and main_kernel ~ "flash"
//   *: memset <= 1
//
// Both `attnprof bench --expectations` (on the traces it records) and `attnprof check STUDY_DIR
// --expectations` (on a study's shipped traces, no GPU needed) read it with this one parser
// (pipeline/expectations_file.h reads the file).

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/result.h"

namespace attnprof {

struct VariantExpectation {
  std::string variant;  // a variant's name, or "*" for every variant
  Expectation expectation;
};

// Parses the file's content. Each VARIANT must be one of `variants` (or `*`). Fails with
// "SOURCE:LINE:COLUMN: WHAT" at the first bad line or unknown variant; the message lists the
// variants.
Result<std::vector<VariantExpectation>> parse_variant_expectations(
    std::string_view content, std::string_view source, const std::vector<std::string>& variants);

// The expectations that apply to `variant`, in file order.
std::vector<Expectation> expectations_for(const std::vector<VariantExpectation>& all,
                                          std::string_view variant);

}  // namespace attnprof
