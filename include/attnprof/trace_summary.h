#pragma once
// A trace's summary: the map half of an analysis spread over many processes or machines
// (docs/DISTRIBUTED.md). `attnprof analyze --format summary` (or `attnprof.summarize` in Python)
// reads one trace where it lies and writes a small versioned JSON line of what the comparison
// across ranks needs: the trace's identity (path, rank, world size, devices) and each region's
// counts and times, without activities or findings. `attnprof merge` (`attnprof.merge`) reads
// any number of them back and compares the ranks exactly as `analyze` does with every trace in
// one process: the numbers are integers of nanoseconds, so nothing is lost on the way.
//
// A trace that could not be read still gives a summary: its error line, so that a map over
// thousands of traces hands every trace's outcome to the reduce, and the reduce reports it as
// `analyze` reports a trace it could not read.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/result.h"

namespace attnprof {

// What the summary's "format" key says, and the version this attnprof writes and reads (a
// summary of a later version is refused, with a line saying so).
inline constexpr std::string_view kTraceSummaryFormat = "attnprof-trace-summary";
// Version 2 added each region's waits (idle by cause per stream, launch delays, queues).
inline constexpr int kTraceSummaryVersion = 2;

// One JSON object on one line, ending in a newline: summaries of many traces are JSON Lines.
std::string write_trace_summary(const TraceAnalysis& analysis);
// The summary of a trace that could not be read: its path and its error.
std::string write_trace_summary(const std::string& path, const Error& error);

// A summary read back: the trace's analysis (regions without activities; the facts recomputed
// from the regions as analyze_file computes them; no findings, per-class facts or main kernel),
// or the error the map met.
struct SummarizedTrace {
  std::string path;
  Result<TraceAnalysis> outcome;
};

// Reads the summaries of `text` (one JSON object per non-blank line). `origin` names the text in
// messages (a file's path). Fails on the first line that is not a summary, naming the line and
// its byte offset and what is wrong, and on a summary of a later version.
Result<std::vector<SummarizedTrace>> read_trace_summaries(std::string_view text,
                                                          const std::string& origin);
// As read_trace_summaries, each summary handed to `take` as it is read rather than all kept: a
// summary holds a whole TraceAnalysis's room, so a file of many error lines kept as summaries
// took kilobytes a line; `take` keeps what it needs (merge: an error's path and line).
Status for_each_trace_summary(std::string_view text, const std::string& origin,
                              const std::function<void(SummarizedTrace&&)>& take);

}  // namespace attnprof
