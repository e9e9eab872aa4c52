#include "render/attention/attention_calls_json.h"

#include "render/attention/attention_call_cells.h"

namespace attnprof {

namespace {

template <typename T>
void optional_value(JsonWriter& w, std::string_view key, const std::optional<T>& v) {
  w.key(key);
  if (!v)
    w.null();
  else if constexpr (std::is_same_v<T, bool>)
    w.boolean(*v);
  else
    w.number(*v);
}

void optional_text(JsonWriter& w, std::string_view key, const std::string& v) {
  w.key(key);
  if (v.empty())
    w.null();
  else
    w.string(v);
}

void write_calls(JsonWriter& w, const std::vector<AttentionCall>& calls) {
  // Each call's row in text, Markdown and HTML, where calls alike but for their key length are one.
  std::vector<size_t> group_of;
  attention_call_groups(calls, &group_of);
  w.begin_array();
  for (size_t i = 0; i < calls.size(); ++i) {
    const AttentionCall& c = calls[i];
    w.begin_object();
    w.key("op").string(c.op);
    w.key("group").number(group_of[i]);
    w.key("count").number(c.executions);
    w.key("backend").string(attention_backend_id(c.backend));
    optional_value(w, "batch", c.batch);
    optional_value(w, "heads", c.heads);
    optional_value(w, "kv_heads", c.kv_heads);
    optional_value(w, "q_len", c.q_len);
    optional_value(w, "kv_len", c.kv_len);
    optional_value(w, "head_dim", c.head_dim);
    optional_text(w, "dtype", c.dtype);
    optional_value(w, "causal", c.causal);
    optional_value(w, "window", c.window);
    w.key("explicit_mask").boolean(c.explicit_mask);
    optional_value(w, "flops", c.flops);
    w.key("gpu_us").number(static_cast<double>(c.gpu_ns) / static_cast<double>(c.executions) /
                           1000.0);
    optional_value(w, "tflops_per_s", c.tflops());
    optional_value(w, "bytes", c.bytes);
    optional_value(w, "allocated_bytes", c.allocated_bytes);
    optional_value(w, "freed_bytes", c.freed_bytes);
    optional_value(w, "roof_pct", c.roof_pct);
    optional_text(w, "roof", c.roof);
    optional_text(w, "roof_note", c.roof_note);
    w.key("backward").boolean(c.backward);
    optional_text(w, "backend_op", c.backend_op);
    w.key("kernels").number(c.kernels);
    optional_text(w, "main_kernel", c.main_kernel);
    optional_text(w, "flops_assumed", c.assumed);
    optional_text(w, "note", c.note);
    w.end_object();
  }
  w.end_array();
}

std::optional<double> share_of(int64_t part, int64_t whole) {
  if (whole <= 0) return std::nullopt;
  return 100.0 * static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

void write_region_attention_json(JsonWriter& w, const AttentionCalls& calls, int64_t gpu_busy_ns) {
  w.key("attention_calls");
  write_calls(w, calls.calls);
  w.key("attention_gpu_us").number(calls.gpu_ns / 1000.0);
  optional_value(w, "attention_share_pct", share_of(calls.gpu_ns, gpu_busy_ns));
}

void write_median_attention_json(JsonWriter& w, const MedianAttentionCalls& median) {
  w.key("attention").begin_object();
  w.key("regions").number(median.regions);
  w.key("same_in_every_region").boolean(median.same_in_every_region);
  w.key("gpu_us").number(median.gpu_ns / 1000.0);
  optional_value(w, "share_pct", median.share_pct);
  w.key("calls");
  write_calls(w, median.calls);
  w.end_object();
}

}  // namespace attnprof
