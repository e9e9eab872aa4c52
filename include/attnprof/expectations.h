#pragma once
// Expectations: what a trace should show, written down before reading it, then checked.
// `attnprof check` and the bench use these; the grammar is in docs/check-and-diff.md.
//
//   kernels == 1
//   memcpy == 0 and memset == 0
//   main_kernel ~ "flash"          # ~ : contains, case-insensitive
//   launch_api == cuLaunchKernelEx
//   occupancy_pct >= 10
//
// Numbers compare the median over the trace's regions; main_kernel and its properties are those
// of the typical region's longest kernel.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

enum class CompareOp { kEq, kNe, kLt, kLe, kGt, kGe, kContains, kNotContains };

// A value read from the baseline (`check --baseline`): `baseline.METRIC`, optionally scaled or
// shifted by a number: `baseline.gpu_busy_us * 1.05`, `baseline.kernels + 1`.
struct BaselineValue {
  std::string metric;
  char op = 0;  // '*', '/', '+', '-', or 0 for none
  double operand = 0;

  // The value the comparison is made against, from the baseline's median.
  double applied_to(double baseline) const {
    switch (op) {
      case '*':
        return baseline * operand;
      case '/':
        return baseline / operand;
      case '+':
        return baseline + operand;
      case '-':
        return baseline - operand;
    }
    return baseline;
  }
};

// `METRIC OP VALUE`.
struct Comparison {
  std::string metric;
  CompareOp op = CompareOp::kEq;
  std::string value;                      // as written, without quotes
  std::optional<double> number;           // when the value is a number
  std::optional<BaselineValue> baseline;  // when the value is `baseline.METRIC ...`
};

// One expression: one comparison, or several joined by `and`.
struct Expectation {
  std::string text;    // as written, trimmed
  std::string source;  // "FILE:LINE" for one read from a file, "" otherwise
  std::vector<Comparison> all_of;
};

// What the trace shows for one metric of an expression, as a value a program can compare.
struct ActualValue {
  std::string metric;
  bool available = false;        // false: the trace cannot give it (actual says why)
  std::optional<double> number;  // a number metric: the median over regions
  double min = 0, max = 0;       // over regions (equal to the median for a single value)
  int regions = 0;               // how many regions the number summarizes
  std::string text;              // a text metric: its value (the short name for main_kernel)
};

struct ExpectationResult {
  std::string text;
  std::string source;
  bool holds = false;
  std::vector<ActualValue> values;  // one per metric of the expression, in order
  // What the trace shows, for each metric of the expression: "1", "flash_fwd_kernel<...>",
  // "2.271 (median of 3 regions, 2.270..2.273)", "n/a (no region matches \"forward\")".
  std::string actual;
};

// Parses one expression. Fails with "WHAT at column N: TEXT (HINT)" (N counts from 1), e.g.
// "expected an operator at column 9: kernels = 1 (operators: == != < <= > >= ~ !~)", for a syntax
// error, an unknown metric, or an operator or value of the wrong type for its metric.
Result<Expectation> parse_expectation(std::string_view text);

// Parses an expectations file's content: one expression per line; `#` starts a comment; blank
// lines are ignored. Fails with "SOURCE:LINE:COLUMN: WHAT: TEXT (HINT)" at the first bad line.
Result<std::vector<Expectation>> parse_expectations(std::string_view content,
                                                    std::string_view source);

// Reads and parses the file at `path` ("-": standard input); fails as parse_expectations does, or
// when the file cannot be read, is a directory, is longer than `limits.max_side_file_bytes`, or
// holds more expressions than `limits.max_expectations` (counted before any is parsed).
Result<std::vector<Expectation>> load_expectations(const std::string& path,
                                                   const Limits& limits = Limits{});

// Whether any comparison reads the baseline (`baseline.METRIC`).
bool uses_baseline(const std::vector<Expectation>& expectations);

// Evaluates each expectation on `analysis`. Per-class metrics (kernels.gemm, ...) read the
// regions whose activities were listed: analyze with AnalyzeOptions::activities_of_every_region
// for medians over every region.
// `baseline`: what `baseline.METRIC` values read (check --baseline); null for none.
std::vector<ExpectationResult> check_expectations(const std::vector<Expectation>& expectations,
                                                  const TraceAnalysis& analysis,
                                                  const TraceAnalysis* baseline = nullptr);

inline bool all_hold(const std::vector<ExpectationResult>& results) {
  for (const auto& r : results)
    if (!r.holds) return false;
  return true;
}

}  // namespace attnprof
