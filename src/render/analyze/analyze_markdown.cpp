// Markdown for pull requests: per trace, the region medians, the typical region's top tables
// and its activities.

#include <fmt/format.h>

#include "attnprof/render.h"
#include "base/format_units.h"
#include "render/analyze/analyze_output.h"
#include "render/analyze/analyze_top_tables.h"
#include "render/analyze/region_table.h"
#include "render/attention/attention_calls_text.h"
#include "render/breakdown_words.h"
#include "render/critical_path_output.h"
#include "render/display_text.h"
#include "render/markdown_kernel_names.h"
#include "render/region_memory_text.h"
#include "render/region_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

// One table of the facts' medians, a column each (render/analyze/region_table.h).
void medians_table(std::string& out, RegionTable table, const RegionFacts& facts) {
  const std::vector<RegionColumn> columns = region_columns(table, TableFormat::kMarkdown);
  std::string header = "|", rule = "|", cells = "|";
  for (const RegionColumn& c : columns) {
    header += fmt::format(" {} |", c.header);
    rule += "---:|";
    cells += fmt::format(" {} |", median_cell(c, facts, TableFormat::kMarkdown));
  }
  put(out, "{}\n{}\n{}\n\n", header, rule, cells);
}

}  // namespace

std::string render_markdown(const std::vector<TraceAnalysis>& traces) {
  std::string out;
  for (const auto& t : traces) {
    put(out, "### {}\n\n", markdown_code(t.path));
    if (t.regions.empty()) {
      put(out, "No region matches {}.\n\n", markdown_code(t.region_pattern));
      continue;
    }
    put(out, "{} region(s) {}; medians:\n\n", t.regions.size(),
        t.region_pattern.empty() ? std::string("(the whole trace)")
                                 : fmt::format("matching {}", markdown_code(t.region_pattern)));
    if (const std::string choice = region_choice_words(t); !choice.empty())
      put(out, "{}\n\n", markdown_cell(choice));
    // The medians over the regions, then the time breakdown's, and the whole trace's
    // (docs/BREAKDOWN.md).
    medians_table(out, RegionTable::kRegions, t.facts);
    medians_table(out, RegionTable::kBreakdown, t.facts);
    if (t.breakdown.span_ns > 0) put(out, "{}\n\n", breakdown_line(t.breakdown, "; "));
    if (t.diagnostics.total() > 0) {
      // The same warnings as the terminal report: a table must not hide what it rests on.
      put(out, "> **Warnings ({}):**", t.diagnostics.total());
      for (size_t k = 0; k < static_cast<size_t>(DiagnosticKind::kCount); ++k) {
        auto kind = static_cast<DiagnosticKind>(k);
        if (uint64_t n = t.diagnostics.count(kind)) put(out, " {} {};", n, diagnostic_name(kind));
      }
      put(out, "\n");
      for (const auto& d : t.diagnostics.first())
        put(out, "> - {}: {}\n", diagnostic_name(d.kind), markdown_cell(d.detail));
      put(out, "\n");
    }
    if (t.typical_region < 0) continue;
    const auto& r = t.regions[t.typical_region];
    // What holds the step comes before any kernel is named.
    render_critical_path_markdown(out, t);
    render_top_tables_markdown(out, r);
    render_attention_calls_markdown(out, t);
    render_region_memory_markdown(out, t);
    if (!t.attention.calls.empty() || !r.memory.empty()) put(out, "\n");
    put(out, "GPU activities of the typical region ({}{}):\n\n", markdown_code(r.name),
        t.region_pids.empty() ? std::string() : fmt::format(", pid {}", r.pid));
    put(out, "| # | activity | launched by | op chain | grid | block | occupancy | dur (µs) |\n");
    put(out, "|---:|---|---|---|---|---|---:|---:|\n");
    int n = 0;
    MarkdownKernelNames names;
    for (const auto& a : r.activities) {
      std::string chain;
      for (const auto& op : a.op_chain)
        chain += (chain.empty() ? "" : " → ") + op;  // escaped as one cell below
      bool kernel = a.kind == ActivityKind::kKernel;
      put(out, "| {} | {} | {} | {} | {} | {} | {} | {} |\n", ++n, names.cell(a.short_name, a.name),
          a.launch_api.empty() ? "?" : markdown_cell(a.launch_api), markdown_cell(chain),
          kernel ? format_dim3(a.grid) : "", kernel ? format_dim3(a.block) : "",
          kernel && a.occupancy_pct ? fmt::format("{:.0f}%", *a.occupancy_pct) : "",
          format_us(a.duration_ns));
    }
    put(out, "\n{}", names.details());
    if (!t.findings.empty()) {
      put(out, "Findings:\n\n");
      for (const auto& f : t.findings) {
        put(out, "- **{}**{}: {}", finding_id(f.kind),
            f.explains_ns >= 0 ? fmt::format(" (explains {} µs)", format_us(f.explains_ns)) : "",
            markdown_cell(f.summary));
        if (!f.suggestion.empty()) put(out, " *Suggestion:* {}", markdown_cell(f.suggestion));
        put(out, "\n");
      }
      put(out, "\n");
    }
  }
  return out;
}

std::string render_analyze_markdown(const AnalyzeOutput& output) {
  std::string out = render_markdown(output.traces);
  append_comparison_markdown(out, output);
  return out;
}

}  // namespace attnprof
