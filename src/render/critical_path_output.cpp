#include "render/critical_path_output.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/analyze/analyze_output.h"
#include "render/csv_writer.h"
#include "render/display_text.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

struct CategoryField {
  const char* id;     // JSON and CSV
  const char* words;  // text and Markdown
  int64_t CriticalPathCategories::*ns;
};
// The categories in the order every output lists them.
constexpr CategoryField kCategories[] = {
    {"cpu_us", "CPU", &CriticalPathCategories::cpu_ns},
    {"launch_overhead_us", "launch overhead", &CriticalPathCategories::launch_overhead_ns},
    {"sync_us", "host waiting on the GPU", &CriticalPathCategories::sync_ns},
    {"compute_us", "GPU compute", &CriticalPathCategories::compute_ns},
    {"communication_us", "communication", &CriticalPathCategories::communication_ns},
    {"memory_us", "copies and memsets", &CriticalPathCategories::memory_ns},
    {"kernel_gap_us", "GPU gaps", &CriticalPathCategories::kernel_gap_ns},
};

double pct_of(int64_t part, int64_t whole) {
  return whole > 0 ? 100.0 * static_cast<double>(part) / static_cast<double>(whole) : 0.0;
}

const RegionSummary* typical_path(const TraceAnalysis& t) {
  if (t.typical_region < 0) return nullptr;
  const RegionSummary& r = t.regions[static_cast<size_t>(t.typical_region)];
  return r.critical_path.present && r.critical_path.length_ns > 0 ? &r : nullptr;
}

// "CPU 61.2 % (1,234.5 µs), GPU compute 30.1 % (...)": the categories with time, largest first.
std::string categories_words(const CriticalPath& p) {
  std::vector<std::pair<int64_t, const CategoryField*>> parts;
  for (const CategoryField& f : kCategories)
    if (p.categories.*f.ns > 0) parts.emplace_back(p.categories.*f.ns, &f);
  std::stable_sort(parts.begin(), parts.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::string out;
  for (const auto& [ns, f] : parts)
    out += fmt::format("{}{} {:.1f} % ({} µs)", out.empty() ? "" : ", ", f->words,
                       pct_of(ns, p.length_ns), format_us(ns));
  return out;
}

std::string what_if_words(const WhatIf& w) {
  return fmt::format("{} µs -> {} µs ({:+.1f} %), the selected work {} µs",
                     format_us(w.length_before_ns), format_us(w.length_after_ns),
                     w.length_before_ns > 0
                         ? pct_of(w.length_after_ns - w.length_before_ns, w.length_before_ns)
                         : 0.0,
                     format_us(w.selected_ns));
}

}  // namespace

void write_critical_path_json(JsonWriter& w, const RegionSummary& region) {
  const CriticalPath& p = region.critical_path;
  // A region merged from a trace summary has none (docs/DISTRIBUTED.md).
  if (!p.present) {
    w.key("critical_path").null();
    return;
  }
  w.key("critical_path").begin_object();
  w.key("length_us").number(p.length_ns / 1000.0);
  w.key("categories").begin_object();
  for (const CategoryField& f : kCategories) w.key(f.id).number(p.categories.*f.ns / 1000.0);
  w.end_object();
  w.key("attention_us").number(p.attention_ns / 1000.0);
  w.key("attention_cpu_us").number(p.attention_cpu_ns / 1000.0);
  w.key("bound_by").string(p.bound_by);
  w.key("top").begin_array();
  for (const CriticalPathItem& item : p.top) {
    w.begin_object();
    w.key("kind").string(critical_path_item_kind_name(item.kind));
    w.key("name").string(item.name);
    w.key("us").number(item.ns / 1000.0);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  if (region.what_if) {
    w.key("what_if").begin_object();
    w.key("length_us_before").number(region.what_if->length_before_ns / 1000.0);
    w.key("length_us_after").number(region.what_if->length_after_ns / 1000.0);
    w.key("selected_us").number(region.what_if->selected_ns / 1000.0);
    w.end_object();
  }
}

void render_critical_path_text(std::string& out, const TraceAnalysis& t) {
  const RegionSummary* r = typical_path(t);
  if (!r) return;
  const CriticalPath& p = r->critical_path;
  put(out, "\n  critical path of the typical region (#{}): {} µs, bound by {}\n",
      t.typical_region + 1, format_us(p.length_ns), p.bound_by);
  put(out, "    {}\n", categories_words(p));
  put(out,
      "    attention on the path: {} µs ({:.1f} % of the path; {:.1f} % of GPU busy time is "
      "attention)\n",
      format_us(p.attention_ns), pct_of(p.attention_ns, p.length_ns),
      pct_of(r->attention.gpu_ns, r->gpu_busy_ns));
  for (const CriticalPathItem& item : p.top)
    put(out, "    {:<6} {:>12} µs  {}\n", critical_path_item_kind_name(item.kind),
        format_us(item.ns), clip(item.name, 80));
  if (r->what_if) put(out, "    what-if: {}\n", what_if_words(*r->what_if));
}

void render_critical_path_markdown(std::string& out, const TraceAnalysis& t) {
  const RegionSummary* r = typical_path(t);
  if (!r) return;
  const CriticalPath& p = r->critical_path;
  put(out,
      "**Critical path** of the typical region (#{}): {} µs, bound by {}: {}. Attention on the "
      "path: {} µs ({:.1f} %).\n\n",
      t.typical_region + 1, format_us(p.length_ns), p.bound_by, categories_words(p),
      format_us(p.attention_ns), pct_of(p.attention_ns, p.length_ns));
  if (!p.top.empty()) {
    put(out, "| on the path | µs | name |\n|---|---:|---|\n");
    for (const CriticalPathItem& item : p.top)
      put(out, "| {} | {} | {} |\n", critical_path_item_kind_name(item.kind), format_us(item.ns),
          markdown_cell(item.name));
    put(out, "\n");
  }
  if (r->what_if) put(out, "What-if: {}.\n\n", what_if_words(*r->what_if));
}

std::string render_critical_path_csv(const AnalyzeOutput& output) {
  std::vector<std::string_view> header{"trace",      "rank",    "region",   "region_index",
                                       "region_pid", "typical", "length_us"};
  for (const CategoryField& f : kCategories) header.push_back(f.id);
  for (std::string_view h :
       {"attention_us", "attention_cpu_us", "bound_by", "what_if_length_us_before",
        "what_if_length_us_after", "what_if_selected_us"})
    header.push_back(h);
  CsvWriter csv(header);
  for (const TraceAnalysis& t : output.traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& region = t.regions[i];
      const CriticalPath& p = region.critical_path;
      csv.text(t.path);
      t.rank < 0 ? csv.empty() : csv.number(int64_t{t.rank});
      csv.text(region.name).number(int64_t(i));
      csv.number(int64_t{region.pid}).text(int(i) == t.typical_region ? "true" : "false");
      csv.number(p.length_ns / 1000.0);
      for (const CategoryField& f : kCategories) csv.number(p.categories.*f.ns / 1000.0);
      csv.number(p.attention_ns / 1000.0).number(p.attention_cpu_ns / 1000.0).text(p.bound_by);
      if (region.what_if) {
        csv.number(region.what_if->length_before_ns / 1000.0);
        csv.number(region.what_if->length_after_ns / 1000.0);
        csv.number(region.what_if->selected_ns / 1000.0);
      } else {
        csv.empty().empty().empty();
      }
      csv.end_row();
    }
  }
  return csv.take();
}

}  // namespace attnprof
