#pragma once
// The bench's expectations file (`attnprof bench --expectations FILE`): the core's study format
// (analysis/expectations/variant_expectations.h), with the bench's own variants as the names a line
// may use. The same file is checked without a GPU against a study's shipped traces by `attnprof
// check STUDY_DIR --expectations FILE`.

#include <string>
#include <vector>

#include "pipeline/expectations_file.h"

namespace attnprof::bench {

using attnprof::expectations_for;
using attnprof::VariantExpectation;

// Reads and parses the file. Fails with "FILE:LINE:COLUMN: WHAT" at the first bad line, or for an
// unknown variant name; the --custom kernels' names are known too.
Result<std::vector<VariantExpectation>> load_study_expectations(
    const std::string& path, const std::vector<std::string>& custom_names = {});

}  // namespace attnprof::bench
