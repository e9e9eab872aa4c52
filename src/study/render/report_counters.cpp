#include "study/render/report_counters.h"

#include <fmt/format.h>

#include "base/format_units.h"
#include "study/render/report_svg.h"
#include "study/render/report_svg_charts.h"

namespace attnprof {

namespace {

using svg::escape;

const RunPoint* focus(const ReportData& data) {
  if (!data.run || data.run->points.empty()) return nullptr;
  const int i = data.focus_point >= 0 ? data.focus_point : 0;
  return &data.run->points[static_cast<size_t>(std::min<size_t>(i, data.run->points.size() - 1))];
}

std::string percent(const std::optional<double>& v) {
  return v ? format_percent(*v) : "-";
}

std::string gigabytes(const std::optional<double>& bytes) {
  return bytes ? fmt::format("{:.3f}", *bytes / 1e9) : "-";
}

std::string estimated_occupancy(const RunVariant& v) {
  if (!v.forward || !v.forward->facts.main_kernel) return "-";
  const MainKernel& k = *v.forward->facts.main_kernel;
  if (k.occupancy_pct) return format_percent(*k.occupancy_pct);
  if (k.kineto_occupancy_pct) return format_percent(*k.kineto_occupancy_pct) + " (Kineto)";
  return "-";
}

void write_table(std::string& out, const RunPoint& point) {
  put(out, R"(<div class="table-wrap"><table class="study-table" id="counters-table"><thead><tr>)"
           "<th>variant</th><th>kernels</th><th>GPU time (ncu)</th><th>occupancy: measured</th>"
           "<th>estimated (main kernel)</th><th>tensor pipe</th><th>FP32 pipe</th>"
           "<th>DRAM read GB</th><th>DRAM write GB</th><th>DRAM throughput</th><th>L2 hit</th>"
           "<th>SM throughput</th><th>FLOP/byte</th><th>% of roof</th></tr></thead><tbody>");
  for (const RunVariant& v : point.variants) {
    put(out, "<tr><td>{}</td>", escape(variant_label(v)));
    if (!v.counters) {
      put(out, R"(<td colspan="13" class="muted">{}</td></tr>)",
          escape(v.counters_error.empty() ? "not measured (the variant did not run)"
                                          : v.counters_error));
      continue;
    }
    const CounterTotals& c = *v.counters;
    put(out,
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
        "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
        c.kernels, format_duration(c.duration_ns), percent(c.achieved_occupancy_pct),
        estimated_occupancy(v), percent(c.tensor_pipe_pct), percent(c.fp32_pipe_pct),
        gigabytes(c.dram_read_bytes), gigabytes(c.dram_write_bytes), percent(c.dram_throughput_pct),
        percent(c.l2_hit_rate_pct), percent(c.sm_throughput_pct),
        v.intensity ? fmt::format("{:.1f}", *v.intensity) : "-", percent(v.percent_of_roof));
  }
  put(out, "</tbody></table></div>");
}

// Each kernel of each variant's call, as ncu measured it: the sums above hide which kernel of an
// unfused variant is memory-bound and which is busy on its tensor pipe.
void write_kernel_table(std::string& out, const RunPoint& point) {
  size_t rows = 0;
  for (const RunVariant& v : point.variants) rows += v.kernel_counters.size();
  if (rows == 0) return;
  put(out,
      R"(<details id="counters-per-kernel"><summary>Per kernel ({} kernels)</summary>)"
      R"(<div class="table-wrap"><table class="study-table"><thead><tr>)"
      "<th>variant</th><th>kernel</th><th>grid</th><th>block</th><th>time (ncu)</th>"
      "<th>occupancy: measured</th><th>theoretical</th><th>tensor pipe</th><th>FP32 pipe</th>"
      "<th>DRAM read GB</th><th>DRAM write GB</th><th>L2 hit</th><th>SM throughput</th>"
      "</tr></thead><tbody>",
      rows);
  for (const RunVariant& v : point.variants) {
    for (const KernelCounters& k : v.kernel_counters) {
      put(out,
          R"(<tr><td>{}</td><td style="overflow-wrap:anywhere"><code>{}</code></td><td>{}</td>)"
          "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>"
          "<td>{}</td><td>{}</td></tr>",
          escape(variant_label(v)), escape(k.name), escape(k.grid), escape(k.block),
          k.duration_ns ? format_duration(*k.duration_ns) : "-", percent(k.achieved_occupancy_pct),
          percent(k.theoretical_occupancy_pct), percent(k.tensor_pipe_pct),
          percent(k.fp32_pipe_pct), gigabytes(k.dram_read_bytes), gigabytes(k.dram_write_bytes),
          percent(k.l2_hit_rate_pct), percent(k.sm_throughput_pct));
    }
  }
  put(out, "</tbody></table></div></details>");
}

void write_findings(std::string& out, const std::vector<CounterFinding>& findings) {
  if (findings.empty()) return;
  put(out,
      R"(<h3>What the counters show</h3><ul class="counter-findings" style="overflow-wrap:anywhere">)");
  for (const CounterFinding& f : findings)
    put(out, R"(<li data-finding="{}">{}</li>)", escape(f.id), escape(f.text));
  put(out, "</ul>");
}

}  // namespace

bool has_counters_section(const ReportData& data) {
  return data.run && data.run->counters && focus(data);
}

void write_counters_section(std::string& out, const ReportData& data) {
  if (!has_counters_section(data)) return;
  const RunCounters& counters = *data.run->counters;
  put(out, R"(<section class="card" id="counters"><h2>Hardware counters and the roofline</h2>)");
  if (!counters.unavailable.empty()) {
    put(out, R"(<p class="warn">No hardware counters: {}</p></section>)",
        escape(counters.unavailable));
    return;
  }
  const RunPoint& point = *focus(data);
  std::string bandwidth = "not measured";
  if (counters.bandwidth_bytes_per_s) {
    bandwidth = fmt::format("{:.2f} TB/s", *counters.bandwidth_bytes_per_s / 1e12);
    if (counters.datasheet_bandwidth_bytes_per_s)
      bandwidth += fmt::format(
          " ({:.0f} % of the datasheet's {:.2f} TB/s)",
          100 * *counters.bandwidth_bytes_per_s / *counters.datasheet_bandwidth_bytes_per_s,
          *counters.datasheet_bandwidth_bytes_per_s / 1e12);
  }
  put(out,
      R"(<p class="lead">Every kernel of one typical call, measured by {} with the clocks as found (<code>--clock-control none</code>) and a cold L2 per kernel; the sums are over the call's kernels, each percentage weighted by kernel time. Measured occupancy is warps active per cycle over the SM's maximum; the estimate is attnprof's, from the trace's launch of the main kernel. The memory roof is the bandwidth a copy kernel reached in the same run: {}. A variant's point: useful FLOPs per DRAM byte and its TFLOP/s by CUDA events; a main kernel's (ring): the FLOPs the hardware counted over its time under ncu.</p>)",
      escape(counters.tool), escape(bandwidth));
  // The plot first, then what it shows in words, then the tables.
  if (const auto& roofline = data.conclusions.roofline) {
    svg::RooflineChart chart;
    chart.id = "roofline";
    for (const auto& roof : roofline->roofs) chart.roofs.push_back({roof.name, roof.flop_per_s});
    chart.bandwidth_bytes_per_s = roofline->bandwidth_bytes_per_s;
    for (const RunRooflinePoint& p : roofline->points) {
      // The variant first: a long kernel name is cut at its end, never the variant's.
      chart.marks.push_back({p.kernel ? p.variant + ": " + p.label : p.label,
                             p.kernel ? "main kernel" : "whole call", p.intensity, p.flop_per_s,
                             p.kernel, p.variant_index});
    }
    out += R"(<div class="svg-scroll">)" + svg::roofline_chart(chart) + "</div>";
  }
  const auto& findings = data.conclusions.counter_findings;
  const size_t at = static_cast<size_t>(&point - data.run->points.data());
  if (at < findings.size()) write_findings(out, findings[at]);
  write_table(out, point);
  write_kernel_table(out, point);
  put(out, "</section>");
}

}  // namespace attnprof
