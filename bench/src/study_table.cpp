#include "study_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/format_units.h"
#include "cell_format.h"
#include "render/fact_cells.h"

namespace attnprof::bench {
namespace {

constexpr size_t kTerminalKernelWidth = 40;
constexpr size_t kTerminalReasonWidth = 70;
constexpr const char* kNone = "-";

std::string cut(const std::string& text, size_t width, CellWidth mode) {
  return mode == CellWidth::kTerminal ? truncate_text(text, width) : text;
}

std::string error_cell(const Correctness& c) {
  std::string cell = format_error(c.output_error);
  if (c.grad_error) cell += " / " + format_error(*c.grad_error);
  return cell;
}

std::string status_cell(const VariantRow& row, CellWidth mode) {
  const VariantMeasurement& m = row.measurement;
  switch (m.status) {
    case VariantStatus::kOk:
      return row.trace_error.empty()
                 ? "ok"
                 : "ok; no trace facts: " + cut(row.trace_error, kTerminalReasonWidth, mode);
    case VariantStatus::kFailed:
      return "FAILED: " + m.reason;
    case VariantStatus::kUnsupported:
      return "unsupported: " + cut(m.reason, kTerminalReasonWidth, mode);
    case VariantStatus::kOutOfMemory:
      return "OOM";
    case VariantStatus::kError:
      return "error: " + cut(m.reason, kTerminalReasonWidth, mode);
  }
  return "?";
}

std::string escape_markdown(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

// Columns holding numbers read better aligned right.
bool right_aligned(const std::string& header) {
  return header != "variant" && header != "main kernel" && header != "launch API" &&
         header != "status";
}

std::string render_table_text(const Table& table) {
  std::vector<size_t> widths(table.header.size());
  for (size_t c = 0; c < widths.size(); ++c) {
    widths[c] = display_width(table.header[c]);
    for (const auto& row : table.rows) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string text;
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - display_width(cells[c]), ' ');
      const bool last = c + 1 == cells.size();
      text += right_aligned(table.header[c]) ? pad + cells[c] : cells[c] + (last ? "" : pad);
      if (!last) text += "  ";
    }
    return text + "\n";
  };
  std::string text = line(table.header);
  size_t total = 0;
  for (size_t w : widths) total += w + 2;
  text += std::string(total - 2, '-') + "\n";
  for (const auto& row : table.rows) text += line(row);
  return text;
}

std::string render_table_markdown(const Table& table) {
  std::string text = "|";
  for (const auto& h : table.header) text += fmt::format(" {} |", escape_markdown(h));
  text += "\n|";
  for (const auto& h : table.header) text += right_aligned(h) ? "---:|" : "---|";
  text += "\n";
  for (const auto& row : table.rows) {
    text += "|";
    for (const auto& cell : row) text += fmt::format(" {} |", escape_markdown(cell));
    text += "\n";
  }
  return text;
}

std::string point_heading(const StudyPoint& point) {
  return fmt::format("{}: {:.1f} GFLOP per call", describe(point.problem), point.flops / 1e9);
}

}  // namespace

