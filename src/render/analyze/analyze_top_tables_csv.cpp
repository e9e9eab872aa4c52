// `attnprof analyze --format csv --table kernels|ops|modules`: one row per kernel, op or nn.Module
// instance of every region of every trace read (docs/json-schema.md, "CSV"), the same numbers as
// JSON's top_kernels, ops and modules.

#include "analysis/kernels/kernel_class.h"
#include "analysis/top_tables.h"
#include "render/analyze/analyze_output.h"
#include "render/csv_writer.h"

namespace attnprof {

namespace {

std::vector<std::string_view> header_with(std::initializer_list<std::string_view> columns) {
  std::vector<std::string_view> header{"trace",        "rank",       "region",
                                       "region_index", "region_pid", "typical"};
  header.insert(header.end(), columns.begin(), columns.end());
  return header;
}

double us(int64_t ns) {
  return static_cast<double>(ns) / 1000.0;
}

}  // namespace

std::string render_top_table_csv(const AnalyzeOutput& output, AnalyzeCsvTable table) {
  const bool kernels = table == AnalyzeCsvTable::kKernels, ops = table == AnalyzeCsvTable::kOps;
  CsvWriter csv(kernels ? header_with({"short_name", "name", "class", "count", "total_us",
                                       "mean_us", "min_us", "max_us", "busy_share_pct"})
                : ops   ? header_with({"name", "input_shapes", "calls", "cpu_us", "self_cpu_us",
                                       "gpu_us", "self_gpu_us", "flops", "bytes", "costed_gpu_us",
                                       "tflops_per_s", "gb_per_s", "roof_pct", "roof"})
                        : header_with({"name", "class", "depth", "calls", "cpu_us", "gpu_us",
                                       "gpu_activities"}));
  for (const TraceAnalysis& t : output.traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& region = t.regions[i];
      auto start_row = [&] {
        // An unknown rank (no distributedInfo) is an empty field, as in the activities' CSV.
        csv.text(t.path);
        if (t.rank >= 0)
          csv.number(int64_t{t.rank});
        else
          csv.empty();
        csv.text(region.name).number(int64_t(i));
        csv.number(int64_t{region.pid}).text(int(i) == t.typical_region ? "true" : "false");
      };
      if (kernels) {
        for (const KernelTotal& k : region.tables.kernels) {
          start_row();
          csv.text(k.short_name).text(k.name).text(kernel_class_id(k.kernel_class));
          csv.number(k.count)
              .number(us(k.total_ns))
              .number(us(k.total_ns) / static_cast<double>(k.count));
          csv.number(us(k.min_ns)).number(us(k.max_ns));
          if (region.gpu_busy_ns > 0)
            csv.number(100.0 * static_cast<double>(k.total_ns) /
                       static_cast<double>(region.gpu_busy_ns));
          else
            csv.empty();
          csv.end_row();
        }
      } else if (ops) {
        for (const OpTotal& o : region.tables.ops) {
          start_row();
          csv.text(o.name).text(o.input_shapes);
          csv.number(o.calls).number(us(o.cpu_ns)).number(us(o.self_cpu_ns));
          csv.number(us(o.gpu_ns)).number(us(o.self_gpu_ns));
          auto maybe = [&](const std::optional<double>& v) { v ? csv.number(*v) : csv.empty(); };
          maybe(o.flops);
          maybe(o.bytes);
          csv.number(us(o.costed_gpu_ns));
          const std::optional<double> rate = o.achieved_per_s();
          maybe(o.memory_bound || !rate ? std::nullopt : std::optional(*rate / 1e12));
          maybe(o.memory_bound && rate ? std::optional(*rate / 1e9) : std::nullopt);
          maybe(o.roof_pct);
          csv.text(o.roof);
          csv.end_row();
        }
      } else {
        for (const ModuleTotal& m : region.tables.module_instances) {
          start_row();
          csv.text(m.name).text(module_class_name(m.name)).number(int64_t{m.depth});
          csv.number(m.calls).number(us(m.cpu_ns)).number(us(m.gpu_ns)).number(m.activities);
          csv.end_row();
        }
      }
    }
  }
  return csv.take();
}

}  // namespace attnprof
