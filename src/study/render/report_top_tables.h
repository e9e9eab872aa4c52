#pragma once
// The report's top tables of a variant's typical region: its kernels and ops by time, folded
// (HTML <details>), below its timeline.

#include <string>

#include "attnprof/analysis.h"

namespace attnprof {

void write_top_tables_html(std::string& out, const RegionSummary& region);

}  // namespace attnprof
