#include "render/attention_calls_text.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

namespace {

constexpr size_t kOpWidth = 20;

// Calls alike in all but their GPU time.
struct CallGroup {
  const AttentionCall* first = nullptr;
  int64_t count = 0;
  int64_t gpu_ns = 0;
  double flops = 0;  // of the calls whose FLOPs are known (all or none: the shapes are alike)
};

bool alike(const AttentionCall& a, const AttentionCall& b) {
  return a.op == b.op && a.backend_op == b.backend_op && a.backend == b.backend &&
         a.backward == b.backward && a.batch == b.batch && a.heads == b.heads &&
         a.kv_heads == b.kv_heads && a.q_len == b.q_len && a.kv_len == b.kv_len &&
         a.head_dim == b.head_dim && a.dtype == b.dtype && a.causal == b.causal &&
         a.window == b.window && a.explicit_mask == b.explicit_mask && a.flops == b.flops;
}

std::vector<CallGroup> groups_of(const std::vector<AttentionCall>& calls) {
  std::vector<CallGroup> groups;
  for (const AttentionCall& c : calls) {
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const CallGroup& g) { return alike(*g.first, c); });
    if (it == groups.end()) it = groups.insert(groups.end(), CallGroup{&c, 0, 0, 0});
    ++it->count;
    it->gpu_ns += c.gpu_ns;
    it->flops += c.flops.value_or(0);
  }
  return groups;
}

// The op as the table shows it: without "aten::", and an op's name cut from the left when too long
// (the end tells "_cudnn_attention_backward" from "_flash_attention_forward"); a chain's from the
// right (its first ops say what it is).
std::string op_cell(const AttentionCall& c) {
  std::string text = escape_control(c.op.empty() ? c.main_kernel : c.op);
  for (size_t at; (at = text.find("aten::")) != std::string::npos;) text.erase(at, 6);
  const bool ascii = std::all_of(text.begin(), text.end(), [](char ch) { return ch > 0; });
  const bool chain = c.op.find(" -> ") != std::string::npos;
  if (chain || !ascii || text.size() <= kOpWidth) return clip(text, kOpWidth);
  return "..." + text.substr(text.size() - (kOpWidth - 3));
}

std::string cell(const std::optional<int64_t>& v) {
  return v ? fmt::format("{}", *v) : std::string("-");
}

// "16/4": query heads over KV heads where they differ.
std::string heads_cell(const AttentionCall& c) {
  if (!c.heads) return "-";
  return c.kv_heads && *c.kv_heads != *c.heads ? fmt::format("{}/{}", *c.heads, *c.kv_heads)
                                               : fmt::format("{}", *c.heads);
}

std::string lengths_cell(const AttentionCall& c) {
  return c.q_len && c.kv_len ? fmt::format("{}x{}", *c.q_len, *c.kv_len) : std::string("-");
}

// What the mask lets through: "causal", "window 256", "causal w256", "none", "tensor" (an
// explicit mask, its contents unknown), "-" (not recorded).
std::string mask_cell(const AttentionCall& c) {
  if (c.explicit_mask) return "tensor";
  if (!c.causal) return "-";
  if (c.window) return fmt::format("{}w{}", *c.causal ? "causal " : "window ", *c.window);
  return *c.causal ? "causal" : "none";
}

std::string gflop_cell(const CallGroup& g) {
  return g.first->flops ? fmt::format("{:.3g}", g.flops / static_cast<double>(g.count) / 1e9)
                        : std::string("-");
}

std::string tflops_cell(const CallGroup& g) {
  return g.first->flops && g.gpu_ns > 0
             ? fmt::format("{:.1f}", g.flops / static_cast<double>(g.gpu_ns) / 1e3)
             : std::string("-");
}

// The group's rate against its roof (the same for every call of a group: alike shapes, one GPU).
std::string roof_cell(const CallGroup& g) {
  const AttentionCall& c = *g.first;
  if (!c.roof_pct || !c.tflops() || g.gpu_ns <= 0) return "-";
  const double rate = g.flops / static_cast<double>(g.gpu_ns) / 1e3;
  return fmt::format("{:.1f}", *c.roof_pct * rate / *c.tflops());
}

std::string heading(const TraceAnalysis& t) {
  const MedianAttentionCalls& m = t.attention;
  return fmt::format("Attention calls of the typical region (#{}){}", t.typical_region + 1,
                     m.same_in_every_region && m.regions > 1
                         ? fmt::format(", GPU times the median over {} regions", m.regions)
                         : std::string());
}

