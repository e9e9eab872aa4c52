#include <algorithm>

#include "base/format_units.h"
#include "render/attention_call_cells.h"
#include "study/render/report_attention_calls.h"
#include "study/render/report_svg.h"

namespace attnprof {

namespace {

using svg::escape;

const MedianAttentionCalls* calls_of(const ReportVariant& v) {
  if (!v.analysis || v.analysis->typical_region < 0 || v.analysis->attention.calls.empty())
    return nullptr;
  return &v.analysis->attention;
}

// A trace recorded without shapes has calls but no shapes to show: the section says so instead.
bool has_shapes(const MedianAttentionCalls& m) {
  return std::any_of(m.calls.begin(), m.calls.end(),
                     [](const AttentionCall& c) { return c.q_len.has_value(); });
}

// The op as the table shows it: without "aten::" (the title keeps the whole name).
std::string op_text(const AttentionCall& c) {
  std::string text = c.op.empty() ? c.main_kernel : c.op;
  for (size_t at; (at = text.find("aten::")) != std::string::npos;) text.erase(at, 6);
  return text;
}

void write_variant(std::string& out, const ReportVariant& v) {
  const TraceAnalysis& t = *v.analysis;
  const std::vector<AttentionCallGroup> groups = attention_call_groups(t.attention.calls);
  put(out, R"(<h3 data-variant="{}">{} <span class="muted">· {}</span></h3>)", escape(v.name),
      escape(v.name), escape(attention_calls_heading(t)));
  put(out, R"(<p class="meta attention-share">{}</p>)", escape(attention_share_words(t)));
  put(out,
      R"(<div class="table-wrap"><table class="attention-calls study-table" data-variant="{}"><thead><tr>)",
      escape(v.name));
  constexpr std::pair<const char*, bool> kHeader[] = {
      {"calls", true}, {"op", false},     {"backend", false}, {"pass", false},  {"batch", true},
      {"heads", true}, {"q x kv", true},  {"head dim", true}, {"dtype", false}, {"mask", false},
      {"GFLOP", true}, {"µs/call", true}, {"TFLOP/s", true},  {"% roof", true}};
  for (auto [h, numeric] : kHeader)
    put(out, R"(<th{}>{}</th>)", numeric ? R"( class="num")" : "", h);
  put(out, "</tr></thead><tbody>");
  for (const AttentionCallGroup& g : groups) {
    const AttentionCall& c = *g.first;
    const std::string op = op_text(c);
    put(out,
        R"(<tr data-backend="{}"><td class="num">{}</td><td class="kernel" title="{}">{}</td><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td><td class="num">{}</td></tr>)",
        attention_backend_id(c.backend), g.count, escape(c.op.empty() ? c.main_kernel : c.op),
        escape(op), attention_backend_id(c.backend), c.backward ? "bwd" : "fwd",
        attention_count_cell(c.batch), attention_heads_cell(c), attention_lengths_cell(g),
        attention_count_cell(c.head_dim), c.dtype.empty() ? "-" : escape(c.dtype),
        attention_mask_cell(c), attention_gflop_cell(g), format_us(g.median_ns()),
        attention_tflops_cell(g), attention_roof_cell(g));
  }
  put(out, "</tbody></table></div>");
  std::string notes;
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof))
    put(notes, "<li>roof: {}</li>", escape(r));
  for (const std::string& r : distinct_call_texts(groups, &AttentionCall::roof_note))
    put(notes, "<li>above: {}</li>", escape(r));
  for (const std::string& a : distinct_call_texts(groups, &AttentionCall::assumed))
    put(notes, "<li>FLOPs: {}</li>", escape(a));
  for (const std::string& n : distinct_call_texts(groups, &AttentionCall::note))
    put(notes, "<li>note: {}</li>", escape(n));
  if (!notes.empty()) put(out, R"(<ul class="meta">{}</ul>)", notes);
}

}  // namespace

bool has_attention_calls_section(const ReportData& data) {
  return std::any_of(data.variants.begin(), data.variants.end(),
                     [](const ReportVariant& v) { return calls_of(v) != nullptr; });
}

void write_attention_calls_html(std::string& out, const ReportData& data) {
  if (!has_attention_calls_section(data)) return;
  put(out, R"(<section class="card" id="attention"><h2>Attention calls</h2>)");
  put(out,
      R"(<p class="lead">Each {}'s typical region: its attention calls, one row per kind of call (op, backend, pass, shapes and mask alike), with the backend told from the op and its kernels, the shapes from the recorded inputs, the FLOPs counted for the op that ran, and attention's share of the region's GPU time (docs/ATTENTION_CALLS.md).</p>)",
      data.run ? "variant" : "trace");
  std::vector<std::string> without_shapes;
  for (const ReportVariant& v : data.variants) {
    const MedianAttentionCalls* m = calls_of(v);
    if (!m) continue;
    if (!has_shapes(*m)) {
      without_shapes.push_back(v.name);
      continue;
    }
    write_variant(out, v);
  }
  if (!without_shapes.empty()) {
    std::string names;
    for (const std::string& n : without_shapes) names += (names.empty() ? "" : ", ") + n;
    put(out,
        R"(<p class="meta">{}: attention calls without shapes (the trace was recorded without <code>record_shapes=True</code>), so no FLOPs or rates.</p>)",
        escape(names));
  }
  put(out, "</section>");
}

}  // namespace attnprof
