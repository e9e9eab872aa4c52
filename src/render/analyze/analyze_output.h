#pragma once
// The whole output of `attnprof analyze`: each trace read, then, when two or more were, what
// compares them (docs/ARCHITECTURE.md), and the traces that could not be read.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "attnprof/render.h"
#include "base/enum_names.h"
#include "render/json_writer.h"

namespace attnprof {

// The tables analyze's CSV can hold (--table): one row per GPU activity, per kernel, op or
// nn.Module instance, per attention call, per CUDA device (memory), per collective name, or per
// region (its critical path), of every region.
enum class AnalyzeCsvTable : uint8_t {
  kActivities,
  kKernels,
  kOps,
  kModules,
  kAttention,
  kMemory,
  kCriticalPath,
  kCollectives,
};
// --table's values, in the order its help lists them.
inline constexpr EnumNames<AnalyzeCsvTable, 8> kAnalyzeCsvTableNames = {{
    {AnalyzeCsvTable::kActivities, "activities"},
    {AnalyzeCsvTable::kKernels, "kernels"},
    {AnalyzeCsvTable::kOps, "ops"},
    {AnalyzeCsvTable::kModules, "modules"},
    {AnalyzeCsvTable::kAttention, "attention"},
    {AnalyzeCsvTable::kMemory, "memory"},
    {AnalyzeCsvTable::kCriticalPath, "critical_path"},
    {AnalyzeCsvTable::kCollectives, "collectives"},
}};

struct UnreadTrace {
  std::string path;
  std::string error;  // the one line, which names the file
  ErrorKind kind = ErrorKind::kIo;
};

struct AnalyzeOutput {
  const std::vector<TraceAnalysis>& traces;  // those read, in input order
  const CrossTraceSummary* across;           // null unless they are ranks of one run
  const std::vector<UnreadTrace>& unread;    // in input order
};

// Said instead of the comparison when several traces were read that are not ranks of one run.
inline constexpr const char* kNotComparedWords =
    "Not compared across traces: they are not the ranks of one distributed run (distributedInfo "
    "with one world size and a rank of its own in each).";

// analyze's JSON written as the traces are analyzed, each trace while its model is in memory, so
// that every region's activities are listed one region at a time and never held all at once
// (docs/PERFORMANCE.md). render_analyze_json writes the same bytes from analyses already made.
class AnalyzeJsonStream {
 public:
  explicit AnalyzeJsonStream(JsonWriter& w);
  // One trace read, in input order; the first call writes the document's head.
  void trace(const TraceAnalysis& analysis, const RegionActivities& activities,
             const RegionTablesOf& tables);
  // The rest of the document: across_traces (when `across` is set), errors. Writes nothing when
  // no trace was written: with no trace read, analyze prints only the errors.
  void finish(const CrossTraceSummary* across, const std::vector<TraceAnalysis>& traces,
              const std::vector<UnreadTrace>& unread);
  bool started() const { return started_; }

 private:
  JsonWriter& w_;
  bool started_ = false;
};

std::string render_analyze_text(const AnalyzeOutput& output, const TextView& view = {});
std::string render_analyze_json(const AnalyzeOutput& output);
std::string render_analyze_markdown(const AnalyzeOutput& output);
// One row per GPU activity of every region (analyze with activities_of_every_region).
std::string render_analyze_csv(const AnalyzeOutput& output);
// One row per kernel, op or nn.Module instance of every region (`table`: kKernels, kOps or
// kModules; analyze --format csv --table).
std::string render_top_table_csv(const AnalyzeOutput& output, AnalyzeCsvTable table);
// One row per attention call of every region (analyze --format csv --table attention).
std::string render_attention_calls_csv(const AnalyzeOutput& output);
// With --table memory: one row per CUDA device of every region (docs/json-schema.md, "CSV").
std::string render_memory_csv(const AnalyzeOutput& output);
// One row per region: its critical path's length and categories, attention on it, what bounds it
// and the what-if (analyze --format csv --table critical_path).
std::string render_critical_path_csv(const AnalyzeOutput& output);

// The section that compares the traces, as analyze's text and Markdown print it (merge prints
// it alone).
void append_cross_trace_text(std::string& out, const CrossTraceSummary& across);
// What follows the traces in text: the comparison (or why there is none), then the traces that
// could not be read.
void append_comparison_text(std::string& out, const AnalyzeOutput& output);
void append_comparison_markdown(std::string& out, const AnalyzeOutput& output);
void append_cross_trace_markdown(std::string& out, const CrossTraceSummary& across);

// The "across_traces" object of the JSON output (docs/json-schema.md).
void write_cross_trace_json(JsonWriter& w, const CrossTraceSummary& across,
                            const std::vector<TraceAnalysis>& traces);

}  // namespace attnprof
