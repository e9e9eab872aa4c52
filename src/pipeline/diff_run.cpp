#include "pipeline/diff_run.h"

#include "attnprof/analysis.h"

namespace attnprof {

Result<TraceDiff> run_diff(const DiffRequest& request) {
  AnalyzeOptions options;
  options.region_pattern = request.region;
  // Each activity's spread over every region, for the aligned activities' noise; the top tables
  // and attention calls of every region (the defaults), for the views' noise.
  options.activities_of_every_region = true;
  options.tables_of_every_region = true;
  options.attention_of_every_region = true;
  options.limits = request.limits;
  auto a = analyze_file(request.a, options);
  if (!a.ok()) return a.take_error();
  auto b = analyze_file(request.b, options);
  if (!b.ok()) return b.take_error();
  return diff_traces(*a, *b);
}

}  // namespace attnprof
