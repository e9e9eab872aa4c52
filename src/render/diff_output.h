#pragma once
// The output of `attnprof diff`: text for terminals, JSON for programs, Markdown for pull requests.

#include <string>
#include <vector>

#include "attnprof/trace_diff.h"

namespace attnprof {

// The JSON output's schema version (docs/check-and-diff.md).
inline constexpr int kDiffSchemaVersion = 1;

std::string render_diff_text(const TraceDiff& diff);
// The lines that say the two sides ran different work (TraceDiff::unlike, or two runs'
// analysis/workload_mismatch.h), then an empty line; "" when there are none.
std::string render_unlike_text(const std::vector<std::string>& unlike);
std::string render_diff_json(const TraceDiff& diff);
std::string render_diff_markdown(const TraceDiff& diff);
// One row per activity of the aligned typical regions.
std::string render_diff_csv(const TraceDiff& diff);

}  // namespace attnprof
