#pragma once
// A study written as hypotheses first: an expectations file whose lines are checked against each
// variant's own trace after the run (`attnprof bench --expectations FILE`).
//
//   # what the study predicts, before running it
//   naive: memcpy_dtod == 1          # a line for one variant: VARIANT: EXPRESSION
//   inplace: memcpy == 0
//   sdpa-flash: kernels == 1 and main_kernel ~ "flash"
//   sdpa-cudnn: launch_api == cuLaunchKernelEx
//   *: regions >= 1                  # every variant
//   kernels >= 1                     # no prefix: every variant too
//
// The expressions are `attnprof check`'s (docs/check-and-diff.md), over the `forward` regions.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/result.h"

namespace attnprof::bench {

struct VariantExpectation {
  std::string variant;  // a variant's name, or "*" for every variant
  Expectation expectation;
};

// Reads and parses the file. Fails with "FILE:LINE:COLUMN: WHAT" at the first bad line, or for an
// unknown variant name.
Result<std::vector<VariantExpectation>> load_study_expectations(const std::string& path);

// The expectations that apply to `variant`, in file order.
std::vector<Expectation> expectations_for(const std::vector<VariantExpectation>& all,
                                          std::string_view variant);

}  // namespace attnprof::bench
