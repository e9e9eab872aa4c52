// `attnprof diff --format html`: the diff as a page of its own, in the order of the text and
// Markdown (render/diff/diff_output.cpp). Self-contained (no script, no request), and laid out to
// read at 800 px: wide tables scroll inside their card, long names wrap (tests/browser).

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "base/format_units.h"
#include "render/diff/diff_output.h"
#include "render/diff/diff_quantity.h"
#include "render/diff/diff_views_output.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "render/fact_label.h"
#include "render/op_words.h"
#include "render/region_words.h"
#include "render/spread_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

constexpr std::string_view kStyle = R"css(
:root{--ink:#0f172a;--muted:#64748b;--line:#e2e8f0;--bg:#f1f5f9;--card:#fff}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif}
code,td.name{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"DejaVu Sans Mono","Liberation Mono",monospace}
header.top{background:#0f172a;color:#e2e8f0}
header.top .inner,main{max-width:1320px;margin:0 auto;padding:0 24px}
header.top .inner{padding-top:18px;padding-bottom:14px}
h1{font-size:21px;margin:0 0 2px;color:#fff;font-weight:650}
h1 .tool{color:#a5b4fc}
.src{margin:2px 0 0;color:#94a3b8;font-size:12px;overflow-wrap:anywhere}
section.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 20px;margin:16px 0;box-shadow:0 1px 2px rgba(15,23,42,.05)}
h2{font-size:17px;margin:0 0 6px}
p.lead{color:var(--muted);margin:0 0 10px;overflow-wrap:anywhere}
.headline p{font-size:15px;margin:0 0 6px;overflow-wrap:anywhere}
.warn{color:#9a3412;background:#fff7ed;border:1px solid #fed7aa;border-radius:6px;padding:4px 8px;font-size:12px}
.table-wrap{overflow-x:auto;max-width:100%}
table{border-collapse:collapse;font-variant-numeric:tabular-nums;font-size:12.5px}
th{text-align:left;font-weight:600;color:#475569;border-bottom:2px solid var(--line);padding:6px 5px;white-space:nowrap;background:#f8fafc}
td{border-bottom:1px solid var(--line);padding:5px 5px;white-space:nowrap;vertical-align:top}
th.num,td.num{text-align:right}
td.name{font-size:11.5px;white-space:normal;overflow-wrap:anywhere;min-width:180px;max-width:420px}
td.text{white-space:normal;min-width:70px}
td.changed{color:#9a3412;font-weight:600}
tbody tr:hover td{background:#f8fafc}
@media (max-width:900px){header.top .inner,main{padding-left:12px;padding-right:12px}section.card{padding:12px 12px}th{white-space:normal}td.name{min-width:120px}}
)css";

// A table's cells: text, aligned left or right (numbers).
struct Cell {
  std::string text;
  bool number = false;
  std::string css;  // an extra class: "name", "changed"
};

void table(std::string& out, const std::string& id, const std::vector<Cell>& header,
           const std::vector<std::vector<Cell>>& rows) {
  put(out, R"(<div class="table-wrap"><table id="{}"><thead><tr>)", id);
  for (const Cell& h : header)
    put(out, "<th{}>{}</th>", h.number ? R"( class="num")" : "", html_escape(h.text));
  put(out, "</tr></thead><tbody>");
  for (const auto& row : rows) {
    put(out, "<tr>");
    for (const Cell& c : row) {
      std::string css = c.number ? "num" : "";
      if (!c.css.empty()) css += (css.empty() ? "" : " ") + c.css;
      put(out, "<td{}>{}</td>", css.empty() ? "" : fmt::format(R"( class="{}")", css),
          html_escape(c.text));
    }
    put(out, "</tr>");
  }
  put(out, "</tbody></table></div>");
}

Cell verdict(bool changed) {
  return Cell{changed ? "changed" : "", false, changed ? "changed" : ""};
}

std::vector<Cell> quantity_row(const std::string& label, const QuantityDiff& q, bool is_time) {
  if (!is_time)
    return {Cell{label}, Cell{format_spread_count(q.a), true}, Cell{format_spread_count(q.b), true},
            Cell{signed_count(q.delta), true}, verdict(q.changed)};
  std::string delta = signed_us(q.delta);
  if (q.a.median != 0) delta += fmt::format(" ({:+.1f}%)", 100.0 * q.delta / q.a.median);
  return {Cell{label}, Cell{format_spread_us(q.a), true}, Cell{format_spread_us(q.b), true},
          Cell{delta, true}, verdict(q.changed)};
}

void per_region(std::string& out, const TraceDiff& d) {
  std::vector<std::vector<Cell>> rows;
  for (const FactDiff& q : d.per_region) {
    const FactComparison& how = comparison_of(q);
    if (q.counts_by_kind) {
      for (const auto& [kind, by_kind] : q.by_kind)
        rows.push_back(quantity_row(how.label + " " + kind, by_kind, false));
      continue;
    }
    if (!shown_in_tables(q)) continue;
    rows.push_back(quantity_row(fact_label(how.label, how.name, how.unit, UnitStyle::kSpaced),
                                q.quantity, how.unit == FactUnit::kMicroseconds));
  }
  put(out, R"(<section class="card" id="per-region"><h2>Per region</h2>)");
  put(out, R"(<p class="lead">Median (min..max) over each trace's regions.</p>)");
  table(out, "per-region-table",
        {Cell{"per region"}, Cell{"A", true}, Cell{"B", true}, Cell{"B − A", true}, Cell{""}},
        rows);
  put(out, "</section>");

  rows.clear();
  for (const ClassDiff& c : d.classes) {
    std::vector<Cell> row =
        quantity_row(std::string(kernel_class_label(c.kernel_class)), c.time_ns, true);
    row.insert(row.begin() + 1, Cell{format_count(c.count.a.median), true});
    row.insert(row.begin() + 2, Cell{format_count(c.count.b.median), true});
    row.back() = verdict(c.time_ns.changed || c.count.changed);
    rows.push_back(std::move(row));
  }
  put(out, R"(<section class="card" id="classes"><h2>GPU time per kernel class</h2>)");
  table(out, "classes-table",
        {Cell{"class"}, Cell{"A n", true}, Cell{"B n", true}, Cell{"A µs", true},
         Cell{"B µs", true}, Cell{"B − A µs", true}, Cell{""}},
        rows);
  put(out, "</section>");
}

std::string pct(const DiffRow& r) {
  const auto p = r.delta_pct();
  return p ? fmt::format("{:+.1f}%", *p) : std::string("new");
}

void views(std::string& out, const TraceDiff& d, size_t top) {
  for (const DiffViewName& v : kDiffViewNames) {
    const std::vector<DiffRow>& list = diff_view(d.views, v.view);
    if (list.empty()) continue;
    const size_t shown = std::min(top, list.size());
    const bool attention = v.view == DiffView::kAttention;
    put(out, R"(<section class="card view" id="{}"><h2>{}</h2>)", v.id, html_escape(v.title));
    put(out,
        R"(<p class="lead">Per region (the mean over the regions), largest change first{}.</p>)",
        shown < list.size() ? fmt::format(": {} of {}", shown, list.size()) : "");
    std::vector<Cell> header{Cell{std::string(v.noun)}};
    if (attention)
      for (const char* h : {"A ran", "B ran"}) header.push_back(Cell{h});
    for (const char* h : {"A n", "B n"}) header.push_back(Cell{h, true});
    if (attention)
      for (const char* h : {"A µs/call", "B µs/call"}) header.push_back(Cell{h, true});
    else
      for (const char* h : {"A µs", "B µs"}) header.push_back(Cell{h, true});
    for (const char* h : {"B − A µs", "%"}) header.push_back(Cell{h, true});
    header.push_back(Cell{""});
    std::vector<std::vector<Cell>> rows;
    for (size_t i = 0; i < shown; ++i) {
      const DiffRow& r = list[i];
      std::vector<Cell> row{Cell{r.name, false, "name"}};
      if (attention) {
        // What ran ("cudnn bf16 causal") wraps at its spaces, so that the table fits 800 px.
        row.push_back(Cell{r.a_detail, false, "text"});
        row.push_back(Cell{r.b_detail, false, "text"});
      }
      row.push_back(Cell{format_count(r.a_count), true});
      row.push_back(Cell{format_count(r.b_count), true});
      if (attention) {
        row.push_back(Cell{per_call(r.a_ns, r.a_count), true});
        row.push_back(Cell{per_call(r.b_ns, r.b_count), true});
      } else {
        row.push_back(Cell{format_us(r.a_ns), true});
        row.push_back(Cell{format_us(r.b_ns), true});
      }
      row.push_back(Cell{signed_us(r.delta_ns), true});
      row.push_back(Cell{pct(r), true});
      row.push_back(verdict(r.changed));
      rows.push_back(std::move(row));
    }
    table(out, std::string(v.id) + "-table", header, rows);
    put(out, "</section>");
  }
}

}  // namespace

std::string render_diff_html(const TraceDiff& d, const DiffTextOptions& options) {
  std::string out;
  put(out,
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">");
  put(out, "<title>attnprof diff</title><style>{}</style></head><body>", kStyle);
  put(out,
      R"(<header class="top"><div class="inner"><h1><span class="tool">attnprof</span> diff</h1>)");
  put(out, R"(<p class="src">A {}, {}</p><p class="src">B {}, {}</p></div></header><main>)",
      html_escape(d.a.path), html_escape(describe_regions(d.a.regions, d.a.region_pattern)),
      html_escape(d.b.path), html_escape(describe_regions(d.b.regions, d.b.region_pattern)));
  put(out, R"(<section class="card headline" id="headline"><h2>In short</h2>)");
  for (const std::string& line : diff_headline(d)) put(out, "<p>{}</p>", html_escape(line));
  if (!d.unlike.empty()) {
    put(out,
        R"(<p class="warn">Not like for like: the sides ran different work, which the numbers below include: )");
    for (size_t i = 0; i < d.unlike.size(); ++i)
      put(out, "{}{}", i ? "; " : "", html_escape(d.unlike[i]));
    put(out, "</p>");
  }
  put(out, "</section>");
  per_region(out, d);
  views(out, d, options.top);
  put(out,
      R"(<section class="card" id="activities"><h2>GPU activities of the typical regions</h2>)");
  if (const std::string only = changed_only_words(d); !only.empty())
    put(out, R"(<p class="lead">Launch shapes that changed while the time held: {}.</p>)",
        html_escape(only));
  put(out, R"(<p class="lead">{} removed, {} added, {} changed, {} unchanged{}.</p>)", d.removed,
      d.added, d.changed, d.unchanged,
      options.activities ? "" : " (--activities lists the added, removed and changed)");
  if (options.activities) {
    std::vector<std::vector<Cell>> rows;
    for (const ActivityDiff& x : d.activities) {
      if (x.change == ActivityChange::kSame) continue;
      const ActivityRow& row = x.b ? x.b->row : x.a->row;
      std::string what;
      for (ActivityAspect w : x.what_changed) {
        if (!what.empty()) what += ", ";
        what += activity_aspect_id(w);
      }
      if (what.empty()) what = launch_chain(row.op_chain, row.launch_api, " → ");
      rows.push_back({Cell{activity_change_id(x.change)}, Cell{row.short_name, false, "name"},
                      Cell{x.a ? format_us(x.a->duration_ns.median) : "", true},
                      Cell{x.b ? format_us(x.b->duration_ns.median) : "", true},
                      Cell{what, false, "name"}});
    }
    table(out, "activities-table",
          {Cell{""}, Cell{"activity"}, Cell{"A µs", true}, Cell{"B µs", true},
           Cell{"launched by / what changed"}},
          rows);
  }
  put(out, "</section></main></body></html>\n");
  return out;
}

}  // namespace attnprof
