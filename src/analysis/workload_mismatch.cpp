#include "analysis/workload_mismatch.h"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

namespace attnprof {

namespace {

std::string devices_of(const TraceAnalysis& t) {
  std::set<std::string> names;
  for (const DeviceSummary& d : t.devices) names.insert(d.name + " (" + d.description + ")");
  return fmt::format("{}", fmt::join(names, ", "));
}

// "bfloat16, float32": each element type the attention ops' inputs had.
std::string element_types_of(const TraceAnalysis& t) {
  std::set<std::string> types;
  for (const AttentionInputs& i : t.attention_inputs)
    if (!i.element_type.empty()) types.insert(i.element_type);
  return fmt::format("{}", fmt::join(types, ", "));
}

// "512x512, 1x512": queries x keys of the distinct attention shapes, the most used first.
std::string shapes_of(const TraceAnalysis& t) {
  std::map<std::pair<int64_t, int64_t>, int64_t> ops;
  for (const AttentionInputs& i : t.attention_inputs) ops[{i.query_rows, i.keys}] += i.ops;
  std::vector<std::pair<int64_t, std::pair<int64_t, int64_t>>> ranked;
  for (const auto& [shape, count] : ops) ranked.push_back({-count, shape});
  std::sort(ranked.begin(), ranked.end());
  // The four most used say what the side ran; the rest are counted.
  constexpr size_t kShown = 4;
  std::vector<std::string> words;
  for (size_t i = 0; i < ranked.size() && i < kShown; ++i)
    words.push_back(fmt::format("{}x{}", ranked[i].second.first, ranked[i].second.second));
  std::string text = fmt::format("{}", fmt::join(words, ", "));
  if (ranked.size() > kShown) text += fmt::format(" and {} more", ranked.size() - kShown);
  return text;
}

void compare(std::vector<std::string>& out, std::string_view what, const std::string& a,
             const std::string& b) {
  if (!a.empty() && !b.empty() && a != b) out.push_back(fmt::format("{}: {} vs {}", what, a, b));
}

std::string problem_of(const RunProblem& p) {
  return fmt::format("batch {}, heads {}/{}, seq {}/{}, head_dim {}, {}{}", p.batch, p.heads,
                     p.kv_heads, p.q_seq, p.seq, p.head_dim, p.mask,
                     p.window > 0 ? fmt::format(" window {}", p.window) : std::string());
}

}  // namespace

std::vector<std::string> workload_mismatches(const TraceAnalysis& a, const TraceAnalysis& b) {
  std::vector<std::string> out;
  compare(out, "device", devices_of(a), devices_of(b));
  compare(out, "attention element type", element_types_of(a), element_types_of(b));
  compare(out, "attention shapes (queries x keys)", shapes_of(a), shapes_of(b));
  return out;
}

std::vector<std::string> workload_mismatches(const RunSummary& a, const RunSummary& b) {
  std::vector<std::string> out;
  compare(out, "device", a.device, b.device);
  std::set<std::string> dtypes_a, dtypes_b;
  for (const RunPoint& p : a.points) dtypes_a.insert(p.problem.dtype);
  for (const RunPoint& p : b.points) dtypes_b.insert(p.problem.dtype);
  compare(out, "dtype", fmt::format("{}", fmt::join(dtypes_a, ", ")),
          fmt::format("{}", fmt::join(dtypes_b, ", ")));
  // Points are compared in order, as the counters' diff pairs them (analysis/counter_diff.h).
  for (size_t i = 0; i < a.points.size() && i < b.points.size(); ++i) {
    const RunProblem &pa = a.points[i].problem, &pb = b.points[i].problem;
    compare(out, a.points.size() == 1 ? "problem" : fmt::format("point {} problem", i + 1),
            problem_of(pa), problem_of(pb));
  }
  return out;
}

}  // namespace attnprof
