#include <algorithm>
#include <iterator>
#include <map>
#include <string_view>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "base/format_units.h"
#include "render/analyze/analyze_top_tables.h"
#include "render/display_text.h"
#include "render/op_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

constexpr size_t kKernelName = 39;
constexpr size_t kOpName = 44;
constexpr size_t kModuleName = 44;

std::string percent_of(int64_t part, int64_t whole) {
  return whole > 0
             ? fmt::format("{:.1f}", 100.0 * static_cast<double>(part) / static_cast<double>(whole))
             : std::string("-");
}

// "10 of 25" and how to see more, or "all 3".
std::string shown_words(size_t shown, size_t all) {
  return shown < all ? fmt::format("top {} of {}; --top N for more", shown, all)
                     : fmt::format("all {}", all);
}

// A name cut to `width`; --wide keeps the cut one and adds the whole name on a line below. A
// kernel's folded template arguments ("<...>") go first: the functor after them tells
// elementwise kernels apart.
std::string cell(std::string_view name, size_t width) {
  std::string text = escape_control(name);
  if (display_width(text) > width)
    for (size_t at; (at = text.find("<...>")) != std::string::npos;) text.erase(at, 5);
  return clip(text, width);
}

void full_name_below(std::string& out, const TextView& view, std::string_view name, size_t width) {
  if (view.wide && display_width(escape_control(name)) > width)
    put(out, "        {}\n", escape_control(name));
}

void kernels_table(std::string& out, const RegionSummary& r, const TextView& view) {
  const auto& rows = r.tables.kernels;
  const size_t shown = std::min(view.top, rows.size());
  put(out, "\n  Top kernels by GPU time ({}), share of the region's GPU busy time:\n",
      shown_words(shown, rows.size()));
  put(out, "  {:>3} {:<{}} {:<15} {:>6} {:>10} {:>10} {:>10} {:>10} {:>6}\n", "#", "kernel",
      kKernelName, "class", "count", "total µs", "mean µs", "min µs", "max µs", "busy %");
  // Rows are kernels by full name: two that fold to one short name are told apart by a mark.
  std::map<std::string_view, int> with_short_name, seen;
  for (const KernelTotal& k : rows) ++with_short_name[k.short_name];
  bool marked = false;
  for (size_t i = 0; i < shown; ++i) {
    const KernelTotal& k = rows[i];
    std::string name = k.short_name;
    if (with_short_name[k.short_name] > 1) {
      const std::string mark = fmt::format(" #{}", ++seen[k.short_name]);
      name = cell(k.short_name, kKernelName - mark.size()) + mark;
      marked = true;
    }
    put(out, "  {:>3} {:<{}} {:<15} {:>6} {:>10} {:>10} {:>10} {:>10} {:>6}\n", i + 1,
        cell(name, kKernelName), kKernelName, kernel_class_id(k.kernel_class), k.count,
        format_us(static_cast<double>(k.total_ns)),
        format_us(static_cast<double>(k.total_ns) / static_cast<double>(k.count)),
        format_us(static_cast<double>(k.min_ns)), format_us(static_cast<double>(k.max_ns)),
        percent_of(k.total_ns, r.gpu_busy_ns));
    if (with_short_name[k.short_name] > 1 && view.wide)
      put(out, "        {}\n", escape_control(k.name));
    else
      full_name_below(out, view, k.short_name, kKernelName);
  }
  if (marked)
    out += "  #1, #2, ...: different kernels of one short name (their full names: --wide)\n";
  if (rows.empty()) out += "      (no GPU work in this region)\n";
  // The classes on as many lines of 120 columns as they need.
  std::string line = "  by class:";
  for (const KernelClassTotal& c : r.tables.kernel_classes) {
    std::string item = fmt::format(" {} {} µs ({} %),", kernel_class_id(c.kernel_class),
                                   format_us(c.total_ns), percent_of(c.total_ns, r.gpu_busy_ns));
    if (display_width(line) + display_width(item) > 120) {
      out += line + "\n";
      line = "           ";
    }
    line += item;
  }
  if (!r.tables.kernel_classes.empty()) {
    line.pop_back();  // the last comma
    out += line + "\n";
  }
}

