// `attnprof analyze --format csv --table attention`: one row per attention call of every region
// of every trace read (docs/json-schema.md, "CSV"), the same values as JSON's attention_calls.

#include <fmt/format.h>

#include "render/analyze/analyze_output.h"
#include "render/csv_writer.h"

namespace attnprof {

namespace {

template <typename T>
void optional_cell(CsvWriter& csv, const std::optional<T>& v) {
  if (!v)
    csv.empty();
  else if constexpr (std::is_same_v<T, bool>)
    csv.text(*v ? "true" : "false");
  else
    csv.number(*v);
}

}  // namespace

std::string render_attention_calls_csv(const AnalyzeOutput& output) {
  CsvWriter csv({"trace",           "rank",       "region",        "region_index",  "region_pid",
                 "typical",         "op",         "backend",       "batch",         "heads",
                 "kv_heads",        "q_len",      "kv_len",        "head_dim",      "dtype",
                 "causal",          "window",     "explicit_mask", "flops",         "gpu_us",
                 "tflops_per_s",    "bytes",      "roof_pct",      "roof",          "backward",
                 "backend_op",      "kernels",    "main_kernel",   "flops_assumed", "note",
                 "allocated_bytes", "freed_bytes"});
  for (const TraceAnalysis& t : output.traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& region = t.regions[i];
      for (const AttentionCall& c : region.attention.calls) {
        csv.text(t.path).number(int64_t{t.rank}).text(region.name).number(int64_t(i));
        csv.number(int64_t{region.pid}).text(int(i) == t.typical_region ? "true" : "false");
        csv.text(c.op).text(attention_backend_id(c.backend));
        optional_cell(csv, c.batch);
        optional_cell(csv, c.heads);
        optional_cell(csv, c.kv_heads);
        optional_cell(csv, c.q_len);
        optional_cell(csv, c.kv_len);
        optional_cell(csv, c.head_dim);
        csv.text(c.dtype);
        optional_cell(csv, c.causal);
        optional_cell(csv, c.window);
        csv.text(c.explicit_mask ? "true" : "false");
        optional_cell(csv, c.flops);
        csv.number(static_cast<double>(c.gpu_ns) / 1000.0);
        optional_cell(csv, c.tflops());
        optional_cell(csv, c.bytes);
        optional_cell(csv, c.roof_pct);
        csv.text(c.roof);
        csv.text(c.backward ? "true" : "false").text(c.backend_op).number(c.kernels);
        csv.text(c.main_kernel).text(c.assumed).text(c.note);
        optional_cell(csv, c.allocated_bytes);
        optional_cell(csv, c.freed_bytes);
        csv.end_row();
      }
    }
  }
  return csv.take();
}

}  // namespace attnprof
