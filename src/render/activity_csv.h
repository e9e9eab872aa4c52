#pragma once
// GPU activities as CSV rows, the same columns in `analyze` and `diff` output: one row per
// activity, its launch configuration flattened into columns and its op chain joined into one
// string, so that pandas.read_csv gives a frame to group and sum without unpacking. The columns
// are the activity column catalog's (analysis/activity_columns.h).

#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "render/csv_writer.h"

namespace attnprof {

// The activity's columns, in the order activity_csv_fields writes them.
const std::vector<std::string_view>& activity_csv_header();

// The activity's fields (kind ... stream, start_us, duration_us) into the current row.
void activity_csv_fields(CsvWriter& csv, const ActivityRow& a);

}  // namespace attnprof