void ops_table(std::string& out, const RegionSummary& r, const TextView& view) {
  const auto& rows = r.tables.ops;
  if (rows.empty()) return;
  const size_t shown = std::min(view.top, rows.size());
  // The rate columns only where some op has a cost: a trace without shapes keeps its table.
  const bool costs = std::any_of(rows.begin(), rows.end(),
                                 [](const OpTotal& o) { return o.achieved_per_s().has_value(); });
  put(out,
      "\n  Top ops by CPU time ({}); GPU: the work each launched, self: not under another op:\n",
      shown_words(shown, rows.size()));
  // The rate columns take their width from the name's, so that a row still fits 120 columns.
  const size_t name_width = costs ? kOpName - 14 : kOpName;
  put(out, "  {:>3} {:<{}} {:>6} {:>12} {:>12} {:>12} {:>12}", "#", "op", name_width, "calls",
      "CPU µs", "self CPU µs", "GPU µs", "self GPU µs");
  out += costs ? fmt::format(" {:>14} {:>9}\n", "rate", "% roof") : "\n";
  for (size_t i = 0; i < shown; ++i) {
    const OpTotal& o = rows[i];
    put(out, "  {:>3} {:<{}} {:>6} {:>12} {:>12} {:>12} {:>12}", i + 1, cell(o.name, name_width),
        name_width, o.calls, format_us(o.cpu_ns), format_us(o.self_cpu_ns), format_us(o.gpu_ns),
        format_us(o.self_gpu_ns));
    if (costs) out += fmt::format(" {:>14} {:>9}", op_rate_words(o), op_roof_cell(o));
    while (out.back() == ' ') out.pop_back();  // no padding after the last cell with a value
    out += "\n";
    full_name_below(out, view, o.name, name_width);
    if (!o.input_shapes.empty())
      put(out, "      input shapes {}\n", escape_control(o.input_shapes));
  }
  if (!costs) return;
  put(out, "  {}\n", escape_control(op_roof_words(r.tables)));
  for (size_t i = 0; i < shown; ++i)
    if (!rows[i].roof_note.empty())
      put(out, "  #{} {}: {}\n", i + 1, escape_control(rows[i].name),
          escape_control(rows[i].roof_note));
}

void modules_table(std::string& out, const std::vector<ModuleTotal>& rows, std::string_view what,
                   const TextView& view) {
  if (rows.empty()) return;
  const size_t shown = std::min(view.top, rows.size());
  put(out, "\n  Top nn.Module {} by GPU time ({}):\n", what, shown_words(shown, rows.size()));
  put(out, "  {:>3} {:<{}} {:>5} {:>6} {:>12} {:>12} {:>10}\n", "#", "module", kModuleName, "depth",
      "calls", "CPU µs", "GPU µs", "GPU work");
  for (size_t i = 0; i < shown; ++i) {
    const ModuleTotal& m = rows[i];
    put(out, "  {:>3} {:<{}} {:>5} {:>6} {:>12} {:>12} {:>10}\n", i + 1, cell(m.name, kModuleName),
        kModuleName, m.depth, m.calls, format_us(m.cpu_ns), format_us(m.gpu_ns), m.activities);
    full_name_below(out, view, m.name, kModuleName);
  }
}

}  // namespace

void render_top_tables_text(std::string& out, const TraceAnalysis& t, const TextView& view) {
  if (t.typical_region < 0) return;
  const RegionSummary& r = t.regions[t.typical_region];
  put(out, "\n  The typical region (#{} {}{}), its totals:\n", t.typical_region + 1,
      escape_control(r.name),
      t.region_pids.empty() ? std::string() : fmt::format(", pid {}", r.pid));
  kernels_table(out, r, view);
  ops_table(out, r, view);
  modules_table(out, r.tables.module_classes, "classes", view);
  modules_table(out, r.tables.module_instances,
                "instances (GPU: work launched inside; nested modules each count it)", view);
}

}  // namespace attnprof