Table study_table(const StudyPoint& point, CellWidth mode) {
  Table table;
  table.header = {"variant", "kernels/fwd", "main kernel", "memcpy/fwd", "GPU median",
                  "TFLOP/s", "% peak",      "peak mem",    "occupancy",  "launch API",
                  "CPU/fwd", "rel. error",  "status"};
  const bool backward = point.problem.backward;
  if (backward) table.header.insert(table.header.begin() + 2, "kernels/bwd");
  for (const VariantRow& row : point.rows) {
    const VariantMeasurement& m = row.measurement;
    const RegionFacts* f = row.forward ? &row.forward->facts : nullptr;
    const bool ran = m.timing.has_value();
    std::string variant(name(m.variant));
    if (!m.chosen_backend.empty()) variant += " (" + m.chosen_backend + ")";
    std::vector<std::string> cells{
        variant,
        f ? kernels_cell(*f) : kNone,
        f ? cut(main_kernel_cell(*f), kTerminalKernelWidth, mode) : kNone,
        f ? memcpy_cell(*f) : kNone,
        ran ? format_duration(m.timing->median_ms * 1e3 * 1e3) : kNone,
        row.tflops ? fmt::format("{:.1f}", *row.tflops) : kNone,
        row.percent_of_peak ? format_percent(*row.percent_of_peak)
        : ran               ? "n/a"
                            : kNone,
        m.peak_allocated_bytes ? format_bytes(*m.peak_allocated_bytes)
        : ran                  ? "n/a"
                               : kNone,
        f ? occupancy_cell(*f) : kNone,
        f ? launch_api_cell(*f) : kNone,
        f ? cpu_time_cell(*f) : kNone,
        m.correctness ? error_cell(*m.correctness) : kNone,
        status_cell(row, mode)};
    if (backward) {
      cells.insert(cells.begin() + 2, row.backward ? kernels_cell(row.backward->facts) : kNone);
    }
    table.rows.push_back(std::move(cells));
  }
  return table;
}

std::vector<std::string> method_notes(const StudyReport& report) {
  const RunSettings& s = report.settings;
  const bool cuda =
      !report.points.empty() && report.points.front().problem.device == DeviceKind::kCuda;
  std::vector<std::string> notes;
  notes.push_back(fmt::format(
      "GPU median: {} around each call, the median of {} to {} calls (as many as fill {:g} s) "
      "after warm-up, rotating at least 3 input sets that together exceed twice the {} so that "
      "it cannot hold them; min and max are in summary.json.",
      cuda ? "CUDA events" : "the steady clock (CPU run)", s.min_reps, s.max_reps, s.time_budget_s,
      cuda ? fmt::format("L2 ({})", format_bytes(report.device.l2_bytes)) : "last-level cache"));
  notes.push_back(fmt::format(
      "kernels/fwd, memcpy/fwd, main kernel (the longest kernel of the typical region), "
      "occupancy (attnprof's estimate for the main kernel from its registers, shared memory and "
      "block size; Kineto's own where attnprof has none), launch API and CPU/fwd (time in the "
      "region's top-level CPU ops): read by attnprof from the variant's Kineto trace, medians "
      "over its {} `forward` regions.",
      s.trace_iterations));
  notes.push_back(
      "TFLOP/s: 4·B·H·S²·D per forward (q·kᵀ and p·v), half of it with a causal mask, 3.5 times "
      "it with the backward, over the GPU median.");
  // The peak depends on the dtype only, the same for every point: say it once.
  if (!report.points.empty()) {
    const auto& peak = report.points.front().peak;
    notes.push_back(peak ? fmt::format("% peak: of the {}'s dense {} peak, {:.1f} TFLOP/s ({}).",
                                       report.device.name, peak->precision, peak->tflops,
                                       kPeakSource)
                         : fmt::format("% peak: n/a, attnprof has no datasheet peak for {}.",
                                       report.device.name));
  }
  notes.push_back(
      "peak mem: the most bytes the CUDA caching allocator had allocated during one call, above "
      "what was allocated before it (cached but unused blocks do not count).");
  std::string thresholds;
  for (Dtype d : {Dtype::kBf16, Dtype::kFp16, Dtype::kFp32}) {
    thresholds +=
        fmt::format("{}{:g} for {}", thresholds.empty() ? "" : ", ", error_threshold(d), name(d));
  }
  notes.push_back(fmt::format(
      "rel. error: ||out - ref|| / ||ref|| (Frobenius) against attention computed in float64 on "
      "the same device from fresh random inputs (seed {}); a variant passes at or below {}{}.",
      s.seed, thresholds,
      !report.points.empty() && report.points.front().problem.backward
          ? "; after the slash, the largest error of dq, dk and dv"
          : ""));
  return notes;
}

