#pragma once
// docs/METRICS.md's generated sections, written from the catalogs: the table of region facts
// (analysis/regions/region_fact_catalog.h) and the table of findings
// (analysis/findings/finding_catalog.h). Each section sits between its two markers in the doc.
// tools/metrics_doc.cpp rewrites the doc with them (scripts/generate-metrics-doc.sh);
// tests/metric_names_test.cpp fails while the doc differs from what it would write.

#include <string>
#include <string_view>

#include "attnprof/result.h"

namespace attnprof {

// The tables, one row per fact (or family, kernels.CLASS) and per finding, in catalog order.
std::string metrics_doc_region_facts();
std::string metrics_doc_findings();

// `doc` with every generated section replaced by what the catalogs say now; an error naming the
// marker that is missing.
Result<std::string> with_generated_sections(std::string_view doc);

}  // namespace attnprof
