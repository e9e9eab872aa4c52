#pragma once
// The report's inputs, loaded for a test: a failure is the test's, so it throws.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pipeline/report_inputs.h"

namespace attnprof::testing {

inline ReportData load_report_inputs(const std::vector<std::string>& inputs,
                                     const std::string& region = {}) {
  ReportOptions options;
  options.region_pattern = region;
  auto data = load_report(inputs, options);
  if (!data.ok()) throw std::runtime_error(data.error().message);
  return std::move(data).value();
}

}  // namespace attnprof::testing
