#include "counter_notes.h"

#include <fmt/format.h>

#include "analysis/counter_findings.h"

namespace attnprof::bench {

std::vector<std::string> counter_notes(const StudyReport& report) {
  const CounterRun& run = report.counters;
  std::vector<std::string> notes;
  if (!run.requested) return notes;
  if (!run.unavailable.empty()) {
    notes.push_back("no hardware counters: " + run.unavailable);
    return notes;
  }
  std::string bandwidth = "HBM bandwidth: not measured (" + run.copy_error + ")";
  if (run.copy) {
    bandwidth =
        fmt::format("HBM bandwidth by a copy kernel: {:.2f} TB/s", run.copy->bytes_per_s() / 1e12);
    if (auto datasheet = datasheet_memory_bandwidth(report.device.name))
      bandwidth += fmt::format(" ({:.0f} % of the datasheet's {:.2f} TB/s)",
                               100 * run.copy->bytes_per_s() / *datasheet, *datasheet / 1e12);
  }
  notes.push_back(fmt::format("{}, {}; the counters added {:.0f} s to the run", run.tool, bandwidth,
                              run.seconds));
  const std::optional<double> measured =
      run.copy ? std::optional<double>(run.copy->bytes_per_s()) : std::nullopt;
  for (const StudyPoint& point : report.points) {
    std::vector<CounterSubject> subjects;
    for (const VariantRow& row : point.rows) {
      if (row.kernel_counters.empty()) continue;
      std::optional<double> estimate;
      if (row.forward && row.forward->facts.main_kernel)
        estimate = row.forward->facts.main_kernel->occupancy_pct;
      subjects.push_back({std::string(row_name(row.measurement)), row.kernel_counters, estimate});
    }
    const std::string prefix =
        report.points.size() > 1 ? point_label(point.problem) + " " : std::string();
    for (const CounterFinding& f : counter_findings(subjects, measured))
      notes.push_back(fmt::format("{}[{}] {}", prefix, f.id, f.text));
  }
  return notes;
}

}  // namespace attnprof::bench
