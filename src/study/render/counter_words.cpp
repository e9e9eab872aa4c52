#include "study/render/counter_words.h"

#include <fmt/format.h>

namespace attnprof {

namespace {

// A sweep's point by the values its axes took ("seq 4096"); empty for a run of one point.
std::string point_prefix(const RunSummary& run, const RunPoint& point) {
  if (run.points.size() < 2) return {};
  const RunProblem& p = point.problem;
  std::string label;
  for (const RunSweepAxis& axis : run.sweep)
    label += fmt::format("{}{} {}", label.empty() ? "" : ", ", name_in(kSweepKeyNames, axis.key),
                         sweep_size(p, axis.key));
  return label.empty() ? std::string() : label + ": ";
}

}  // namespace

std::vector<std::string> counter_notes(const RunSummary& run, const StudyConclusions& conclusions) {
  std::vector<std::string> notes;
  if (!run.counters) return notes;
  const RunCounters& c = *run.counters;
  if (!c.unavailable.empty()) {
    notes.push_back("no hardware counters: " + c.unavailable);
    return notes;
  }
  std::string bandwidth = "HBM bandwidth: not measured";
  if (c.bandwidth_bytes_per_s) {
    bandwidth =
        fmt::format("HBM bandwidth by a copy kernel: {:.2f} TB/s", *c.bandwidth_bytes_per_s / 1e12);
    if (c.datasheet_bandwidth_bytes_per_s)
      bandwidth += fmt::format(" ({:.0f} % of the datasheet's {:.2f} TB/s)",
                               100 * *c.bandwidth_bytes_per_s / *c.datasheet_bandwidth_bytes_per_s,
                               *c.datasheet_bandwidth_bytes_per_s / 1e12);
  }
  notes.push_back(
      fmt::format("{}, {}; the counters added {:.0f} s to the run", c.tool, bandwidth, c.seconds));
  for (size_t i = 0; i < run.points.size() && i < conclusions.counter_findings.size(); ++i) {
    const std::string prefix = point_prefix(run, run.points[i]);
    for (const CounterFinding& f : conclusions.counter_findings[i])
      notes.push_back(fmt::format("{}[{}] {}", prefix, f.id, f.text));
  }
  return notes;
}

}  // namespace attnprof
