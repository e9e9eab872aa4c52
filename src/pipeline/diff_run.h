#pragma once
// `attnprof diff` as one call, for the CLI and the Python module alike (attnprof.diff): both
// traces read and analyzed the same way, then compared (attnprof/trace_diff.h); the CLI's output
// made from it, or from two bench run folders' hardware counters.

#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "attnprof/trace_diff.h"
#include "render/diff/diff_output.h"
#include "render/output_format.h"

namespace attnprof {

struct DiffRequest {
  std::string a, b;    // the baseline trace and the one compared with it ("-": standard input)
  std::string region;  // empty: as analyze chooses, in each trace
  Limits limits;
};

// Fails with the first trace's error (unreadable, not a trace, no region matching) or
// diff_traces's.
Result<TraceDiff> run_diff(const DiffRequest& request);

// What diff writes, text not fitted to the terminal. Two bench run folders (summary.json in each)
// give their hardware counters compared, variant by variant (bench --counters, docs/counters.md),
// as text only: another format is refused rather than answered with text. Two traces give
// run_diff's result in `format`; `table` is CSV's, refused with another
// format when it is not the default.
Result<std::string> diff_output(const DiffRequest& request, OutputFormat format,
                                const DiffTextOptions& text, DiffCsvTable table);

}  // namespace attnprof
