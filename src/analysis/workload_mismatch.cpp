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

// "bf16, fp32": each element type the typical region's attention calls had.
std::string dtypes_of(const TraceAnalysis& t) {
  std::set<std::string> types;
  for (const AttentionCall& c : t.attention.calls)
    if (!c.dtype.empty()) types.insert(c.dtype);
  return fmt::format("{}", fmt::join(types, ", "));
}

// "bf16, fp32": the element types of the typical region's matrix products (its ops table's GEMM
// rows, from their recorded inputs), so that a model run in fp32 against one in bf16 is named.
std::string gemm_dtypes_of(const TraceAnalysis& t) {
  if (t.typical_region < 0 || static_cast<size_t>(t.typical_region) >= t.regions.size()) return "";
  std::set<std::string> types;
  for (const OpTotal& op : t.regions[t.typical_region].tables.ops)
    if (op.gemm && !op.dtype.empty()) types.insert(op.dtype);
  return fmt::format("{}", fmt::join(types, ", "));
}

// "16x512x512x64": heads x queries x keys x head dim, "?" where the trace does not say.
std::string shape_of(const AttentionCall& c) {
  auto part = [](const std::optional<int64_t>& v) { return v ? std::to_string(*v) : "?"; };
  return fmt::format("{}x{}x{}x{}", part(c.heads), part(c.q_len), part(c.kv_len), part(c.head_dim));
}

// The distinct shapes of the typical region's attention calls, the most frequent first; the four
// most frequent say what the side ran, the rest are counted.
std::string shapes_of(const TraceAnalysis& t) {
  std::map<std::string, int64_t> calls;
  for (const AttentionCall& c : t.attention.calls)
    if (c.q_len || c.kv_len) ++calls[shape_of(c)];
  std::vector<std::pair<int64_t, std::string>> ranked;
  for (const auto& [shape, count] : calls) ranked.push_back({-count, shape});
  std::sort(ranked.begin(), ranked.end());
  constexpr size_t kShown = 4;
  std::vector<std::string> words;
  for (size_t i = 0; i < ranked.size() && i < kShown; ++i) words.push_back(ranked[i].second);
  std::string text = fmt::format("{}", fmt::join(words, ", "));
  if (ranked.size() > kShown) text += fmt::format(" and {} more", ranked.size() - kShown);
  return text;
}

}  // namespace

std::vector<std::string> workload_mismatches(const TraceAnalysis& a, const TraceAnalysis& b) {
  std::vector<std::string> out;
  add_mismatch(out, "device", devices_of(a), devices_of(b));
  add_mismatch(out, "attention dtype", dtypes_of(a), dtypes_of(b));
  add_mismatch(out, "attention shapes (heads x queries x keys x head dim)", shapes_of(a),
               shapes_of(b));
  add_mismatch(out, "GEMM dtype", gemm_dtypes_of(a), gemm_dtypes_of(b));
  return out;
}

void add_mismatch(std::vector<std::string>& out, std::string_view what, const std::string& a,
                  const std::string& b) {
  if (!a.empty() && !b.empty() && a != b) out.push_back(fmt::format("{}: {} vs {}", what, a, b));
}

}  // namespace attnprof
