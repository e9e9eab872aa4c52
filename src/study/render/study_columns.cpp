#include "study/render/study_columns.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"
#include "render/fact_cells.h"
#include "render/markdown_kernel_names.h"

namespace attnprof {
namespace {

constexpr size_t kTerminalKernelWidth = 40;
constexpr size_t kTerminalReasonWidth = 70;

std::string cut(const std::string& text, size_t width, CellWidth mode) {
  return mode == CellWidth::kTerminal ? clip(text, width) : text;
}

// A number the run measured; "n/a" when the variant ran but this one was not measured (no peak
// for this GPU, no allocator on the CPU), "-" when it did not run.
std::string measured(const RunVariant& v, bool has, const std::string& text) {
  return has ? text : v.median_ms ? "n/a" : kNoCell;
}

std::string variant_cell(const RunVariant& v, CellWidth) {
  return variant_label(v);
}

std::string forward_kernels_cell(const RunVariant& v, CellWidth) {
  return v.forward ? kernels_cell(v.forward->facts) : kNoCell;
}

std::string backward_kernels_cell(const RunVariant& v, CellWidth) {
  return v.backward ? kernels_cell(v.backward->facts) : kNoCell;
}

std::string main_kernel_column(const RunVariant& v, CellWidth mode) {
  return v.forward ? cut(main_kernel_cell(v.forward->facts), kTerminalKernelWidth, mode) : kNoCell;
}

std::string memcpy_column(const RunVariant& v, CellWidth) {
  return v.forward ? memcpy_cell(v.forward->facts) : kNoCell;
}

std::optional<double> gpu_median_ns(const RunVariant& v) {
  if (!v.median_ms) return std::nullopt;
  return *v.median_ms * 1e6;
}

std::string tflops_cell(const RunVariant& v, CellWidth) {
  return v.tflops ? fmt::format("{:.1f}", *v.tflops) : kNoCell;
}

std::string percent_of_peak_cell(const RunVariant& v, CellWidth) {
  return measured(v, v.percent_of_peak.has_value(),
                  v.percent_of_peak ? format_percent(*v.percent_of_peak) : "");
}

// Bytes of K and V read per second: a decode step's rate.
std::string kv_gbps_cell(const RunVariant& v, CellWidth) {
  return v.kv_gbps ? fmt::format("{:.0f}", *v.kv_gbps) : kNoCell;
}

std::string percent_of_hbm_cell(const RunVariant& v, CellWidth) {
  return measured(v, v.percent_of_hbm.has_value(),
                  v.percent_of_hbm ? format_percent(*v.percent_of_hbm) : "");
}

// Of the roof at the variant's intensity (docs/counters.md); "-" without counters.
std::string percent_of_roof_cell(const RunVariant& v, CellWidth) {
  return v.percent_of_roof ? format_percent(*v.percent_of_roof) : kNoCell;
}

// Warps active over the maximum, measured by ncu over the call's kernels (weighted by time).
std::string measured_occupancy_cell(const RunVariant& v, CellWidth) {
  return v.counters && v.counters->achieved_occupancy_pct
             ? format_percent(*v.counters->achieved_occupancy_pct)
             : kNoCell;
}

std::string peak_memory_cell(const RunVariant& v, CellWidth) {
  return measured(v, v.peak_allocated_bytes.has_value(),
                  v.peak_allocated_bytes ? format_bytes(*v.peak_allocated_bytes) : "");
}

std::string occupancy_column(const RunVariant& v, CellWidth) {
  return v.forward ? occupancy_cell(v.forward->facts) : kNoCell;
}

std::string launch_api_column(const RunVariant& v, CellWidth) {
  return v.forward ? launch_api_cell(v.forward->facts) : kNoCell;
}

std::string cpu_time_column(const RunVariant& v, CellWidth) {
  return v.forward ? cpu_time_cell(v.forward->facts) : kNoCell;
}

std::string error_cell(const RunVariant& v, CellWidth) {
  if (!v.output_error) return kNoCell;
  std::string cell = format_error(*v.output_error);
  if (v.grad_error) cell += " / " + format_error(*v.grad_error);
  return cell;
}

std::string status_cell(const RunVariant& v, CellWidth mode) {
  switch (v.status) {
    case RunStatus::kOk:
      return v.trace_error.empty()
                 ? "ok"
                 : "ok; no trace facts: " + cut(v.trace_error, kTerminalReasonWidth, mode);
    // A failed variant's reason is its error against the reference: short, and kept whole.
    case RunStatus::kFailed:
      return "FAILED: " + v.reason;
    case RunStatus::kOutOfMemory:
      return "OOM";
    case RunStatus::kUnsupported:
    case RunStatus::kError:
      break;
  }
  return std::string(name_in(kRunStatusNames, v.status)) +
         (v.reason.empty() ? "" : ": " + cut(v.reason, kTerminalReasonWidth, mode));
}

// The cells of a duration column in one unit: milliseconds when every value is at least one,
// microseconds otherwise (a median of 157 µs in ms would lose its digits).
void fill_duration_column(const StudyColumn& column, const std::vector<RunVariant>& variants,
                          StudyTable& table) {
  std::vector<double> values;
  for (const RunVariant& v : variants)
    if (const auto ns = column.duration_ns(v)) values.push_back(*ns);
  const DurationUnit unit = common_duration_unit(values);
  table.header.push_back(fmt::format("{} ({})", column.header, unit_symbol(unit)));
  for (size_t r = 0; r < variants.size(); ++r) {
    const auto ns = column.duration_ns(variants[r]);
    table.rows[r].push_back(ns ? format_duration_in(*ns, unit) : kNoCell);
  }
}

}  // namespace

std::vector<StudyColumn> study_columns(bool backward) {
  std::vector<StudyColumn> columns{
      {"variant", false, nullptr, variant_cell},
      {"kernels/fwd", true, nullptr, forward_kernels_cell},
      {"main kernel", false, nullptr, main_kernel_column, false, true},
      {"memcpy/fwd", true, nullptr, memcpy_column},
      {"GPU median", true, gpu_median_ns, nullptr},
      {"TFLOP/s", true, nullptr, tflops_cell, false, false, StudyColumn::Bound::kCompute},
      {"% peak", true, nullptr, percent_of_peak_cell, false, false, StudyColumn::Bound::kCompute},
      {"K/V GB/s", true, nullptr, kv_gbps_cell, false, false, StudyColumn::Bound::kMemory},
      {"% HBM", true, nullptr, percent_of_hbm_cell, false, false, StudyColumn::Bound::kMemory},
      {"% roof", true, nullptr, percent_of_roof_cell, true},
      {"peak mem", true, nullptr, peak_memory_cell},
      {"occupancy", true, nullptr, occupancy_column},
      {"occ. (ncu)", true, nullptr, measured_occupancy_cell, true},
      {"launch API", false, nullptr, launch_api_column},
      {"CPU/fwd", true, nullptr, cpu_time_column},
      {"rel. error", true, nullptr, error_cell},
      {"status", false, nullptr, status_cell, false, false, StudyColumn::Bound::kAny, true},
  };
  if (backward)
    columns.insert(columns.begin() + 2, {"kernels/bwd", true, nullptr, backward_kernels_cell});
  return columns;
}

std::string study_heading(const RunPoint& point) {
  const RunProblem& p = point.problem;
  std::string mask = p.mask == RunMask::kCausal ? "causal"
                     : p.mask == RunMask::kNone ? "no mask"
                                                : "explicit causal mask";
  if (p.window > 0) mask += fmt::format(", window {}", p.window);
  const std::string heads = p.kv_heads != p.heads && p.kv_heads > 0
                                ? fmt::format("{} heads ({} KV)", p.heads, p.kv_heads)
                                : fmt::format("{} heads", p.heads);
  const std::string seq =
      p.q_seq != p.seq && p.q_seq > 0
          ? fmt::format("{} {} against {} keys", p.q_seq, p.q_seq == 1 ? "query" : "queries", p.seq)
          : fmt::format("seq {}", p.seq);
  std::string heading = fmt::format(
      "{}, batch {}, {}, {}, head dim {}, {}, {} on {}: {:.1f} GFLOP per call", p.dtype, p.batch,
      heads, seq, p.head_dim, mask, p.backward ? "forward+backward" : "forward", p.device,
      point.flops_per_call / 1e9);
  if (point.memory_bound && point.kv_bytes_per_call && point.intensity_flop_per_byte &&
      point.ridge_flop_per_byte) {
    heading += fmt::format(
        " and {} of K and V; memory-bound: {:.1f} FLOP per byte, below the ridge point's {:.0f}",
        format_bytes(static_cast<int64_t>(*point.kv_bytes_per_call)),
        *point.intensity_flop_per_byte, *point.ridge_flop_per_byte);
  }
  return heading;
}

StudyTable study_table(const std::vector<RunVariant>& variants, StudyTableKind kind,
                       CellWidth width) {
  StudyTable table;
  table.rows.resize(variants.size());
  const bool counters = std::any_of(variants.begin(), variants.end(), [](const RunVariant& v) {
    return v.counters || !v.counters_error.empty();
  });
  const StudyColumn::Bound hidden =
      kind.memory_bound ? StudyColumn::Bound::kCompute : StudyColumn::Bound::kMemory;
  for (const StudyColumn& column : study_columns(kind.backward)) {
    if (column.of_counters && !counters) continue;
    if (column.bound == hidden) continue;
    table.numeric.push_back(column.numeric);
    table.kernel_names.push_back(column.kernel_names);
    table.statuses.push_back(column.status);
    if (column.duration_ns) {
      fill_duration_column(column, variants, table);
      continue;
    }
    table.header.emplace_back(column.header);
    for (size_t r = 0; r < variants.size(); ++r)
      table.rows[r].push_back(column.cell(variants[r], width));
  }
  return table;
}

std::string study_table_text(const StudyTable& table) {
  auto escaped = [](const std::vector<std::string>& cells) {
    std::vector<std::string> out;
    for (const std::string& cell : cells) out.push_back(escape_control(cell));
    return out;
  };
  const std::vector<std::string> header = escaped(table.header);
  std::vector<std::vector<std::string>> rows;
  for (const auto& row : table.rows) rows.push_back(escaped(row));
  std::vector<size_t> widths(header.size());
  for (size_t c = 0; c < widths.size(); ++c) {
    widths[c] = display_width(header[c]);
    for (const auto& row : rows) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - display_width(cells[c]), ' ');
      const bool last = c + 1 == cells.size();
      text += table.numeric[c] ? pad + cells[c] : cells[c] + (last ? "" : pad);
      if (!last) text += "  ";
    }
    return text + "\n";
  };
  std::string text = line(header);
  size_t total = 0;
  for (size_t w : widths) total += w + 2;
  text += std::string(total - 2, '-') + "\n";
  for (const auto& row : rows) text += line(row);
  return text;
}

std::string study_table_markdown(const StudyTable& table) {
  std::string text = "|";
  for (const std::string& h : table.header) text += fmt::format(" {} |", markdown_cell(h));
  text += "\n|";
  for (bool numeric : table.numeric) text += numeric ? "---:|" : "---|";
  text += "\n";
  MarkdownKernelNames names;
  for (const auto& row : table.rows) {
    text += "|";
    for (size_t c = 0; c < row.size(); ++c) {
      const bool kernel = table.kernel_names[c] && row[c] != kNoCell;
      text += fmt::format(" {} |", kernel ? names.cell(row[c]) : markdown_cell(row[c]));
    }
    text += "\n";
  }
  if (const std::string full = names.details(); !full.empty()) text += "\n" + full;
  return text;
}

}  // namespace attnprof
