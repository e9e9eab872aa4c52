// The terminal report of several traces: each trace as `analyze` prints one, then a section that
// compares them region by region (docs/ARCHITECTURE.md), then the traces that could not be read.

#include <fmt/format.h>

#include "attnprof/render.h"
#include "base/format_units.h"
#include "render/analyze/analyze_cross_trace_words.h"
#include "render/analyze/analyze_output.h"
#include "render/display_text.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

constexpr size_t kUnmatchedShown = 5;

// `collectives`: only the regions whose collectives were compared (the lag table).
void put_time_table(std::string& out, const CrossTraceSummary& across, const char* title,
                    QuantityAcrossTraces RegionAcrossTraces::*quantity, bool collectives = false) {
  const size_t n = across.labels.size();
  put(out, "  {:<24} {:>7} {:>12} {:>12} {:>12} {:>7}  {}\n", title, "traces", "min", "median",
      "max", "spread", "slowest");
  auto row = [&](const RegionAcrossTraces& r) {
    const QuantityAcrossTraces& q = r.*quantity;
    put(out, "  {:<24} {:>7} {:>12} {:>12} {:>12} {:>7}  {}\n", clip(r.name, 24),
        fmt::format("{}/{}", r.traces.size(), n), format_us(q.min), format_us(q.median),
        format_us(q.max), format_spread_percent(r, q), slowest_label(across, r, q));
  };
  for (const auto& r : across.regions)
    if (r.traces.size() >= 2 && (!collectives || r.collectives_compared > 0)) row(r);
  if (!across.median_region.traces.empty() && !collectives) row(across.median_region);
  out += "\n";
}

// Each collective's lag, region by region: which rank joins it last, and by how much.
void put_collective_lags(std::string& out, const CrossTraceSummary& across) {
  bool any = false;
  for (const auto& r : across.regions) any |= !r.collective_lags.empty();
  if (!any) return;
  const size_t n = across.labels.size();
  put(out, "  {:<44} {:>7} {:>9} {:>12} {:>12} {:>12}  {}\n", "collective lag µs, by collective",
      "traces", "compared", "min", "median", "max", "latest");
  for (const auto& r : across.regions)
    for (const CollectiveLagAcrossTraces& c : r.collective_lags) {
      const std::string name =
          fmt::format("{} {}{}", r.name, c.name,
                      c.group_size > 0 ? fmt::format(" ({} ranks)", c.group_size) : "");
      put(out, "  {:<44} {:>7} {:>9} {:>12} {:>12} {:>12}  {}\n", clip(escape_control(name), 44),
          fmt::format("{}/{}", c.traces.size(), n), c.compared, format_us(c.lag_ns.min),
          format_us(c.lag_ns.median), format_us(c.lag_ns.max),
          c.lag_ns.slowest < 0
              ? "-"
              : escape_control(across.labels[static_cast<size_t>(c.lag_ns.slowest)].text));
    }
  out += "\n";
}

// The job's path region by region: who held it, with what, and how long the others waited.
void put_job_paths(std::string& out, const CrossTraceSummary& across) {
  bool any = false;
  for (const auto& r : across.regions) any |= r.job_path.has_value();
  if (any) {
    put(out, "  {:<24} {:>11} {:>11} {:>6}  {:<10} {:>11} {:>7}  {}\n", "job's path µs", "length",
        "collective", "count", "held by", "held", "of it", "with");
    for (const auto& r : across.regions) {
      if (!r.job_path) continue;
      const JobPathAcrossRanks& j = *r.job_path;
      const bool held = j.held_by >= 0;
      double held_ns = 0;
      for (size_t i = 0; i < r.traces.size(); ++i)
        if (r.traces[i] == j.held_by) held_ns = j.held_ns[i];
      put(out, "  {:<24} {:>11} {:>11} {:>6}  {:<10} {:>11} {:>7}  {}\n", clip(r.name, 24),
          format_us(j.length_ns), format_us(j.communication_ns), j.collectives,
          held ? clip(escape_control(across.labels[static_cast<size_t>(j.held_by)].text), 10) : "-",
          held ? format_us(held_ns) : "-",
          held && j.length_ns > 0 ? fmt::format("{:.1f} %", 100 * held_ns / j.length_ns) : "-",
          escape_control(j.held_with.empty() ? "-" : j.held_with));
    }
    out += "\n";
  }
  size_t unmatched = 0;
  for (const auto& r : across.regions) unmatched += r.unmatched_collectives.size();
  if (unmatched == 0) return;
  put(out, "  collectives the traces did not all run as often ({}), matched n-th with n-th:\n",
      unmatched);
  size_t shown = 0;
  for (const auto& r : across.regions)
    for (const std::string& words : r.unmatched_collectives)
      if (shown++ < kUnmatchedShown)
        put(out, "    {:<24} {}\n", clip(r.name, 24), escape_control(words));
  if (unmatched > kUnmatchedShown)
    put(out, "    ... {} more (--format json lists them all)\n", unmatched - kUnmatchedShown);
  out += "\n";
}

}  // namespace

void append_cross_trace_text(std::string& out, const CrossTraceSummary& across) {
  put(out, "across {} traces (named by {}; spread = (max - min) / median)\n\n",
      across.labels.size(), labelled_by(across));
  put_time_table(out, across, "wall µs", &RegionAcrossTraces::wall_ns);
  put_time_table(out, across, "GPU busy µs", &RegionAcrossTraces::gpu_busy_ns);
  put_time_table(out, across, "GPU idle µs", &RegionAcrossTraces::idle_ns);
  bool communicates = false;
  for (const auto& r : across.regions) communicates |= r.communication_ns.max > 0;
  if (communicates) {
    put_time_table(out, across, "communication µs", &RegionAcrossTraces::communication_ns);
    put_time_table(out, across, "collective lag µs", &RegionAcrossTraces::collective_lag_ns, true);
    put_collective_lags(out, across);
  }
  put_job_paths(out, across);
  std::vector<const RegionAcrossTraces*> differing;
  for (const auto& r : across.regions)
    if (r.kernel_counts_differ()) differing.push_back(&r);
  if (differing.empty()) {
    put(out, "  kernels per region: the same in every trace that has the region\n");
  } else {
    put(out, "  kernels per region differ between traces in {} of {} compared region(s):\n",
        differing.size(), across.compared_regions);
    for (const RegionAcrossTraces* r : differing)
      put(out, "    {:<24} {}\n", clip(r->name, 24), kernel_counts_phrase(across, *r));
  }
  if (std::string slowest = slowest_by_wall_phrase(across); !slowest.empty())
    put(out, "  slowest by wall time: {}\n", slowest);
  if (std::string late = latest_collectives_phrase(across); !late.empty())
    put(out, "  starts its collectives last (a straggler the others wait for): {}\n", late);
  if (std::string holds = held_job_phrase(across); !holds.empty())
    put(out, "  holds the job's path (the others wait for it in their collectives): {}\n", holds);
  if (std::string alone = uncompared_regions_phrase(across); !alone.empty())
    put(out, "  in one trace only, not compared: {}\n", alone);
  out += "\n";
}

void append_comparison_text(std::string& out, const AnalyzeOutput& output) {
  if (output.across)
    append_cross_trace_text(out, *output.across);
  else if (output.traces.size() >= 2)
    put(out, "{}\n\n", kNotComparedWords);
  if (!output.unread.empty()) {
    put(out, "not read ({} of {} traces; the errors are on stderr):\n", output.unread.size(),
        output.unread.size() + output.traces.size());
    for (const auto& u : output.unread) put(out, "  {}\n", escape_control(u.path));
  }
}

}  // namespace attnprof
