#pragma once
// The output of `attnprof diff`: text for terminals, JSON for programs, Markdown for pull requests.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/trace_diff.h"

namespace attnprof {

// The JSON output's schema version (docs/check-and-diff.md).
inline constexpr int kDiffSchemaVersion = 1;

// What text and Markdown show beyond the summary.
struct DiffTextOptions {
  size_t top = 10;          // rows of each view (--top)
  bool activities = false;  // the aligned activities of the typical regions (--activities)
};

// The tables a CSV can hold (--table): the views, and the aligned activities.
inline constexpr std::string_view kDiffCsvTables[] = {"by_kernel", "by_op", "by_module",
                                                      "attention", "activities"};

std::string render_diff_text(const TraceDiff& diff, const DiffTextOptions& options = {});
// The lines that say the two sides ran different work (TraceDiff::unlike, or two runs'
// analysis/diff/workload_mismatch.h), then an empty line; "" when there are none.
std::string render_unlike_text(const std::vector<std::string>& unlike);
std::string render_diff_json(const TraceDiff& diff);
std::string render_diff_markdown(const TraceDiff& diff, const DiffTextOptions& options = {});
// A page of its own (no script, no request), in the same order as the text.
std::string render_diff_html(const TraceDiff& diff, const DiffTextOptions& options = {});
// `table`: one of kDiffCsvTables; "activities" is one row per activity of the aligned typical
// regions, a view one row per entry.
std::string render_diff_csv(const TraceDiff& diff, std::string_view table = "activities");

}  // namespace attnprof
