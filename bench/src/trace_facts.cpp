#include "trace_facts.h"

#include "attnprof/analysis.h"
#include "attnprof/expectations.h"

namespace attnprof::bench {

Result<RegionFacts> read_region_facts(const std::string& path, const std::string& region,
                                      const std::vector<Expectation>& expectations) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  // Per-class metrics (kernels.gemm, ...) read every region's activities.
  options.activities_of_every_region = !expectations.empty();
  Result<TraceAnalysis> analysis = analyze_file(path, options);
  if (!analysis.ok()) return analysis.take_error();
  const TraceAnalysis& trace = *analysis;
  if (trace.regions.empty() || trace.typical_region < 0) {
    return make_error("{}: no `{}` region in the trace", path, region);
  }
  RegionFacts facts;
  facts.regions = static_cast<int>(trace.regions.size());
  facts.kernels = trace.median.kernels;
  facts.memcpy = trace.median.memcpy;
  facts.memset = trace.median.memset;
  facts.memcpy_by_kind = trace.median.memcpy_by_kind;
  facts.gpu_busy_us = trace.median.gpu_busy_ns / 1e3;
  facts.wall_us = trace.median.wall_ns / 1e3;
  facts.cpu_us = trace.median.cpu_ns / 1e3;
  facts.diagnostics = trace.diagnostics.total();
  facts.findings = trace.findings;
  if (!expectations.empty()) facts.expectations = check_expectations(expectations, trace);

  const ActivityRow* main = nullptr;
  for (const ActivityRow& row : trace.regions[trace.typical_region].activities) {
    if (row.kind != ActivityKind::kKernel) continue;
    if (!main || row.duration_ns > main->duration_ns) main = &row;
  }
  if (main) {
    facts.main_kernel = main->short_name;
    facts.main_kernel_us = main->duration_ns / 1e3;
    facts.launch_api = main->launch_api;
    facts.occupancy_pct = main->occupancy_pct;
    facts.occupancy_limiter = main->occupancy_limiter;
    facts.kineto_occupancy_pct = main->kineto_occupancy_pct;
  }
  return facts;
}

}  // namespace attnprof::bench
