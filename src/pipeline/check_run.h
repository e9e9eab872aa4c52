#pragma once
// `attnprof check` as one call, for the CLI and the Python module alike (attnprof.check): a trace
// checked against its expectations, or a study folder (attnprof bench --out) variant by variant,
// each against the `VARIANT: EXPRESSION` lines that name it, over its `forward` regions; with a
// baseline (a trace, or a study folder for a study) that `baseline.METRIC` reads.

#include <string>
#include <variant>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "render/check/check_output.h"
#include "render/output_format.h"

namespace attnprof {

struct CheckRequest {
  std::string target;  // a trace file, or a study folder
  std::string region;  // empty: as analyze chooses; `forward` for a study in the bench's layout
  std::vector<Expectation> expressions;  // given one by one (--expect), already parsed
  std::string expectations_file;         // "" for none; "-" reads standard input
  std::string baseline;                  // "" for none
  Limits limits;
};

struct CheckRun {
  bool study = false;
  std::vector<CheckReport> reports;  // one, or one per variant of a study
  // The traces a study's summary.json lists that are missing or not regular files: their
  // variants were not checked, so the check fails.
  std::vector<std::string> unchecked;
  // One line per old metric spelling the expressions use ("note: metric gpu_time_ms (ms) is now
  // gpu_busy_us (µs); ..."), for stderr: they still work for one release (docs/METRICS.md).
  std::vector<std::string> notes;

  bool holds() const;
  // One line per unchecked trace, naming the study.
  std::vector<std::string> unchecked_lines() const;
  std::string target;
};

// An expression that does not parse: its text, "WHAT at column N: TEXT (HINT)", and the column
// (1-based, into `text`) where it went wrong.
struct ExpressionError {
  std::string text;
  std::string description;
  int column = 0;
};

// The expressions of --expect (or the Python module's `expressions`), parsed; the first that
// does not parse, when one does not.
std::variant<std::vector<Expectation>, ExpressionError> parse_expressions(
    const std::vector<std::string>& texts);

// check's output in `format`; text is not fitted to the terminal.
std::string render_check(const CheckRun& run, OutputFormat format);

// Fails with one line on a file that cannot be read, a trace that cannot be analyzed, nothing
// to check, a baseline no expression reads (or an expression that reads none), or a baseline of
// the wrong kind (a folder for a trace, a trace for a study).
Result<CheckRun> run_check(const CheckRequest& request);

}  // namespace attnprof
