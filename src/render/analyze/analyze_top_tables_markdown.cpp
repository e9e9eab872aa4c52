// analyze's Markdown: the typical region's top kernels, ops and nn.Module instances (the first 10
// rows of each, as the text's default), before its activities.

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "base/format_units.h"
#include "render/analyze/analyze_top_tables.h"
#include "render/display_text.h"
#include "render/op_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

constexpr size_t kRows = 10;

std::string share(int64_t part, int64_t whole) {
  return whole > 0
             ? fmt::format("{:.1f}", 100.0 * static_cast<double>(part) / static_cast<double>(whole))
             : std::string("-");
}

}  // namespace

void render_top_tables_markdown(std::string& out, const RegionSummary& r) {
  const RegionTables& t = r.tables;
  if (!t.kernels.empty()) {
    put(out, "Top kernels of the typical region by GPU time ({} of {}):\n\n",
        std::min(kRows, t.kernels.size()), t.kernels.size());
    put(out, "| # | kernel | class | count | total (µs) | mean (µs) | busy % |\n");
    put(out, "|---:|---|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < t.kernels.size() && i < kRows; ++i) {
      const KernelTotal& k = t.kernels[i];
      put(out, "| {} | {} | {} | {} | {} | {} | {} |\n", i + 1, markdown_code(k.short_name),
          kernel_class_id(k.kernel_class), k.count, format_us(k.total_ns),
          format_us(static_cast<double>(k.total_ns) / static_cast<double>(k.count)),
          share(k.total_ns, r.gpu_busy_ns));
    }
    put(out, "\n");
  }
  if (!t.ops.empty()) {
    put(out, "Top ops of the typical region by CPU time ({} of {}):\n\n",
        std::min(kRows, t.ops.size()), t.ops.size());
    // The rate columns only where some op has a cost (traces recorded with record_shapes=True).
    const bool costs = std::any_of(t.ops.begin(), t.ops.end(),
                                   [](const OpTotal& o) { return o.achieved_per_s().has_value(); });
    put(out, "| # | op | calls | CPU (µs) | self CPU (µs) | GPU (µs) | self GPU (µs) |{}\n",
        costs ? " rate | % roof |" : "");
    put(out, "|---:|---|---:|---:|---:|---:|---:|{}\n", costs ? "---:|---:|" : "");
    for (size_t i = 0; i < t.ops.size() && i < kRows; ++i) {
      const OpTotal& o = t.ops[i];
      put(out, "| {} | {} | {} | {} | {} | {} | {} |", i + 1, markdown_code(o.name), o.calls,
          format_us(o.cpu_ns), format_us(o.self_cpu_ns), format_us(o.gpu_ns),
          format_us(o.self_gpu_ns));
      if (costs) put(out, " {} | {} |", op_rate_words(o), op_roof_cell(o));
      put(out, "\n");
    }
    if (costs) {
      put(out, "\n{}\n", op_roof_words(t));
      for (size_t i = 0; i < t.ops.size() && i < kRows; ++i)
        if (!t.ops[i].roof_note.empty())
          put(out, "\n#{} {}: {}\n", i + 1, markdown_code(t.ops[i].name),
              markdown_cell(t.ops[i].roof_note));
    }
    put(out, "\n");
  }
  if (!t.module_instances.empty()) {
    put(out, "nn.Modules of the typical region by GPU time ({} of {}):\n\n",
        std::min(kRows, t.module_instances.size()), t.module_instances.size());
    put(out, "| # | module | depth | calls | CPU (µs) | GPU (µs) |\n");
    put(out, "|---:|---|---:|---:|---:|---:|\n");
    for (size_t i = 0; i < t.module_instances.size() && i < kRows; ++i) {
      const ModuleTotal& m = t.module_instances[i];
      put(out, "| {} | {} | {} | {} | {} | {} |\n", i + 1, markdown_code(m.name), m.depth, m.calls,
          format_us(m.cpu_ns), format_us(m.gpu_ns));
    }
    put(out, "\n");
  }
}

}  // namespace attnprof
