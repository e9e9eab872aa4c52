// The report as one HTML page: inline CSS and SVG, system fonts, no script, no external resource,
// so that it opens anywhere, offline, and can be attached to an issue or a CI run as it is.

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/regions/region_waits.h"

#include "base/format_units.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "render/op_words.h"
#include "render/region_memory_text.h"
#include "study/render/projection_words.h"
#include "study/render/report.h"
#include "study/render/report_attention_calls.h"
#include "study/render/report_counters.h"
#include "study/render/report_headline.h"
#include "study/render/report_models.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"
#include "study/render/report_table.h"
#include "study/render/report_top_tables.h"

namespace attnprof {

namespace {

using svg::escape;

constexpr std::string_view kStyle = R"css(
:root{--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f1f5f9;--card:#fff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif}
.mono,td.kernel,code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace}
header.top{background:#0f172a;color:#e2e8f0}
header.top .inner,main{max-width:1320px;margin:0 auto;padding:0 24px}
header.top .inner{padding-top:18px;padding-bottom:14px}
h1{font-size:21px;margin:0 0 2px;color:#fff;font-weight:650}
h1 .tool{color:#a5b4fc}
.env{margin:0;color:#cbd5e1}
.src{margin:2px 0 0;color:#94a3b8;font-size:12px}
nav.toc{font-size:13px;padding:10px 20px}
nav.toc ol{display:inline;margin:0;padding:0;list-style:none}
nav.toc li{display:inline;margin-left:10px}
nav.toc li:not(:first-child)::before{content:"·";color:var(--muted);margin-right:10px}
nav.toc a{color:#3730a3;text-decoration:none;white-space:nowrap}
nav.toc a:hover{text-decoration:underline}
main{padding-bottom:40px}
section.card,article.card,footer.card,nav.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin:16px 0;box-shadow:0 1px 2px rgba(15,23,42,.05)}
h2{font-size:17px;margin:0 0 2px}
h3{font-size:14px;margin:14px 0 6px;color:#1e293b}
h3 .muted,.muted{color:var(--muted);font-weight:400}
p.lead{color:var(--muted);margin:0 0 10px}
.table-wrap,.svg-scroll{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-variant-numeric:tabular-nums}
table.study-table{width:100%;font-size:12px}
th{text-align:left;font-weight:600;color:#475569;border-bottom:2px solid var(--line);padding:6px 5px;white-space:nowrap;background:#f8fafc}
td{border-bottom:1px solid var(--line);padding:5px 5px;white-space:nowrap;vertical-align:top}
th.num,td.num{text-align:right}
td.kernel{font-size:11px;max-width:160px;overflow:hidden;text-overflow:ellipsis}
td.variant{font-weight:600}
.note-links{margin-top:2px;font-weight:400}
td.status{max-width:220px;overflow:hidden;text-overflow:ellipsis}
tbody tr:hover td{background:#f8fafc}
a.note,.notes .n{display:inline-block;min-width:19px;text-align:center;font-size:10.5px;font-weight:600;line-height:16px;padding:0 4px;margin:0 1px;border-radius:9px;text-decoration:none;border:1px solid;vertical-align:1px}
.act{background:#fef3c7;color:#92400e;border-color:#fcd34d}
.info{background:#f1f5f9;color:#475569;border-color:#cbd5e1}
.pill{display:inline-block;font-size:11px;line-height:16px;padding:0 7px;border-radius:9px;border:1px solid;margin:0 4px 0 6px}
.notes{margin-top:6px;font-size:13px}
.note-group{display:grid;grid-template-columns:150px minmax(0,1fr);gap:10px;border-top:1px solid var(--line);padding:6px 0}
.note-group .v{font-weight:600}
.note-group ol{list-style:none;margin:0;padding:0}
details.info-notes{margin:2px 0 4px}
.note-group li{margin:1px 0 5px;overflow-wrap:anywhere}
.note-group li:target{background:#fef9c3}
.notes .s{color:#166534}
.legend{font-size:12px;color:#334155;margin:4px 0 8px}
.legend span.item{margin-right:14px;white-space:nowrap}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;vertical-align:-2px;margin-right:5px}
.legend i.link{height:0;border-top:1.5px solid #475569;width:18px;vertical-align:3px;border-radius:0}
.legend i.path{height:0;border-top:2px solid #111827;width:18px;vertical-align:3px;border-radius:0}
svg{display:block}
svg text{pointer-events:none;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif}
svg rect.span:hover,svg rect.segment:hover,svg rect.share:hover{stroke:#0f172a;stroke-width:1}
svg path.launch-link:hover{stroke-opacity:1;stroke-width:2}
.charts{display:flex;flex-wrap:wrap;gap:18px;overflow-x:auto}
.charts>svg{flex:1 1 520px;max-width:570px}
p.meta{margin:0 0 8px;color:#334155;font-size:12.5px}
p.capped,.warn{color:#9a3412;background:#fff7ed;border:1px solid #fed7aa;border-radius:6px;padding:4px 8px;font-size:12px}
.headline p.lead-line{font-size:16px;margin:0 0 6px;color:var(--ink)}
.headline ul{margin:4px 0 0;padding-left:18px}
.headline li{margin:2px 0;overflow-wrap:anywhere}
.headline .slower{color:#9a3412;font-variant-numeric:tabular-nums}
details{margin-top:8px}
summary{cursor:pointer;color:#334155;font-size:12.5px}
table.activities{font-size:12px;margin-top:6px}
table.activities td.kernel{max-width:360px}
footer{color:var(--muted);font-size:12px}
footer ul{padding-left:18px}
footer li,p.lead,p.meta,h3{overflow-wrap:anywhere}
@media (max-width:900px){header.top .inner,main{padding-left:12px;padding-right:12px}section.card,article.card,footer.card,nav.card{padding:12px 12px}.note-group{grid-template-columns:minmax(0,1fr);gap:2px}}
)css";

// The variant's trace: a link to the file beside the page, to open in Perfetto UI
// (ui.perfetto.dev, "Open trace file"; `attnprof annotate` adds the findings to a copy).
std::string trace_link(const ReportVariant& v) {
  const std::string href = safe_href(v.trace_href);
  if (href.empty()) return fmt::format(R"(<span class="mono">{}</span>)", escape(v.trace_path));
  return fmt::format(
      R"html(<a class="mono trace-link" href="{}" title="open it in Perfetto UI (ui.perfetto.dev, Open trace file)">{}</a>)html",
      escape(href), escape(v.trace_path));
}

// The run's tables are `study-table` (the focus point's) and `study-table-N`; the backward
// study's `backward-table-N`; notes are `note-T-N` and `backward-note-T-N`.
std::string table_id(size_t index, const ReportTable& table, const std::string& prefix) {
  if (!prefix.empty()) return fmt::format("{}table-{}", prefix, index);
  return table.focus ? "study-table" : fmt::format("study-table-{}", index);
}

std::string variant_anchor(size_t index) {
  return fmt::format("variant-{}", index);
}

// The study's table(s), each row with links to its notes, and the notes below; `prefix` keeps
// the ids of a second study's tables apart (table_id).
void write_table_list(std::string& out, const std::vector<ReportTable>& tables,
                      const std::string& prefix) {
  for (size_t t = 0; t < tables.size(); ++t) {
    const ReportTable& table = tables[t];
    if (!table.heading.empty()) {
      put(out, "<h3>{}{}</h3>", escape(table.heading),
          table.focus && tables.size() > 1
              ? R"( <span class="muted">(the timelines below show this one)</span>)"
              : "");
    }
    put(out, R"(<div class="table-wrap"><table class="study-table" id="{}"><thead><tr>)",
        table_id(t, table, prefix));
    for (size_t c = 0; c < table.header.size(); ++c)
      put(out, R"(<th{}>{}</th>)", table.numeric[c] ? R"( class="num")" : "",
          escape(table.header[c]));
    put(out, "</tr></thead><tbody>");
    // Notes are numbered through the table; each row links to its own beside its name.
    int note_number = 0;
    for (size_t r = 0; r < table.rows.size(); ++r) {
      put(out, R"(<tr data-variant="{}">)", escape(table.variants[r]));
      for (size_t c = 0; c < table.rows[r].size(); ++c) {
        const std::string& cell = table.rows[r][c];
        if (c == 0) {
          put(out, R"(<td class="variant">{}<div class="note-links">)", escape(cell));
          for (const ReportNote& note : table.notes[r]) {
            ++note_number;
            put(out, R"(<a class="note {}" href="#{}note-{}-{}" title="{}: {}">{}</a>)",
                is_actionable_finding(note.id) ? "act" : "info", prefix, t, note_number,
                escape(note.id), escape(note.summary), note_number);
          }
          put(out, "</div></td>");
        } else if (table.kernel_names[c] || table.statuses[c]) {
          // Long cells are cut by the style sheet; their title keeps the whole text.
          put(out, R"(<td class="{}" title="{}">{}</td>)", table.statuses[c] ? "status" : "kernel",
              escape(cell), escape(cell));
        } else {
          put(out, R"(<td{}>{}</td>)", table.numeric[c] ? R"( class="num")" : "", escape(cell));
        }
      }
      put(out, "</tr>");
    }
    put(out, "</tbody></table></div>");
    if (note_number > 0) {
      put(out,
          R"(<div class="notes"><h3>What the traces show <span class="muted">(attnprof's findings)</span></h3>)");
      int n = 0;
      for (size_t r = 0; r < table.rows.size(); ++r) {
        if (table.notes[r].empty()) continue;
        put(out, R"(<div class="note-group"><div class="v">{}</div><div>)",
            escape(table.variants[r]));
        // The findings that explain time, then the informational ones folded away (ranked so
        // by report_table.cpp).
        const auto& notes = table.notes[r];
        size_t informational = 0;
        for (const ReportNote& note : notes) informational += !is_actionable_finding(note.id);
        bool folded = false;
        put(out, "<ol>");
        for (const ReportNote& note : notes) {
          ++n;
          const bool actionable = is_actionable_finding(note.id);
          if (!actionable && !folded) {
            folded = true;
            put(out,
                R"(</ol><details class="info-notes"><summary>{} informational finding{} (how the kernels are built, not what costs time)</summary><ol>)",
                informational, informational == 1 ? "" : "s");
          }
          const char* kind = actionable ? "act" : "info";
          put(out,
              R"(<li id="{}note-{}-{}"><span class="n {}">{}</span><span class="pill {}">{}</span> {})",
              prefix, t, n, kind, n, kind, escape(note.id), escape(note.summary));
          if (!note.suggestion.empty())
            put(out, R"( <span class="s">→ {}</span>)", escape(note.suggestion));
          put(out, "</li>");
        }
        out += folded ? "</ol></details></div></div>" : "</ol></div></div>";
      }
      put(out, "</div>");
    }
  }
}

void write_tables(std::string& out, const ReportData& data) {
  put(out, R"(<section class="card" id="table"><h2>{}</h2>)",
      data.run ? "The study" : "The traces");
  put(out, R"(<p class="lead">{}</p>)",
      data.run
          ? "As the bench measured it (summary.json); the numbered notes are attnprof's findings "
            "in each variant's trace."
          : "Medians over each trace's regions; the numbered notes are attnprof's findings.");
  write_table_list(out, report_tables(data), "");
  put(out, "</section>");
}

// The headline (analysis/headline.h): the fastest variant, its speed-up over naive, and one
// reason for each slow variant, weighed by the time it explains.
void write_headline(std::string& out, const std::optional<HeadlineWords>& w) {
  if (!w) return;
  // The space as its own argument: g++ 12 warns (-Wrestrict, falsely) on " " + string here.
  put(out, R"(<div class="headline">)");
  if (!w->step.empty()) put(out, R"(<p class="lead-line step">{}</p>)", escape(w->step));
  put(out, R"(<p class="lead-line"><b>{}</b> {}{}{}</p>)", escape(w->fastest), escape(w->lead),
      w->as_fast.empty() ? "" : " ", escape(w->as_fast));
  if (!w->slow.empty()) {
    put(out,
        R"(<p class="meta">Why the others are slower (the finding that explains the most of their time):</p><ul>)");
    for (const HeadlineWords::Slow& s : w->slow)
      put(out, R"(<li data-variant="{}"><b>{}</b> <span class="slower">{}</span>: {}</li>)",
          escape(s.variant), escape(s.variant), escape(s.how_slow), escape(s.reason));
    put(out, "</ul>");
  }
  put(out, "</div>");
}

// The backward study beside the run: its headline, its table(s) and their findings.
void write_backward(std::string& out, const ReportData& data) {
  if (!data.backward) return;
  put(out, R"(<section class="card" id="backward"><h2>The backward study</h2>)");
  put(out,
      R"(<p class="lead">Forward and backward timed together (<code>backward/summary.json</code>); the findings are those of each variant's trace, its forward regions, then its backward ones.</p>)");
  write_headline(out, report_headline_words(*data.backward));
  write_table_list(out, backward_tables(data), "backward-");
  put(out, "</section>");
}

// The other studies beside the run (other shapes: GQA, a decode step, a window), each its own
// section: its headline, its table(s) and their findings.
std::string beside_anchor(const ReportBeside& beside) {
  std::string anchor = "beside-";
  for (char c : beside.folder) anchor += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return anchor;
}

void write_beside(std::string& out, const ReportData& data) {
  for (const ReportBeside& beside : data.beside) {
    const std::string anchor = beside_anchor(beside);
    put(out, R"(<section class="card" id="{}"><h2>Beside it: <code>{}/</code></h2>)", anchor,
        escape(beside.folder));
    put(out,
        R"(<p class="lead">Another study in the run's folder (<code>{}/summary.json</code>), as the bench measured it; the findings are those it recorded from each variant's trace.</p>)",
        escape(beside.folder));
    write_headline(out, report_headline_words(beside));
    write_table_list(out, beside_tables(beside), anchor + "-");
    const std::vector<std::string> notes = methods_beside(data, beside);
    if (!notes.empty()) {
      put(out, R"(<p class="meta">Measured as the run, and:</p><ul>)");
      for (const std::string& m : notes) put(out, "<li>{}</li>", escape(m));
      put(out, "</ul>");
    }
    put(out, "</section>");
  }
}

// The kernel classes that appear in the variants' typical regions, in the order reports list them.
std::array<bool, kKernelClassCount> classes_present(const ReportData& data) {
  std::array<bool, kKernelClassCount> present{};
  for (const ReportVariant& v : data.variants)
    for (size_t c = 0; c < kKernelClassCount; ++c) present[c] = present[c] || v.class_ns[c] > 0;
  return present;
}

// The classes' colors as HTML items, which wrap at any width (in the SVG they ran past a narrow
// window's edge).
void write_class_legend_items(std::string& out, const ReportData& data) {
  const auto present = classes_present(data);
  for (KernelClass c : kAllKernelClasses) {
    if (!present[static_cast<size_t>(c)]) continue;
    put(out, R"(<span class="item"><i style="background:{}"></i>{}</span>)", svg::class_color(c),
        escape(kernel_class_label(c)));
  }
}

void write_class_bars(std::string& out, const ReportData& data) {
  std::vector<svg::ClassBar> bars;
  for (const ReportVariant& v : data.variants)
    bars.push_back({v.name, v.timeline.has_value(), v.class_ns});
  put(out, R"(<section class="card" id="classes"><h2>GPU time by kernel class</h2>)");
  put(out,
      R"(<p class="lead">Each variant's typical region: the time of its kernels, copies and memsets, by what the kernel does (from its name: GEMM, softmax, elementwise, copy, fused attention, ...). Hover a segment for its time.</p>)");
  put(out, R"(<div class="legend class-legend">)");
  write_class_legend_items(out, data);
  put(out, "</div>");
  out += R"(<div class="svg-scroll">)" + svg::class_bars(bars) + "</div>";
  put(out, "</section>");
}

// Each variant's typical region: its idle time by cause, launch delays and queues, under the
// names check and diff use (analysis/regions/region_waits.h, docs/BREAKDOWN.md). "-" where no
// launch call of the region is in the trace.
void write_waits_table(std::string& out, const ReportData& data) {
  put(out,
      R"(<details class="waits"><summary>Idle time by cause, launch delays and queues, per variant</summary>)");
  put(out,
      R"(<div class="table-wrap"><table class="waits" id="waits"><thead><tr><th>variant</th>)");
  for (const WaitMetric& m : wait_metrics())
    if (m.in_report) put(out, R"(<th class="num">{}</th>)", m.name);
  put(out, "</tr></thead><tbody>");
  for (const ReportVariant& v : data.variants) {
    if (!v.analysis || v.analysis->typical_region < 0) continue;
    const RegionWaits w =
        region_waits(v.analysis->regions[static_cast<size_t>(v.analysis->typical_region)]);
    put(out, R"(<tr><td class="variant">{}</td>)", escape(v.name));
    for (const WaitMetric& m : wait_metrics()) {
      if (!m.in_report) continue;
      const std::optional<double> value = m.of_region(w);
      put(out, R"(<td class="num">{}</td>)",
          !value                      ? std::string("-")
          : m.unit == WaitUnit::kTime ? format_us(*value)
                                      : format_count(*value));
    }
    put(out, "</tr>");
  }
  put(out, "</tbody></table></div></details>");
}

// Each variant's typical region, its span cut into compute, communication, memory and idle.
void write_breakdown_bars(std::string& out, const ReportData& data) {
  std::vector<svg::BreakdownBar> bars;
  for (const ReportVariant& v : data.variants) {
    svg::BreakdownBar bar{v.name, {}};
    if (v.analysis && v.analysis->typical_region >= 0)
      bar.breakdown =
          v.analysis->regions[static_cast<size_t>(v.analysis->typical_region)].breakdown;
    bars.push_back(std::move(bar));
  }
  put(out, R"(<section class="card" id="breakdown"><h2>Where the GPU time goes</h2>)");
  put(out,
      R"(<p class="lead">Each variant's typical region, from its first GPU activity's start to its last one's end: compute kernels, communication (NCCL) not overlapping them, copies and memsets overlapping neither, and idle. Hover a segment for its time. Below, its idle time by cause, launch delays and queues, under the names check and diff use (docs/BREAKDOWN.md).</p>)");
  out += R"(<div class="svg-scroll">)" + svg::breakdown_bars(bars) + "</div>";
  write_waits_table(out, data);
  put(out, "</section>");
}

struct SweepAxis {
  const char* label;
  int64_t RunProblem::*field;
};
constexpr SweepAxis kSweepAxes[] = {{"sequence length", &RunProblem::seq},
                                    {"head dim", &RunProblem::head_dim},
                                    {"batch", &RunProblem::batch},
                                    {"heads", &RunProblem::heads}};

// The sizes that vary in a sweep, sequence length first: the first is the plots' x axis.
std::vector<const SweepAxis*> varying_axes(const std::vector<SweepRow>& rows) {
  std::vector<const SweepAxis*> axes;
  for (const SweepAxis& axis : kSweepAxes) {
    std::set<int64_t> values;
    for (const SweepRow& row : rows) values.insert(row.problem.*axis.field);
    if (values.size() > 1) axes.push_back(&axis);
  }
  return axes;
}

void write_sweep(std::string& out, const ReportData& data) {
  const std::vector<const SweepAxis*> axes = varying_axes(data.sweep);
  if (axes.empty()) return;
  const SweepAxis* axis = axes.front();
  // A line per variant, and per value of any other size that varies ("naive, head dim 128").
  std::map<std::string, size_t> order;
  std::vector<svg::Series> time, memory;
  for (const SweepRow& row : data.sweep) {
    std::string name = row.variant;
    for (size_t i = 1; i < axes.size(); ++i)
      name += fmt::format(", {} {}", axes[i]->label, row.problem.*(axes[i]->field));
    auto [it, added] = order.emplace(name, time.size());
    if (added) {
      time.push_back({name, {}});
      memory.push_back({name, {}});
    }
    const double x = static_cast<double>(row.problem.*(axis->field));
    if (row.median_ms && *row.median_ms > 0)
      time[it->second].points.emplace_back(x, *row.median_ms * 1e6);
    if (row.peak_allocated_bytes && *row.peak_allocated_bytes > 0)
      memory[it->second].points.emplace_back(x, static_cast<double>(*row.peak_allocated_bytes));
  }
  for (auto* list : {&time, &memory})
    for (svg::Series& s : *list) std::sort(s.points.begin(), s.points.end());
  put(out, R"(<section class="card" id="sweep"><h2>Across sizes</h2>)");
  put(out,
      R"(<p class="lead">From <code>{}</code>: per variant, the GPU median per call and the peak memory against {}, both axes logarithmic. Hover a point for its value.</p><div class="charts">)",
      escape(data.sweep_source), axis->label);
  out += svg::loglog_chart({"sweep-time", "GPU median time per call", axis->label, time,
                            [](double ns) { return format_duration(ns); }, format_tick_duration,
                            false});
  out += svg::loglog_chart({"sweep-memory", "Peak memory allocated per call", axis->label, memory,
                            [](double bytes) { return format_bytes(static_cast<int64_t>(bytes)); },
                            format_tick_bytes, true});
  put(out, "</div></section>");
}

void write_timeline_legend(std::string& out, const ReportData& data) {
  put(out, R"(<div class="legend"><span class="item"><b>CPU</b></span>)");
  for (auto [kind, label] : {std::pair{SpanKind::kUserAnnotation, "user annotation"},
                             {SpanKind::kCpuOp, "CPU op (nested)"},
                             {SpanKind::kRuntime, "CUDA runtime / driver call"}}) {
    put(out, R"(<span class="item"><i style="background:{}"></i>{}</span>)",
        svg::cpu_color(kind, 0), label);
  }
  put(out, R"(<span class="item"><b>GPU</b></span>)");
  write_class_legend_items(out, data);
  put(out, R"(<span class="item"><i class="link"></i>launch → the GPU work it launched</span>)");
  put(out,
      R"(<span class="item"><i class="path"></i>critical path (dashed: GPU idle or CPU between ops)</span></div>)");
}

// A training step can run thousands of kernels: the list stops there (analyze lists them all).
constexpr size_t kMaxActivityRows = 300;

void write_activities(std::string& out, const RegionTimeline& t) {
  const size_t shown = std::min(t.activities.size(), kMaxActivityRows);
  put(out,
      R"(<details><summary>GPU activities of this region ({}{})</summary><div class="table-wrap"><table class="activities"><thead><tr>)",
      t.activities.size(),
      shown < t.activities.size() ? fmt::format(", the first {} listed", shown) : "");
  // Each column's header and whether it holds numbers (aligned right).
  constexpr std::pair<const char*, bool> kHeader[] = {
      {"#", true},          {"activity", false}, {"class", false},       {"start", true},
      {"duration", true},   {"grid", false},     {"block", false},       {"regs", true},
      {"shared mem", true}, {"occupancy", true}, {"launched by", false},
  };
  for (auto [h, numeric] : kHeader)
    put(out, R"(<th{}>{}</th>)", numeric ? R"( class="num")" : "", h);
  put(out, "</tr></thead><tbody>");
  int n = 0;
  for (size_t i = 0; i < shown; ++i) {
    const ActivityRow& a = t.activities[i];
    const bool kernel = a.kind == ActivityKind::kKernel;
    std::string occupancy = a.occupancy_pct ? fmt::format("{:.1f} %", *a.occupancy_pct) : "";
    if (a.occupancy_pct && !a.occupancy_limiter.empty())
      occupancy += " (" + a.occupancy_limiter + ")";
    put(out,
        R"(<tr><td class="num">{}</td><td class="kernel" title="{}">{}</td><td>{}</td><td class="num">+{}</td><td class="num">{}</td><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td></tr>)",
        ++n, escape(clip(a.name, 300)), escape(a.short_name),
        escape(kernel_class_label(classify_activity(a))),
        escape(format_duration(static_cast<double>(a.start_ns))),
        escape(format_duration(static_cast<double>(a.duration_ns))),
        kernel ? format_dim3(a.grid) : "", kernel ? format_dim3(a.block) : "",
        kernel ? format_known_count(a.registers_per_thread) : "",
        kernel ? format_size(a.shared_memory_bytes) : format_size(a.bytes), escape(occupancy),
        escape(launch_chain(a.op_chain, a.launch_api, " → ")));
  }
  put(out, "</tbody></table></div></details>");
}

std::string region_meta(const ReportVariant& v) {
  const TraceAnalysis& a = *v.analysis;
  const RegionSummary& r = a.regions[a.typical_region];
  std::string copies = std::to_string(r.memcpy) + " memcpy";
  std::string kinds;
  for (const auto& [kind, n] : r.memcpy_by_kind) kinds += (kinds.empty() ? "" : ", ") + kind;
  if (!kinds.empty()) copies += " (" + kinds + ")";
  return fmt::format("{} kernel{} · {} · {} memset · GPU busy {} · CPU {} · wall {} (on the CPU)",
                     r.kernels, r.kernels == 1 ? "" : "s", copies, r.memset,
                     format_duration(r.gpu_busy_ns), format_duration(r.cpu_ns),
                     format_duration(r.wall_ns));
}

void write_timelines(std::string& out, const ReportData& data) {
  put(out, R"(<section class="card" id="timelines"><h2>Timelines of a typical region</h2>)");
  put(out,
      R"(<p class="lead">Per variant, the region closest to the medians ({}): CPU threads above, GPU streams below, on one time axis from the region's start; an arrow joins each launch to the GPU work it started. Hover any span for its name, duration, grid, block and occupancy.</p>)",
      data.region_pattern.empty()
          ? std::string("regions as analyze finds them")
          : fmt::format("regions matching <code>{}</code>", escape(data.region_pattern)));
  write_timeline_legend(out, data);
  put(out, "</section>");
  for (size_t i = 0; i < data.variants.size(); ++i) {
    const ReportVariant& v = data.variants[i];
    put(out, R"(<article class="card timeline-card" id="{}" data-variant="{}">)", variant_anchor(i),
        escape(v.name));
    if (!v.timeline) {
      put(out, R"(<h3>{}</h3><p class="warn">No timeline: {}</p></article>)", escape(v.name),
          escape(v.missing));
      continue;
    }
    const TraceAnalysis& a = *v.analysis;
    put(out,
        R"(<h3>{} <span class="muted">· typical <code>{}</code> region, #{} of {} · {}</span></h3>)",
        escape(v.name), escape(v.timeline->region_name), a.typical_region + 1, a.regions.size(),
        trace_link(v));
    put(out, R"(<p class="meta">{} · {} launch link(s) drawn</p>)", escape(region_meta(v)),
        v.timeline->links.size());
    out += R"(<div class="svg-scroll">)" +
           svg::timeline(*v.timeline, fmt::format("timeline-{}", i), v.name) + "</div>";
    // Memory beside time: the typical region's allocated memory on the same time axis.
    if (a.typical_region >= 0)
      for (const RegionMemory& m : a.regions[a.typical_region].memory) {
        put(out, R"(<p class="meta">device {}: {}</p>)", m.device, escape(memory_peak_words(m)));
        out += R"(<div class="svg-scroll">)" +
               svg::memory_chart(m, v.timeline->end_ns, fmt::format("memory-{}-{}", i, m.device),
                                 v.name) +
               "</div>";
      }
    // When the GPU runs long after the CPU is done, the CPU side is a sliver of the axis: show
    // it again, zoomed to where the CPU is busy.
    const RegionTimeline& t = *v.timeline;
    int64_t cpu_end = 0;
    for (const TimelineLane& lane : t.lanes)
      if (!lane.gpu)
        for (const TimelineSpan& s : lane.spans)
          cpu_end = std::max(cpu_end, s.start_ns + s.duration_ns);
    if (cpu_end > 0 && cpu_end * 4 < t.end_ns) {
      const int64_t window = cpu_end + cpu_end / 20;
      put(out,
          R"(<details class="zoom" open><summary>The CPU side, zoomed to its first {}</summary>)",
          escape(format_duration(static_cast<double>(window))));
      out += R"(<div class="svg-scroll">)" +
             svg::timeline(t, fmt::format("timeline-zoom-{}", i), v.name, window) + "</div>";
      put(out, "</details>");
    }
    if (v.timeline->capped) {
      put(out,
          R"(<p class="capped">This region is too large to draw whole: lanes with more spans show their longest ones (the count is beside the lane), and CPU ops nested deeper than 12 levels are left out.</p>)");
    }
    write_activities(out, *v.timeline);
    write_top_tables_html(out, a.regions[a.typical_region]);
    put(out, "</article>");
  }
}

void write_footer(std::string& out, const ReportData& data) {
  put(out, R"(<footer class="card" id="about"><h2>About these numbers</h2>)");
  if (data.run && !data.run->methods.empty()) {
    put(out, "<p>How each column of the study's table is measured (from summary.json):</p><ul>");
    for (const std::string& m : data.run->methods) put(out, "<li>{}</li>", escape(m));
    put(out, "</ul>");
  }
  for (const std::string& w : data.warnings) put(out, R"(<p class="warn">{}</p>)", escape(w));
  std::string inputs;
  for (const std::string& in : data.inputs) inputs += (inputs.empty() ? "" : " ") + in;
  put(out,
      R"(<p>Written by <code>attnprof report {}</code>. The page is self-contained: no script, no font or image to fetch; the plots are SVG drawn by attnprof.</p></footer>)",
      escape(inputs));
}

// bench --from-trace: what switching the trace's attention would save, under the headline.
void write_projection(std::string& out, const ReportData& data) {
  if (!data.run) return;
  const auto words = projection_words(*data.run, data.conclusions);
  if (!words) return;
  put(out,
      R"(<section class="card projection" id="projection"><h2>From the trace</h2><p>{}</p><ul>)",
      escape(words->heading));
  for (const std::string& line : words->lines) put(out, "<li>{}</li>", escape(line));
  put(out, "</ul></section>");
}

bool has_sweep(const ReportData& data) {
  return !varying_axes(data.sweep).empty();
}

// The table of contents under the headline: a link to every section, in the page's order
// (render_report_html writes them so), the variants' timelines as one entry.
void write_contents(std::string& out, const ReportData& data) {
  put(out, R"(<nav class="card toc" id="contents" aria-label="contents"><b>Contents</b><ol>)");
  auto item = [&](const std::string& id, const std::string& title) {
    put(out, R"(<li><a href="#{}">{}</a></li> )", id, escape(title));
  };
  if (data.run && projection_words(*data.run, data.conclusions))
    item("projection", "From the trace");
  item("table", data.run ? "The study" : "The traces");
  item("classes", "GPU time by kernel class");
  item("breakdown", "Where the GPU time goes");
  if (has_sweep(data)) item("sweep", "Across sizes");
  if (has_counters_section(data)) item("counters", "Counters and the roofline");
  if (has_attention_calls_section(data)) item("attention", "Attention calls");
  if (!data.models.empty()) {
    put(out, R"(<li><a href="#models">The models</a>:)");
    for (size_t i = 0; i < data.models.size(); ++i)
      put(out, R"({} <a href="#{}">{}</a>)", i == 0 ? "" : ",", model_anchor(data.models[i]),
          escape(data.models[i].name));
    put(out, "</li> ");
  }
  if (data.backward) item("backward", "The backward study");
  for (const ReportBeside& beside : data.beside) item(beside_anchor(beside), beside.folder + "/");
  put(out, R"(<li><a href="#timelines">Timelines</a>:)");
  for (size_t i = 0; i < data.variants.size(); ++i)
    put(out, R"({} <a href="#{}">{}</a>)", i == 0 ? "" : ",", variant_anchor(i),
        escape(data.variants[i].name));
  put(out, "</li> ");
  item("about", "About these numbers");
  put(out, "</ol></nav>");
}

}  // namespace

std::string render_report_html(const ReportData& data) {
  std::string out;
  const std::string env = environment_line(data);
  put(out,
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
  put(out, "<title>attnprof report{}</title><style>{}</style></head><body>",
      env.empty() ? "" : escape(" · " + env), kStyle);
  put(out,
      R"(<header class="top"><div class="inner"><h1><span class="tool">attnprof</span> report</h1>)");
  if (!env.empty()) put(out, R"(<p class="env">{}</p>)", escape(env));
  std::string source = data.run ? data.run->path : fmt::format("{} trace(s)", data.variants.size());
  put(out, R"(<p class="src">{}{}</p></div></header><main>)", escape(source),
      data.region_pattern.empty() ? ""
                                  : escape(fmt::format(" · regions `{}`", data.region_pattern)));
  const std::optional<HeadlineWords> headline = report_headline_words(data);
  if (headline) {
    put(out, R"(<section class="card headline" id="headline"><h2>In short</h2>)");
    write_headline(out, headline);
    put(out, "</section>");
  }
  write_contents(out, data);
  write_projection(out, data);
  write_tables(out, data);
  // The plots, before the long tables of the studies beside it and of each variant.
  write_class_bars(out, data);
  write_breakdown_bars(out, data);
  if (has_sweep(data)) write_sweep(out, data);
  write_counters_section(out, data);
  write_attention_calls_html(out, data);
  write_models_html(out, data);
  write_backward(out, data);
  write_beside(out, data);
  write_timelines(out, data);
  write_footer(out, data);
  put(out, "</main></body></html>\n");
  return out;
}

}  // namespace attnprof
