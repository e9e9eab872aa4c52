// `attnprof analyze --format csv`: one row per GPU activity of every region of every trace read,
// the columns of render/activity_csv.h after the trace and region columns.

#include "render/activity_csv.h"
#include "render/analyze/analyze_output.h"
#include "render/csv_writer.h"

namespace attnprof {

std::string render_analyze_csv(const AnalyzeOutput& output) {
  std::vector<std::string_view> header{"trace",        "rank",       "region",
                                       "region_index", "region_pid", "typical"};
  const auto& activity = activity_csv_header();
  header.insert(header.end(), activity.begin(), activity.end());
  CsvWriter csv(header);
  for (const TraceAnalysis& t : output.traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& region = t.regions[i];
      for (const ActivityRow& a : region.activities) {
        // Unknown without distributedInfo: empty, as every unknown value (docs/METRICS.md).
        csv.text(t.path);
        t.rank < 0 ? csv.empty() : csv.number(int64_t{t.rank});
        csv.text(region.name).number(int64_t(i));
        csv.number(int64_t{region.pid}).text(int(i) == t.typical_region ? "true" : "false");
        activity_csv_fields(csv, a);
        csv.end_row();
      }
    }
  }
  return csv.take();
}

}  // namespace attnprof
