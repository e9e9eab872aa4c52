// The terminal report of several traces: each trace as `analyze` prints one, then a section that
// compares them region by region (docs/ARCHITECTURE.md), then the traces that could not be read.

#include <fmt/format.h>

#include "attnprof/render.h"
#include "base/format_units.h"
#include "render/analyze_cross_trace_words.h"
#include "render/analyze_output.h"
#include "render/shared_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

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

std::string render_analyze_text(const AnalyzeOutput& output, const TextView& view) {
  std::string out = render_text(output.traces, view);
  append_comparison_text(out, output);
  return out;
}

}  // namespace attnprof
