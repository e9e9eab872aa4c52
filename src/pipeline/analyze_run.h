#pragma once
// `attnprof analyze` as the pipeline's calls, for the CLI and the Python module alike
// (attnprof.read): the traces read, those that could not be, and what compares them when they
// are the ranks of one run; `merge` ends in the same (pipeline/merge_run.h). Then the output in
// the format asked for.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "attnprof/result.h"
#include "pipeline/trace_inputs.h"
#include "render/analyze/analyze_output.h"
#include "render/json_writer.h"
#include "render/output_format.h"

namespace attnprof {

// The outcome of reading several traces, in input order.
struct TracesRead {
  std::vector<TraceAnalysis> read;
  std::vector<UnreadTrace> unread;
  std::vector<bool> input_failed;  // per input: whether it is among `unread`
  // What compares the traces read, when they are the ranks of one run (are_ranks_of_one_run).
  std::optional<CrossTraceSummary> across;

  // One input's outcome, in input order.
  void add(const std::string& path, Result<TraceAnalysis>&& outcome);
  // Sets `across` when the traces read are the ranks of one run; call once every input is added.
  void compare_ranks();
  AnalyzeOutput output() const { return {read, across ? &*across : nullptr, unread}; }
};

// Adds the --what-if rules (SELECTOR=FACTOR each, docs/CRITICAL_PATH.md) to `options`. Fails with
// the rule's error, or on more than kMaxWhatIfRules, naming `flag`.
Status add_what_if_rules(AnalyzeOptions& options, const std::vector<std::string>& rules,
                         std::string_view flag);

// What the analyses keep for `format` (and CSV's `table`): every region's activities, top
// tables and attention calls only where that output lists them.
void keep_for_output(AnalyzeOptions& options, OutputFormat format, AnalyzeCsvTable table);

// The regions to read when `region` is empty: a study's traces are read over the bench's
// `forward` annotations, as report and check read them; other traces as analyze_file chooses.
// Both at once would need two patterns: refused, with the flag that settles it.
Result<std::string> region_pattern_of(const std::string& region,
                                      const std::vector<TraceInput>& inputs);

// Reads each input (one that carries an error is unread as it is) with analyze_files, then
// compares the ranks unless `compare_ranks` is false (analyze --format summary writes each trace
// alone, for merge to compare).
TracesRead read_traces(const std::vector<TraceInput>& inputs, const AnalyzeOptions& options,
                       const ManyTracesOptions& many, bool compare_ranks = true);

// analyze's output in `format`, but JSON (written as the traces are read: AnalyzeJsonOutput) and
// text's fitting to the terminal: summary lines (one per input, its error's line too, so that
// merge reports every trace), Markdown, CSV (of `table`) or text.
std::string render_analyze(const TracesRead& traces, OutputFormat format, AnalyzeCsvTable table,
                           const TextView& view);

// analyze's JSON, written as each trace is read (ManyTracesOptions::analyzed_in_order) to `sink`,
// or to standard output without one, so that every region's activities are never held at once.
class AnalyzeJsonOutput {
 public:
  explicit AnalyzeJsonOutput(JsonWriter::Sink sink = nullptr);
  void trace(const TraceAnalysis& analysis, const RegionActivities& activities,
             const RegionTablesOf& tables);
  // The rest of the document; false when it could not be written.
  bool finish(const TracesRead& traces);

 private:
  JsonWriter writer_;
  AnalyzeJsonStream stream_;
};

}  // namespace attnprof
