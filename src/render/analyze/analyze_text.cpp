// The terminal report of `attnprof analyze`: per trace, its regions, their medians, then the
// GPU activities of the typical region with what launched them.

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "attnprof/render.h"
#include "base/format_units.h"
#include "render/analyze/analyze_output.h"
#include "render/analyze/analyze_top_tables.h"
#include "render/analyze/region_table.h"
#include "render/attention/attention_calls_text.h"
#include "render/breakdown_words.h"
#include "render/collectives_output.h"
#include "render/critical_path_output.h"
#include "render/display_text.h"
#include "render/region_memory_text.h"
#include "render/region_words.h"

namespace attnprof {

namespace {

std::string occupancy_cell(const ActivityRow& a) {
  if (a.kind != ActivityKind::kKernel || !a.occupancy_pct) return "";
  std::string out = fmt::format("{:.1f}%", *a.occupancy_pct);
  if (a.kineto_occupancy_pct && *a.kineto_occupancy_pct > 0 &&
      std::abs(*a.kineto_occupancy_pct - *a.occupancy_pct) >= 1.0)
    out += fmt::format(" (kineto {:.0f}%)", *a.kineto_occupancy_pct);
  return out;
}

// Per region, how the op of each activity was found, when any was not by its own launch: a CUDA
// graph replay's by its capture (in the trace, or given apart), or unknown (docs/CUDA_GRAPHS.md,
// "Attribution").
void write_graph_attribution(std::string& out, const TraceAnalysis& t) {
  auto count = [](const RegionSummary& r, Attribution a) {
    return r.by_attribution[static_cast<size_t>(a)];
  };
  bool any = false;
  for (const auto& r : t.regions)
    any |= count(r, Attribution::kCaptureOrder) + count(r, Attribution::kSignature) +
               count(r, Attribution::kUnknown) >
           0;
  if (!any) return;
  std::string cells;
  for (const auto& r : t.regions)
    cells += fmt::format("{}{}/{}/{}/{}", cells.empty() ? "" : ", ", count(r, Attribution::kLaunch),
                         count(r, Attribution::kCaptureOrder), count(r, Attribution::kSignature),
                         count(r, Attribution::kUnknown));
  fmt::format_to(std::back_inserter(out),
                 "  op found by launch/capture_order/signature/unknown per region (unknown: op "
                 "unknown (graph replay)): {}\n",
                 cells);
}

void render_trace(std::string& out, const TraceAnalysis& t, const TextView& view) {
  fmt::format_to(std::back_inserter(out), "{}\n", escape_control(t.path));
  std::string devices;
  for (const auto& d : t.devices)
    devices += fmt::format("{}{} ({})", devices.empty() ? "" : ", ", escape_control(d.name),
                           d.description);
  fmt::format_to(std::back_inserter(out), "  {:.1f} MB of JSON, {} events; device: {}{}\n",
                 static_cast<double>(t.json_bytes) / 1e6, t.events,
                 devices.empty() ? "none recorded" : devices, distributed_words(t));
  if (t.events == 0) {
    // An empty event array is a valid trace (reader/read_trace.cpp): say what it means.
    out +=
        "  the trace holds no events: the profiler recorded nothing (did its schedule reach an "
        "active step?)\n";
  } else if (t.regions.empty()) {
    fmt::format_to(std::back_inserter(out), "  no region matches \"{}\"\n",
                   escape_control(t.region_pattern));
  } else {
    fmt::format_to(std::back_inserter(out), "  {} region(s) {}\n\n", t.regions.size(),
                   t.region_pattern.empty()
                       ? std::string("(no ProfilerStep#*: the whole trace)")
                       : fmt::format("matching \"{}\"", escape_control(t.region_pattern)));
    if (const std::string choice = region_choice_words(t); !choice.empty()) {
      out.pop_back();  // the hint belongs under the line it explains
      fmt::format_to(std::back_inserter(out), "  {}\n\n", choice);
    }
    // Regions of several processes (merged ranks) say whose they are.
    const bool pids = !t.region_pids.empty();
    auto label = [&](const RegionSummary& r) {
      std::string name = clip(r.name, 24);
      return pids ? fmt::format("{:<24} {:>8}", name, r.pid) : name;
    };
    const std::string header = pids ? fmt::format("{:<24} {:>8}", "region", "pid") : "region";
    const int width = pids ? 33 : 24;
    const std::vector<RegionColumn> columns =
        region_columns(RegionTable::kRegions, TableFormat::kText);
    const auto row = [&](const auto& number, const std::string& name, const auto& cell_of) {
      fmt::format_to(std::back_inserter(out), "  {:>3} {:<{}}", number, name, width);
      for (const RegionColumn& c : columns)
        fmt::format_to(std::back_inserter(out), " {:>{}}", cell_of(c), c.width);
    };
    row("#", header, [](const RegionColumn& c) { return c.header; });
    out += "\n";
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const auto& r = t.regions[i];
      row(i + 1, label(r),
          [&r](const RegionColumn& c) { return region_cell(c, r, TableFormat::kText); });
      out += static_cast<int>(i) == t.typical_region ? "  <- typical\n" : "\n";
    }
    row("", "median",
        [&t](const RegionColumn& c) { return median_cell(c, t.facts, TableFormat::kText); });
    out += "\n";
    write_graph_attribution(out, t);
    std::string syncs;
    for (const auto& r : t.regions)
      syncs += fmt::format("{}{}", syncs.empty() ? "" : ", ", r.gpu_syncs);
    bool any_sync = false;
    for (const auto& r : t.regions) any_sync |= r.gpu_syncs > 0;
    if (any_sync)
      fmt::format_to(std::back_inserter(out),
                     "  synchronizations on the GPU timeline (cuda_sync) per region: {}\n", syncs);
    for (const std::string& line : outside_regions_lines(t.outside_regions))
      fmt::format_to(std::back_inserter(out), "  {}\n", line);
    if (t.breakdown.span_ns > 0)
      fmt::format_to(std::back_inserter(out), "  {}\n", breakdown_line(t.breakdown, "\n  "));
    // Over all the trace's work, as HTA's idle time breakdown reads it, beside the typical
    // region's below.
    const std::string trace_idle = idle_causes_line(t.idle_by_stream, "the whole trace");
    if (!trace_idle.empty()) fmt::format_to(std::back_inserter(out), "  {}\n", trace_idle);
    if (t.typical_region >= 0) {
      const RegionSummary& typical = t.regions[static_cast<size_t>(t.typical_region)];
      const std::string idle = idle_causes_line(
          typical.idle_by_stream, fmt::format("the typical region (#{})", t.typical_region + 1));
      if (!idle.empty()) fmt::format_to(std::back_inserter(out), "  {}\n", idle);
    }
  }
  // What holds the step comes before any kernel is named.
  render_critical_path_text(out, t);
  render_top_tables_text(out, t, view);
  render_attention_calls_text(out, t);
  render_region_memory_text(out, t);
  render_collectives_text(out, t);
  if (view.activities && t.typical_region >= 0) {
    const auto& r = t.regions[t.typical_region];
    fmt::format_to(std::back_inserter(out),
                   "\n  GPU activities of the typical region (#{} {}{}), in order:\n",
                   t.typical_region + 1, escape_control(r.name),
                   t.region_pids.empty() ? std::string() : fmt::format(", pid {}", r.pid));
    fmt::format_to(std::back_inserter(out),
                   "  {:>3} {:>9} {:<44} {:<18} {:<14} {:<12} {:>4} {:>9} {}\n", "#", "dur µs",
                   "activity", "launched by", "grid", "block", "regs", "shared", "occupancy");
    int n = 0;
    for (const auto& a : r.activities) {
      bool kernel = a.kind == ActivityKind::kKernel;
      std::string name = clip(a.short_name, 44);
      fmt::format_to(
          std::back_inserter(out), "  {:>3} {:>9} {:<44} {:<18} {:<14} {:<12} {:>4} {:>9} {}\n",
          ++n, format_us(a.duration_ns), name,
          a.launch_api.empty() ? "?" : escape_control(a.launch_api),
          kernel ? format_dim3(a.grid) : "", kernel ? format_dim3(a.block) : "",
          kernel ? format_known_count(a.registers_per_thread) : "",
          kernel ? format_size(a.shared_memory_bytes) : format_size(a.bytes), occupancy_cell(a));
      if (!a.op_chain.empty()) {
        std::string chain;
        for (const auto& op : a.op_chain) chain += escape_control(op) + " -> ";
        fmt::format_to(std::back_inserter(out), "  {:>13} {}{}\n", "", chain,
                       a.launch_api.empty() ? "?" : escape_control(a.launch_api));
      }
    }
  }
  if (!t.findings.empty()) {
    fmt::format_to(std::back_inserter(out), "\n  findings:\n");
    for (const auto& f : t.findings) {
      const std::string explains =
          f.explains_ns >= 0 ? fmt::format(", explains {} µs", format_us(f.explains_ns)) : "";
      fmt::format_to(std::back_inserter(out), "  * [{}{}] {}\n", finding_id(f.kind), explains,
                     escape_control(f.summary));
      for (const auto& e : f.evidence)
        fmt::format_to(std::back_inserter(out), "      {}\n", escape_control(e));
      if (!f.suggestion.empty())
        fmt::format_to(std::back_inserter(out), "      -> {}\n", escape_control(f.suggestion));
    }
  }
  if (!t.markers.empty()) {
    // Counted by name, in the order they first appear: "typical region, 2 hidden copy, ...".
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& m : t.markers) {
      auto it = std::find_if(counts.begin(), counts.end(),
                             [&](const auto& c) { return c.first == m.name; });
      if (it == counts.end())
        counts.emplace_back(m.name, 1);
      else
        ++it->second;
    }
    std::string list;
    for (const auto& [name, n] : counts)
      list += (list.empty() ? "" : ", ") + (n > 1 ? fmt::format("{} x {}", n, name) : name);
    fmt::format_to(std::back_inserter(out), "\n  annotated by attnprof: {} marker{}: {}\n",
                   t.markers.size(), t.markers.size() == 1 ? "" : "s", list);
  }
  if (t.diagnostics.total() > 0) {
    fmt::format_to(std::back_inserter(out), "\n  warnings ({} in all):", t.diagnostics.total());
    for (size_t k = 0; k < static_cast<size_t>(DiagnosticKind::kCount); ++k) {
      auto kind = static_cast<DiagnosticKind>(k);
      if (uint64_t n = t.diagnostics.count(kind))
        fmt::format_to(std::back_inserter(out), " {} {};", n, diagnostic_name(kind));
    }
    out += "\n";
    // Byte 0 is the top-level object: a diagnostic there is about the trace, not one event.
    for (const auto& d : t.diagnostics.first())
      fmt::format_to(std::back_inserter(out), "    {}{}: {}\n",
                     d.byte_offset > 0 ? fmt::format("byte {}: ", d.byte_offset) : std::string(),
                     diagnostic_name(d.kind), escape_control(d.detail));
  }
  out += "\n";
}

}  // namespace

std::string render_text(const std::vector<TraceAnalysis>& traces, const TextView& view) {
  std::string out;
  for (const auto& t : traces) render_trace(out, t, view);
  return out;
}

std::string render_analyze_text(const AnalyzeOutput& output, const TextView& view) {
  std::string out = render_text(output.traces, view);
  append_comparison_text(out, output);
  return out;
}

}  // namespace attnprof
