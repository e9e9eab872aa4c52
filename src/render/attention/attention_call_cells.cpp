#include "render/attention/attention_call_cells.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/format_units.h"

namespace attnprof {

namespace {

// Alike but for the key length, which a decode step's calls grow by one a token (their FLOPs
// with it); with or without FLOPs alike.
bool alike(const AttentionCall& a, const AttentionCall& b) {
  return a.op == b.op && a.backend_op == b.backend_op && a.backend == b.backend &&
         a.backward == b.backward && a.batch == b.batch && a.heads == b.heads &&
         a.kv_heads == b.kv_heads && a.q_len == b.q_len &&
         a.kv_len.has_value() == b.kv_len.has_value() && a.head_dim == b.head_dim &&
         a.dtype == b.dtype && a.causal == b.causal && a.window == b.window &&
         a.explicit_mask == b.explicit_mask && a.flops.has_value() == b.flops.has_value() &&
         a.roof_note.empty() == b.roof_note.empty();
}

}  // namespace

double AttentionCallGroup::median_ns() const {
  if (execution_ns.empty()) return 0;
  std::vector<double> sorted = execution_ns;
  std::sort(sorted.begin(), sorted.end());
  const size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

std::vector<AttentionCallGroup> attention_call_groups(const std::vector<AttentionCall>& calls,
                                                      std::vector<size_t>* group_of) {
  std::vector<AttentionCallGroup> groups;
  if (group_of) group_of->clear();
  for (const AttentionCall& c : calls) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const AttentionCallGroup& g) { return alike(*g.first, c); });
    if (it == groups.end()) it = groups.insert(groups.end(), AttentionCallGroup{.first = &c});
    if (group_of) group_of->push_back(static_cast<size_t>(it - groups.begin()));
    it->count += c.executions;
    it->gpu_ns += c.gpu_ns;
    it->flops += c.flops.value_or(0);
    if (c.kv_len) {
      it->kv_min = std::min(it->kv_min.value_or(*c.kv_len), *c.kv_len);
      it->kv_max = std::max(it->kv_max.value_or(*c.kv_len), *c.kv_len);
    }
    const double each = static_cast<double>(c.gpu_ns) / static_cast<double>(c.executions);
    it->execution_ns.insert(it->execution_ns.end(), static_cast<size_t>(c.executions), each);
    if (c.allocated_bytes)
      it->allocated_bytes = it->allocated_bytes.value_or(0) + *c.allocated_bytes;
    if (c.freed_bytes) it->freed_bytes = it->freed_bytes.value_or(0) + *c.freed_bytes;
  }
  return groups;
}

std::string attention_count_cell(const std::optional<int64_t>& v) {
  return v ? fmt::format("{}", *v) : std::string("-");
}

// "16/4": query heads over KV heads where they differ.
std::string attention_heads_cell(const AttentionCall& c) {
  if (!c.heads) return "-";
  return c.kv_heads && *c.kv_heads != *c.heads ? fmt::format("{}/{}", *c.heads, *c.kv_heads)
                                               : fmt::format("{}", *c.heads);
}

std::string attention_lengths_cell(const AttentionCallGroup& g) {
  const AttentionCall& c = *g.first;
  if (!c.q_len || !g.kv_min) return "-";
  return *g.kv_min == *g.kv_max ? fmt::format("{}x{}", *c.q_len, *g.kv_min)
                                : fmt::format("{}x{}..{}", *c.q_len, *g.kv_min, *g.kv_max);
}

// What the mask lets through: "causal", "window 256", "causal w256", "none", "tensor" (an
// explicit mask, its contents unknown), "-" (not recorded).
std::string attention_mask_cell(const AttentionCall& c) {
  if (c.explicit_mask) return "tensor";
  if (!c.causal) return "-";
  if (c.window) return fmt::format("{}w{}", *c.causal ? "causal " : "window ", *c.window);
  return *c.causal ? "causal" : "none";
}

std::string attention_gflop_cell(const AttentionCallGroup& g) {
  return g.first->flops ? fmt::format("{:.3g}", g.flops / static_cast<double>(g.count) / 1e9)
                        : std::string("-");
}

std::string attention_tflops_cell(const AttentionCallGroup& g) {
  return g.first->flops && g.gpu_ns > 0
             ? fmt::format("{:.1f}", g.flops / static_cast<double>(g.gpu_ns) / 1e3)
             : std::string("-");
}

// The group's rate against its roof (the same for every call of a group: alike shapes, one GPU).
std::string attention_roof_cell(const AttentionCallGroup& g) {
  const AttentionCall& c = *g.first;
  if (!c.roof_note.empty()) return "above";
  if (!c.roof_pct || !c.tflops() || g.gpu_ns <= 0) return "-";
  const double rate = g.flops / static_cast<double>(g.gpu_ns) / 1e3;
  const double pct = *c.roof_pct * rate / *c.tflops();
  if (pct > 100.0) return "above";
  // A compute roof's first word is its precision ("bf16 dense 989 TFLOP/s").
  const std::string_view roof =
      c.memory_roof ? "mem" : std::string_view(c.roof).substr(0, c.roof.find(' '));
  return fmt::format("{:.1f} {}", pct, roof);
}

bool attention_memory_known(const std::vector<AttentionCallGroup>& groups) {
  return std::any_of(groups.begin(), groups.end(),
                     [](const AttentionCallGroup& g) { return g.allocated_bytes.has_value(); });
}

namespace {

std::string per_call_bytes(const std::optional<int64_t>& bytes, int64_t count) {
  return bytes && count > 0 ? format_bytes(*bytes / count) : std::string("-");
}

}  // namespace

std::string attention_allocated_cell(const AttentionCallGroup& g) {
  return per_call_bytes(g.allocated_bytes, g.count);
}

std::string attention_freed_cell(const AttentionCallGroup& g) {
  return per_call_bytes(g.freed_bytes, g.count);
}

std::string attention_calls_heading(const TraceAnalysis& t) {
  const MedianAttentionCalls& m = t.attention;
  return fmt::format("Attention calls of the typical region (#{}){}", t.typical_region + 1,
                     m.same_in_every_region && m.regions > 1
                         ? fmt::format(", GPU times the median over {} regions", m.regions)
                         : std::string());
}

// Attention's part of a region: medians over the regions.
std::string attention_share_words(const TraceAnalysis& t) {
  const MedianAttentionCalls& m = t.attention;
  return fmt::format(
      "attention: {} call(s), {} of GPU time a region{}", m.calls.size(),
      format_duration(static_cast<double>(m.gpu_ns)),
      m.share_pct ? fmt::format(", {} of its GPU busy time (medians)", format_percent(*m.share_pct))
                  : std::string(" (medians)"));
}

// Each distinct text once, in the order first seen.
std::vector<std::string> distinct_call_texts(const std::vector<AttentionCallGroup>& groups,
                                             std::string AttentionCall::*field) {
  std::vector<std::string> out;
  for (const AttentionCallGroup& g : groups) {
    const std::string& text = g.first->*field;
    if (!text.empty() && std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
  }
  return out;
}

}  // namespace attnprof
