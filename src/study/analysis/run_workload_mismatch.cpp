#include "study/analysis/run_workload_mismatch.h"

#include <set>

#include <fmt/format.h>

#include "analysis/diff/workload_mismatch.h"

namespace attnprof {

namespace {

std::string problem_of(const RunProblem& p) {
  return fmt::format("batch {}, heads {}/{}, seq {}/{}, head_dim {}, {}{}", p.batch, p.heads,
                     p.kv_heads, p.q_seq, p.seq, p.head_dim, name_in(kRunMaskNames, p.mask),
                     p.window > 0 ? fmt::format(" window {}", p.window) : std::string());
}

}  // namespace

std::vector<std::string> workload_mismatches(const RunSummary& a, const RunSummary& b) {
  std::vector<std::string> out;
  add_mismatch(out, "device", a.device, b.device);
  std::set<std::string> dtypes_a, dtypes_b;
  for (const RunPoint& p : a.points) dtypes_a.insert(p.problem.dtype);
  for (const RunPoint& p : b.points) dtypes_b.insert(p.problem.dtype);
  add_mismatch(out, "dtype", fmt::format("{}", fmt::join(dtypes_a, ", ")),
               fmt::format("{}", fmt::join(dtypes_b, ", ")));
  // Points are compared in order, as the counters' diff pairs them (study/analysis/counter_diff.h).
  for (size_t i = 0; i < a.points.size() && i < b.points.size(); ++i)
    add_mismatch(out, a.points.size() == 1 ? "problem" : fmt::format("point {} problem", i + 1),
                 problem_of(a.points[i].problem), problem_of(b.points[i].problem));
  return out;
}

}  // namespace attnprof
