#include "render/analyze/analyze_cross_trace_words.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

std::string labelled_by(const CrossTraceSummary& across) {
  return across.labelled_by_rank ? "rank" : "file name";
}

std::string format_spread_percent(const RegionAcrossTraces& row, const QuantityAcrossTraces& q) {
  if (row.traces.size() < 2) return "-";
  return fmt::format("{:.1f}%", q.spread * 100);
}

std::string slowest_label(const CrossTraceSummary& across, const RegionAcrossTraces& row,
                          const QuantityAcrossTraces& q) {
  if (row.traces.size() < 2 || q.slowest < 0) return "-";
  return escape_control(across.labels[static_cast<size_t>(q.slowest)].text);
}

std::string kernel_counts_phrase(const CrossTraceSummary& across, const RegionAcrossTraces& row) {
  std::map<double, std::vector<int>> traces_by_count;
  for (size_t i = 0; i < row.traces.size(); ++i)
    traces_by_count[row.kernels.by_trace[i]].push_back(row.traces[i]);
  std::vector<std::pair<double, std::vector<int>>> groups(traces_by_count.begin(),
                                                          traces_by_count.end());
  // The most common count first (the smaller count on a tie).
  std::stable_sort(groups.begin(), groups.end(),
                   [](const auto& a, const auto& b) { return a.second.size() > b.second.size(); });
  // A count that more traces share than any other is only counted: the others stand out.
  const bool majority = groups.size() > 1 && groups[0].second.size() > groups[1].second.size();
  std::string out;
  for (size_t g = 0; g < groups.size(); ++g) {
    const auto& [count, traces] = groups[g];
    out += fmt::format("{}{} on ", g == 0 ? "" : "; ", format_count(count));
    if (g == 0 && majority) {
      out += fmt::format("{} trace{}", traces.size(), traces.size() == 1 ? "" : "s");
      continue;
    }
    for (size_t i = 0; i < traces.size() && i < kMaxNamedTraces; ++i)
      out +=
          (i == 0 ? "" : ", ") + escape_control(across.labels[static_cast<size_t>(traces[i])].text);
    if (traces.size() > kMaxNamedTraces)
      out += fmt::format(" and {} more", traces.size() - kMaxNamedTraces);
  }
  return out;
}

std::string uncompared_regions_phrase(const CrossTraceSummary& across) {
  constexpr size_t kNamed = 3;
  std::string out;
  size_t uncompared = 0;
  for (const auto& r : across.regions) {
    if (r.traces.size() >= 2) continue;
    if (++uncompared <= kNamed)
      out += fmt::format("{}{} ({})", out.empty() ? "" : ", ", escape_control(r.name),
                         escape_control(across.labels[static_cast<size_t>(r.traces[0])].text));
  }
  if (uncompared > kNamed) out += fmt::format(" and {} more", uncompared - kNamed);
  return out;
}

std::string slowest_by_wall_phrase(const CrossTraceSummary& across) {
  if (across.compared_regions == 0) return {};
  std::vector<size_t> order;
  for (size_t i = 0; i < across.slowest_by_wall.size(); ++i)
    if (across.slowest_by_wall[i] > 0) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return across.slowest_by_wall[a] > across.slowest_by_wall[b];
  });
  if (order.empty()) return "none, the traces tie in every region";
  std::string out;
  for (size_t k = 0; k < order.size() && k < 3; ++k) {
    const size_t i = order[k];
    out += k == 0 ? fmt::format("{} in {} of {} region{}", escape_control(across.labels[i].text),
                                across.slowest_by_wall[i], across.compared_regions,
                                across.compared_regions == 1 ? "" : "s")
                  : fmt::format(", {} in {}", escape_control(across.labels[i].text),
                                across.slowest_by_wall[i]);
  }
  if (order.size() > 3) out += fmt::format(", {} other traces in the rest", order.size() - 3);
  return out;
}

std::string latest_collectives_phrase(const CrossTraceSummary& across) {
  int with_collectives = 0;
  for (const auto& r : across.regions) with_collectives += r.collectives_compared > 0;
  if (with_collectives == 0) return {};
  size_t latest = 0;
  for (size_t i = 1; i < across.latest_collectives.size(); ++i)
    if (across.latest_collectives[i] > across.latest_collectives[latest]) latest = i;
  if (across.latest_collectives[latest] == 0) return "none, every trace starts them together";
  return fmt::format(
      "{} in {} of {} region{} with collectives, its median lag up to {} behind "
      "the earliest trace",
      escape_control(across.labels[latest].text), across.latest_collectives[latest],
      with_collectives, with_collectives == 1 ? "" : "s",
      format_duration(across.max_collective_lag_ns[latest]));
}

std::string held_job_phrase(const CrossTraceSummary& across) {
  int with_path = 0;
  for (const auto& r : across.regions) with_path += r.job_path.has_value();
  if (with_path == 0 || across.held_job.empty()) return {};
  size_t most = 0;
  for (size_t i = 1; i < across.held_job.size(); ++i)
    if (across.held_job[i] > across.held_job[most]) most = i;
  if (across.held_job[most] == 0) return "none";
  return fmt::format("{} in {} of {} region{} with collectives in every trace",
                     escape_control(across.labels[most].text), across.held_job[most], with_path,
                     with_path == 1 ? "" : "s");
}

}  // namespace attnprof
