#pragma once
// The output of `attnprof diff`: text for terminals, JSON for programs, Markdown for pull requests.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/trace_diff.h"
#include "base/enum_names.h"

namespace attnprof {

// The JSON output's schema version (docs/check-and-diff.md).
inline constexpr int kDiffSchemaVersion = 1;

// What text and Markdown show beyond the summary.
struct DiffTextOptions {
  size_t top = 10;          // rows of each view (--top)
  bool activities = false;  // the aligned activities of the typical regions (--activities)
};

// The tables a CSV can hold (--table): a view, one row per entry, or the aligned activities, one
// row per activity of the typical regions.
enum class DiffCsvTable : uint8_t { kByKernel, kByOp, kByModule, kAttention, kActivities };
// --table's values, in the order its help lists them.
inline constexpr EnumNames<DiffCsvTable, 5> kDiffCsvTableNames = {{
    {DiffCsvTable::kByKernel, "by_kernel"},
    {DiffCsvTable::kByOp, "by_op"},
    {DiffCsvTable::kByModule, "by_module"},
    {DiffCsvTable::kAttention, "attention"},
    {DiffCsvTable::kActivities, "activities"},
}};

std::string render_diff_text(const TraceDiff& diff, const DiffTextOptions& options = {});
// The lines that say the two sides ran different work (TraceDiff::unlike, or two runs'
// analysis/diff/workload_mismatch.h), then an empty line; "" when there are none.
std::string render_unlike_text(const std::vector<std::string>& unlike);
std::string render_diff_json(const TraceDiff& diff);
std::string render_diff_markdown(const TraceDiff& diff, const DiffTextOptions& options = {});
// A page of its own (no script, no request), in the same order as the text.
std::string render_diff_html(const TraceDiff& diff, const DiffTextOptions& options = {});
std::string render_diff_csv(const TraceDiff& diff, DiffCsvTable table = DiffCsvTable::kActivities);

}  // namespace attnprof
