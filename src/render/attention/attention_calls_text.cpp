#include "render/attention/attention_calls_text.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/attention/attention_call_cells.h"
#include "render/display_text.h"

namespace attnprof {

namespace {

constexpr size_t kOpWidth = 16;

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

}  // namespace

void render_attention_calls_text(std::string& out, const TraceAnalysis& t) {
  if (t.typical_region < 0 || t.attention.calls.empty()) return;
  const std::vector<AttentionCallGroup> groups = attention_call_groups(t.attention.calls);
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n  {}:\n", attention_calls_heading(t));
  constexpr std::string_view kRow =
      "  {:>5} {:<{}} {:<10} {:<4} {:>5} {:>6} {:>11} {:>3} {:<5} {:<10} {:>7} {:>7} {:>7} {:>9}\n";
  fmt::format_to(line, kRow, "calls", "op", kOpWidth, "backend", "pass", "batch", "heads", "q x kv",
                 "dim", "dtype", "mask", "GFLOP", "µs/call", "TFLOP/s", "% roof");
  for (const AttentionCallGroup& g : groups) {
    const AttentionCall& c = *g.first;
    fmt::format_to(line, kRow, g.count, op_cell(c), kOpWidth, attention_backend_id(c.backend),
                   c.backward ? "bwd" : "fwd", attention_count_cell(c.batch),
                   attention_heads_cell(c), attention_lengths_cell(g),
                   attention_count_cell(c.head_dim),
                   c.dtype.empty() ? "-" : escape_control(c.dtype), attention_mask_cell(c),
                   attention_gflop_cell(g), format_us(g.median_ns()), attention_tflops_cell(g),
                   attention_roof_cell(g));
  }
  // Memory beside time, where the trace has [memory] events: a line per kind of call, the table
  // being as wide as a terminal already.
  if (attention_memory_known(groups))
    for (const AttentionCallGroup& g : groups)
      fmt::format_to(line, "    memory per call{}: {} allocated, {} freed\n",
                     groups.size() > 1 ? " of " + op_cell(*g.first) : std::string(),
                     attention_allocated_cell(g), attention_freed_cell(g));
  fmt::format_to(line, "    {}\n", attention_share_words(t));
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof))
    fmt::format_to(line, "    roof: {}\n", escape_control(r));
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof_note))
    fmt::format_to(line, "    above: {}\n", escape_control(r));
  for (const std::string& a : distinct_call_texts(groups, &AttentionCall::assumed))
    fmt::format_to(line, "    FLOPs: {}\n", escape_control(a));
  for (const std::string& n : distinct_call_texts(groups, &AttentionCall::note))
    fmt::format_to(line, "    note: {}\n", escape_control(n));
}

void render_attention_calls_markdown(std::string& out, const TraceAnalysis& t) {
  if (t.typical_region < 0 || t.attention.calls.empty()) return;
  const std::vector<AttentionCallGroup> groups = attention_call_groups(t.attention.calls);
  auto line = std::back_inserter(out);
  fmt::format_to(line, "\n{}\n\n", markdown_cell(attention_calls_heading(t)));
  const bool memory = attention_memory_known(groups);
  out +=
      "| calls | op | backend | pass | batch | heads | q x kv | head dim | dtype | mask | GFLOP | "
      "µs/call | TFLOP/s | % roof |";
  out += memory ? " alloc/call | freed/call |\n" : "\n";
  out += "|---:|---|---|---|---:|---:|---:|---:|---|---|---:|---:|---:|---:|";
  out += memory ? "---:|---:|\n" : "\n";
  for (const AttentionCallGroup& g : groups) {
    const AttentionCall& c = *g.first;
    fmt::format_to(line, "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                   g.count, markdown_code(c.op.empty() ? c.main_kernel : c.op),
                   attention_backend_id(c.backend), c.backward ? "bwd" : "fwd",
                   attention_count_cell(c.batch), attention_heads_cell(c),
                   attention_lengths_cell(g), attention_count_cell(c.head_dim),
                   c.dtype.empty() ? "-" : markdown_cell(c.dtype), attention_mask_cell(c),
                   attention_gflop_cell(g), format_us(g.median_ns()), attention_tflops_cell(g),
                   attention_roof_cell(g));
    if (memory)
      fmt::format_to(line, " {} | {} |", attention_allocated_cell(g), attention_freed_cell(g));
    out += "\n";
  }
  fmt::format_to(line, "\n{}\n", markdown_cell(attention_share_words(t)));
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof))
    fmt::format_to(line, "\nRoof: {}\n", markdown_cell(r));
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof_note))
    fmt::format_to(line, "\nAbove: {}\n", markdown_cell(r));
  for (const std::string& a : distinct_call_texts(groups, &AttentionCall::assumed))
    fmt::format_to(line, "\nFLOPs: {}\n", markdown_cell(a));
  for (const std::string& n : distinct_call_texts(groups, &AttentionCall::note))
    fmt::format_to(line, "\nNote: {}\n", markdown_cell(n));
}

}  // namespace attnprof