// Attention's part of a region: medians over the regions.
std::string share_words(const TraceAnalysis& t) {
  const MedianAttentionCalls& m = t.attention;
  return fmt::format(
      "attention: {} call(s), {} of GPU time a region{}", m.calls.size(),
      format_duration(static_cast<double>(m.gpu_ns)),
      m.share_pct ? fmt::format(", {} of its GPU busy time (medians)", format_percent(*m.share_pct))
                  : std::string(" (medians)"));
}

// Each distinct text once, in the order first seen.
std::vector<std::string> distinct(const std::vector<CallGroup>& groups,
                                  std::string AttentionCall::*field) {
  std::vector<std::string> out;
  for (const CallGroup& g : groups) {
    const std::string& text = g.first->*field;
    if (!text.empty() && std::find(out.begin(), out.end(), text) == out.end()) out.push_back(text);
  }
  return out;
}

}  // namespace

void render_attention_calls_text(std::string& out, const TraceAnalysis& t) {
  if (t.typical_region < 0 || t.attention.calls.empty()) return;
  const std::vector<CallGroup> groups = groups_of(t.attention.calls);
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n  {}:\n", heading(t));
  constexpr std::string_view kRow =
      "  {:>5} {:<{}} {:<10} {:<4} {:>5} {:>6} {:>9} {:>3} {:<5} {:<10} {:>7} {:>7} {:>7} {:>6}\n";
  fmt::format_to(line, kRow, "calls", "op", kOpWidth, "backend", "pass", "batch", "heads", "q x kv",
                 "dim", "dtype", "mask", "GFLOP", "µs/call", "TFLOP/s", "% roof");
  for (const CallGroup& g : groups) {
    const AttentionCall& c = *g.first;
    fmt::format_to(line, kRow, g.count, op_cell(c), kOpWidth, attention_backend_id(c.backend),
                   c.backward ? "bwd" : "fwd", cell(c.batch), heads_cell(c), lengths_cell(c),
                   cell(c.head_dim), c.dtype.empty() ? "-" : escape_control(c.dtype), mask_cell(c),
                   gflop_cell(g),
                   format_us(static_cast<double>(g.gpu_ns) / static_cast<double>(g.count)),
                   tflops_cell(g), roof_cell(g));
  }
  fmt::format_to(line, "    {}\n", share_words(t));
  for (const std::string& r : distinct(groups, &AttentionCall::roof))
    fmt::format_to(line, "    roof: {}\n", escape_control(r));
  for (const std::string& a : distinct(groups, &AttentionCall::assumed))
    fmt::format_to(line, "    FLOPs: {}\n", escape_control(a));
  for (const std::string& n : distinct(groups, &AttentionCall::note))
    fmt::format_to(line, "    note: {}\n", escape_control(n));
}

void render_attention_calls_markdown(std::string& out, const TraceAnalysis& t) {
  if (t.typical_region < 0 || t.attention.calls.empty()) return;
  const std::vector<CallGroup> groups = groups_of(t.attention.calls);
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n{}\n\n", markdown_cell(heading(t)));
  out +=
      "| calls | op | backend | pass | batch | heads | q x kv | head dim | dtype | mask | GFLOP | "
      "µs/call | TFLOP/s | % roof |\n"
      "|---:|---|---|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|\n";
  for (const CallGroup& g : groups) {
    const AttentionCall& c = *g.first;
    fmt::format_to(
        line, "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", g.count,
        markdown_code(c.op.empty() ? c.main_kernel : c.op), attention_backend_id(c.backend),
        c.backward ? "bwd" : "fwd", cell(c.batch), heads_cell(c), lengths_cell(c), cell(c.head_dim),
        c.dtype.empty() ? "-" : markdown_cell(c.dtype), mask_cell(c), gflop_cell(g),
        format_us(static_cast<double>(g.gpu_ns) / static_cast<double>(g.count)), tflops_cell(g),
        roof_cell(g));
  }
  fmt::format_to(line, "\n{}\n", markdown_cell(share_words(t)));
  for (const std::string& r : distinct(groups, &AttentionCall::roof))
    fmt::format_to(line, "\nRoof: {}\n", markdown_cell(r));
  for (const std::string& a : distinct(groups, &AttentionCall::assumed))
    fmt::format_to(line, "\nFLOPs: {}\n", markdown_cell(a));
  for (const std::string& n : distinct(groups, &AttentionCall::note))
    fmt::format_to(line, "\nNote: {}\n", markdown_cell(n));
}

}  // namespace attnprof
