// `attnprof analyze --format csv --table memory`: one row per CUDA device of every region of every
// trace read (docs/json-schema.md, "CSV"), the same values as JSON's "memory", with the largest
// holder at the peak.

#include "render/analyze/analyze_output.h"
#include "render/csv_writer.h"

namespace attnprof {

std::string render_memory_csv(const AnalyzeOutput& output) {
  CsvWriter csv({"trace", "rank", "region", "region_index", "region_pid", "typical", "device",
                 "events", "peak_allocated_bytes", "peak_at_us", "peak_op", "peak_module",
                 "at_start_bytes", "at_end_bytes", "peak_reserved_bytes",
                 "allocated_before_trace_bytes", "top_allocator", "top_allocator_bytes"});
  for (const TraceAnalysis& t : output.traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& region = t.regions[i];
      for (const RegionMemory& m : region.memory) {
        csv.text(t.path);
        t.rank < 0 ? csv.empty() : csv.number(int64_t{t.rank});
        csv.text(region.name).number(int64_t(i));
        csv.number(int64_t{region.pid}).text(int(i) == t.typical_region ? "true" : "false");
        csv.number(int64_t{m.device}).number(m.events).number(m.peak_allocated_bytes);
        csv.number(static_cast<double>(m.peak_at_ns) / 1000.0);
        csv.text(m.peak_op).text(m.peak_module);
        csv.number(m.at_start_bytes).number(m.at_end_bytes).number(m.peak_reserved_bytes);
        csv.number(m.allocated_before_trace_bytes);
        if (m.top_allocators.empty()) {
          csv.empty().empty();
        } else {
          csv.text(m.top_allocators.front().op).number(m.top_allocators.front().bytes);
        }
        csv.end_row();
      }
    }
  }
  return csv.take();
}

}  // namespace attnprof