std::string environment_line(const StudyReport& report) {
  const DeviceInfo& d = report.device;
  std::string line = "attnprof bench: " + d.name;
  if (d.sm_count > 0) {
    line += fmt::format(" ({} SMs, sm_{}{}, {})", d.sm_count, d.compute_major, d.compute_minor,
                        format_bytes(d.memory_bytes));
  }
  line += ", torch " + report.versions.torch;
  if (!report.versions.cuda_runtime.empty()) line += ", CUDA " + report.versions.cuda_runtime;
  if (!report.versions.cudnn.empty()) line += ", cuDNN " + report.versions.cudnn;
  return line;
}

// The findings of each variant's trace: the study's "what the trace shows" column, in words.
std::vector<std::string> finding_notes(const StudyPoint& point) {
  std::vector<std::string> notes;
  for (const VariantRow& row : point.rows) {
    if (!row.forward) continue;
    for (const Finding& f : row.forward->findings) {
      std::string note =
          fmt::format("{}: [{}] {}", name(row.measurement.variant), finding_id(f.kind), f.summary);
      if (!f.suggestion.empty()) note += " -> " + f.suggestion;
      notes.push_back(std::move(note));
    }
  }
  return notes;
}

// The expectations checked on each variant's trace (bench --expectations), failures first.
std::vector<std::string> expectation_lines(const StudyReport& report, size_t* failed,
                                           size_t* total) {
  std::vector<std::string> lines, passed;
  for (const StudyPoint& point : report.points)
    for (const VariantRow& row : point.rows) {
      if (!row.forward) continue;
      for (const ExpectationResult& e : row.forward->expectations) {
        ++*total;
        std::string line = fmt::format("{} {}: {}   actual {}", e.holds ? "ok  " : "FAIL",
                                       name(row.measurement.variant), e.text, e.actual);
        if (e.holds) {
          passed.push_back(std::move(line));
        } else {
          ++*failed;
          lines.push_back(std::move(line));
        }
      }
    }
  lines.insert(lines.end(), passed.begin(), passed.end());
  return lines;
}

std::string render_expectations(const StudyReport& report, std::string_view bullet) {
  if (report.expectations_file.empty()) return {};
  size_t failed = 0, total = 0;
  std::vector<std::string> lines = expectation_lines(report, &failed, &total);
  std::string text = fmt::format("\nExpectations ({}): {} of {} hold\n", report.expectations_file,
                                 total - failed, total);
  for (const std::string& line : lines) text += fmt::format("{}{}\n", bullet, line);
  return text;
}

std::string render_text(const StudyReport& report) {
  std::string text = environment_line(report) + "\n";
  for (const StudyPoint& point : report.points) {
    text += fmt::format("\n{}\n", point_heading(point));
    text += render_table_text(study_table(point, CellWidth::kTerminal));
    std::vector<std::string> notes = finding_notes(point);
    if (!notes.empty()) text += "\nWhat the traces show (attnprof findings):\n";
    for (const std::string& note : notes) text += "  - " + note + "\n";
  }
  text += render_expectations(report, "  ");
  text += "\nHow each column is measured:\n";
  for (const std::string& note : method_notes(report)) text += "  - " + note + "\n";
  return text;
}

std::string render_markdown(const StudyReport& report) {
  std::string text = "# " + environment_line(report) + "\n";
  for (const StudyPoint& point : report.points) {
    text += "\n## " + escape_markdown(point_heading(point)) + "\n\n";
    text += render_table_markdown(study_table(point, CellWidth::kFull));
    std::vector<std::string> notes = finding_notes(point);
    if (!notes.empty()) text += "\nWhat the traces show (attnprof findings):\n\n";
    for (const std::string& note : notes) text += "- " + escape_markdown(note) + "\n";
  }
  text += render_expectations(report, "- ");
  text += "\nHow each column is measured:\n\n";
  for (const std::string& note : method_notes(report)) text += "- " + note + "\n";
  return text;
}

}  // namespace attnprof::bench
