#pragma once
// Reading expectations files: `check --expectations` and `bench --expectations`. A plain file
// (one expression per line) is read by load_expectations (attnprof/expectations.h); a study's
// file, whose lines may start with `VARIANT:`, by load_variant_expectations.

#include <string>
#include <vector>

#include "analysis/expectations/variant_expectations.h"
#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

// Reads and parses the file at `path`; fails as parse_variant_expectations does, or when the file
// cannot be read.
Result<std::vector<VariantExpectation>> load_variant_expectations(
    const std::string& path, const std::vector<std::string>& variants, const Limits& limits);

}  // namespace attnprof
