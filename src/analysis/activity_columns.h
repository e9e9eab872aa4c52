#pragma once
// The columns of one GPU activity (ActivityRow, include/attnprof/analysis.h) declared once: their
// names, types and how each is read, with one rule for unknown values (a value the trace does not
// give, or that does not apply: a copy's grid, a kernel's bytes). analyze's and diff's CSV
// (render/activity_csv.cpp) and the Python module's `activities` table read this list; analyze's
// JSON spells the same names (render/analyze/analyze_json.cpp; python/tests/test_column_parity.py
// compares the three on real traces). docs/METRICS.md lists them.

#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "attnprof/analysis.h"

namespace attnprof {

enum class ActivityColumnType : uint8_t {
  kText,     // text; unknown is empty
  kInteger,  // always known (the stream)
  kNumber,   // a number that may be unknown: empty in CSV, NaN in Python, null in JSON
};

struct ActivityColumn {
  std::string_view name;
  ActivityColumnType type;
  // A text column's value: a view of the row, or of `scratch` where it is built (the op chain).
  std::string_view (*text)(const ActivityRow& row, std::string& scratch);
  // A number column's value; none where unknown.
  std::optional<double> (*number)(const ActivityRow& row);
};

// Every column, in the order CSV and Python list them.
std::span<const ActivityColumn> activity_columns();

// The separator of the op chain's ops in one field: outermost op first.
inline constexpr std::string_view kOpChainSeparator = " > ";

}  // namespace attnprof
