#include "render/activity_csv.h"

#include <cmath>
#include <string>

#include "analysis/activity_columns.h"

namespace attnprof {

const std::vector<std::string_view>& activity_csv_header() {
  static const std::vector<std::string_view> header = [] {
    std::vector<std::string_view> names;
    for (const ActivityColumn& c : activity_columns()) names.push_back(c.name);
    return names;
  }();
  return header;
}

void activity_csv_fields(CsvWriter& csv, const ActivityRow& a) {
  std::string scratch;
  for (const ActivityColumn& c : activity_columns()) {
    if (c.type == ActivityColumnType::kText) {
      csv.text(c.text(a, scratch));
      continue;
    }
    // Unknown is an empty field, never 0 or -1, so that pandas reads NaN (docs/METRICS.md).
    const std::optional<double> v = c.number(a);
    if (v && std::trunc(*v) == *v && std::fabs(*v) < 9e15)
      csv.number(static_cast<int64_t>(*v));  // an integer in full, not 1e+16
    else
      csv.number(v);
  }
}

}  // namespace attnprof
