// Markdown of several traces, for a pull request: each trace's tables, then one table that
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

void put_row(std::string& out, const CrossTraceSummary& across, const RegionAcrossTraces& r,
             bool is_median = false) {
  auto times = [&](const QuantityAcrossTraces& q) {
    return fmt::format("{} | {} | {} | {} | {}", format_us(q.min), format_us(q.median),
                       format_us(q.max), format_spread_percent(r, q),
                       markdown_cell(slowest_label(across, r, q)));
  };
  std::string kernels = r.kernel_counts_differ()
                            ? "**" + markdown_cell(kernel_counts_phrase(across, r)) + "**"
                            : format_count(r.kernels.median);
  put(out, "| {} | {}/{} | {} | {} | {} |\n",
      is_median ? fmt::format("*{}*", markdown_cell(r.name)) : markdown_code(r.name),
      r.traces.size(), across.labels.size(), times(r.wall_ns), times(r.gpu_busy_ns), kernels);
}

}  // namespace

void append_cross_trace_markdown(std::string& out, const CrossTraceSummary& across) {
  put(out, "### Across {} traces\n\n", across.labels.size());
  put(out, "Traces named by {}; spread = (max − min) / median; times in µs.\n\n",
      labelled_by(across));
  put(out,
      "| region | traces | wall min | wall median | wall max | wall spread | slowest (wall) | "
      "GPU busy min | GPU busy median | GPU busy max | GPU busy spread | slowest (GPU busy) | "
      "kernels |\n");
  put(out, "|---|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|---|\n");
  for (const auto& r : across.regions)
    if (r.traces.size() >= 2) put_row(out, across, r);
  if (!across.median_region.traces.empty()) put_row(out, across, across.median_region, true);
  out += "\n";
  if (std::string slowest = slowest_by_wall_phrase(across); !slowest.empty())
    put(out, "Slowest by wall time: {}.\n\n", markdown_cell(slowest));
  if (std::string alone = uncompared_regions_phrase(across); !alone.empty())
    put(out, "In one trace only, not compared: {}.\n\n", markdown_cell(alone));
}

void append_comparison_markdown(std::string& out, const AnalyzeOutput& output) {
  if (output.across)
    append_cross_trace_markdown(out, *output.across);
  else if (output.traces.size() >= 2)
    put(out, "{}\n\n", kNotComparedWords);
  if (!output.unread.empty()) {
    put(out, "Not read ({} of {} traces):\n\n", output.unread.size(),
        output.unread.size() + output.traces.size());
    for (const auto& u : output.unread) put(out, "- {}\n", markdown_cell(u.error));
    out += "\n";
  }
}

}  // namespace attnprof
