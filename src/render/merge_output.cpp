#include "render/merge_output.h"

#include <fmt/format.h>

#include "attnprof/render.h"
#include "base/format_units.h"
#include "render/display_text.h"
#include "render/json_writer.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

std::string rank_text(const TraceAnalysis& t) {
  return t.rank >= 0 ? fmt::format("{}", t.rank) : std::string("–");
}

std::string headline(const AnalyzeOutput& output) {
  const size_t all = output.traces.size() + output.unread.size();
  std::string out = fmt::format("merged {} trace summar{}", all, all == 1 ? "y" : "ies");
  if (!output.traces.empty() && output.across && output.across->labelled_by_rank)
    out += fmt::format(": ranks of one {} run of world size {}",
                       escape_control(output.traces.front().distributed_backend),
                       output.traces.front().world_size);
  if (!output.unread.empty()) out += fmt::format(", {} not read", output.unread.size());
  return out;
}

}  // namespace

std::string render_merge_text(const AnalyzeOutput& output) {
  std::string out = headline(output) + "\n\n";
  put(out, "  {:>6} {:>8} {:>12} {:>12} {:>9}  {}\n", "rank", "regions", "wall µs", "GPU busy µs",
      "kernels", "trace");
  for (const TraceAnalysis& t : output.traces)
    put(out, "  {:>6} {:>8} {:>12} {:>12} {:>9}  {}\n", rank_text(t), t.regions.size(),
        format_us(t.facts.wall_ns.median), format_us(t.facts.gpu_busy_ns.median),
        format_count(t.facts.kernels.median), escape_control(t.path));
  put(out, "  (medians over each trace's regions)\n\n");
  append_comparison_text(out, output);
  return out;
}

std::string render_merge_markdown(const AnalyzeOutput& output) {
  std::string out = "## " + markdown_cell(headline(output)) + "\n\n";
  out += "| rank | regions | wall median (µs) | GPU busy median (µs) | kernels | trace |\n";
  out += "|---:|---:|---:|---:|---:|---|\n";
  for (const TraceAnalysis& t : output.traces)
    put(out, "| {} | {} | {} | {} | {} | {} |\n", rank_text(t), t.regions.size(),
        format_us(t.facts.wall_ns.median), format_us(t.facts.gpu_busy_ns.median),
        format_count(t.facts.kernels.median), markdown_cell(t.path));
  out += "\n";
  append_comparison_markdown(out, output);
  return out;
}

std::string render_merge_json(const AnalyzeOutput& output) {
  JsonWriter w;
  w.begin_object();
  w.key("schemaVersion").number(kAnalysisSchemaVersion);
  w.key("tool").string("attnprof merge");
  w.key("traces").begin_array();
  for (const TraceAnalysis& t : output.traces) {
    w.begin_object();
    w.key("path").string(t.path);
    w.key("rank");
    if (t.rank >= 0)
      w.number(t.rank);
    else
      w.null();
    w.key("regions").number(t.regions.size());
    w.key("median").begin_object();
    w.key("wall_us").number(t.facts.wall_ns.median / 1000.0);
    w.key("gpu_busy_us").number(t.facts.gpu_busy_ns.median / 1000.0);
    w.key("kernels").number(t.facts.kernels.median);
    w.end_object();
    w.end_object();
  }
  w.end_array();
  w.key("across_traces");
  if (output.across)
    write_cross_trace_json(w, *output.across, output.traces);
  else
    w.null();
  w.key("errors").begin_array();
  for (const auto& u : output.unread) {
    w.begin_object();
    w.key("path").string(u.path);
    w.key("kind").string(error_kind_name(u.kind));
    w.key("message").string(u.error);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.text("\n");
  return w.take();
}

}  // namespace attnprof
