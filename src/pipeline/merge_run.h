#pragma once
// `attnprof merge` as the pipeline's calls, for the CLI and the Python module alike
// (attnprof.distributed): trace summaries (analyze --format summary, docs/DISTRIBUTED.md) into
// the traces they describe, compared as analyze compares traces read in one process.

#include <string>
#include <vector>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "pipeline/analyze_run.h"

namespace attnprof {

// One or more summary lines and where they came from, for messages.
struct TraceSummaryText {
  std::string text;
  std::string origin;
};

// Each summary kept as what it is: an analysis, or an error's path and line alone. Fails with one
// line naming the origin's line and byte on a text that is not a summary.
Result<TracesRead> merge_trace_summaries(const std::vector<TraceSummaryText>& summaries);

// As merge_trace_summaries, the summaries read from files ("-": standard input), each at most
// `limits.max_side_file_bytes`; fails on the first that cannot be read or is not a summary.
Result<TracesRead> merge_trace_summary_files(const std::vector<std::string>& paths,
                                             const Limits& limits);

// merge's output: text (not fitted to the terminal), JSON or Markdown.
std::string render_merge(const TracesRead& traces, OutputFormat format);

}  // namespace attnprof
