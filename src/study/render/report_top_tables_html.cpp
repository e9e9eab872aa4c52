#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "base/format_units.h"
#include "render/display_text.h"
#include "render/op_words.h"
#include "render/text_append.h"
#include "study/render/report_svg.h"
#include "study/render/report_top_tables.h"

namespace attnprof {

namespace {

constexpr size_t kRows = 15;

std::string share(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.1f} %",
                                 100.0 * static_cast<double>(part) / static_cast<double>(whole))
                   : std::string("-");
}

std::string escape_duration(double ns) {
  return svg::escape(format_duration(ns));
}

std::string shown(size_t rows) {
  return rows > kRows ? fmt::format("the first {} of {}", kRows, rows) : fmt::format("{}", rows);
}

}  // namespace

void write_top_tables_html(std::string& out, const RegionSummary& r) {
  const RegionTables& t = r.tables;
  if (!t.kernels.empty()) {
    put(out,
        R"(<details><summary>Top kernels of this region by GPU time ({})</summary><div class="table-wrap"><table class="activities"><thead><tr><th>#</th><th>kernel</th><th>class</th><th>count</th><th>total</th><th>mean</th><th>share of GPU busy</th></tr></thead><tbody>)",
        shown(t.kernels.size()));
    for (size_t i = 0; i < t.kernels.size() && i < kRows; ++i) {
      const KernelTotal& k = t.kernels[i];
      put(out,
          R"(<tr><td>{}</td><td class="kernel mono" title="{}">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>)",
          i + 1, svg::escape(k.name), svg::escape(k.short_name), kernel_class_label(k.kernel_class),
          k.count, escape_duration(static_cast<double>(k.total_ns)),
          escape_duration(static_cast<double>(k.total_ns) / static_cast<double>(k.count)),
          share(k.total_ns, r.gpu_busy_ns));
    }
    put(out, "</tbody></table></div></details>");
  }
  if (!t.ops.empty()) {
    // The rate columns only where some op has a cost (traces recorded with record_shapes=True).
    const bool costs = std::any_of(t.ops.begin(), t.ops.end(),
                                   [](const OpTotal& o) { return o.achieved_per_s().has_value(); });
    put(out,
        R"(<details><summary>Top ops of this region by CPU time ({})</summary><div class="table-wrap"><table class="activities"><thead><tr><th>#</th><th>op</th><th>calls</th><th>CPU</th><th>self CPU</th><th>GPU</th><th>self GPU</th>{}</tr></thead><tbody>)",
        shown(t.ops.size()), costs ? "<th>rate</th><th>% roof</th>" : "");
    for (size_t i = 0; i < t.ops.size() && i < kRows; ++i) {
      const OpTotal& o = t.ops[i];
      put(out,
          R"(<tr><td>{}</td><td class="mono">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>)",
          i + 1, svg::escape(o.name), o.calls, escape_duration(static_cast<double>(o.cpu_ns)),
          escape_duration(static_cast<double>(o.self_cpu_ns)),
          escape_duration(static_cast<double>(o.gpu_ns)),
          escape_duration(static_cast<double>(o.self_gpu_ns)));
      if (costs)
        put(out, R"(<td title="{}">{}</td><td title="{}">{}</td>)", svg::escape(o.roof),
            op_rate_words(o), svg::escape(o.roof_note.empty() ? o.roof : o.roof_note),
            svg::escape(op_roof_cell(o)));
      put(out, "</tr>");
    }
    if (costs) put(out, R"(<tr><td colspan="9">{}</td></tr>)", svg::escape(op_roof_words(t)));
    put(out, "</tbody></table></div></details>");
  }
}

}  // namespace attnprof
