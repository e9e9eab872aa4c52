#pragma once
// The cells of the attention calls' table, one row per kind of call (the same op, backend,
// direction, shapes and mask), shared by analyze's text and Markdown and the report's page
// (render/attention_calls_text.h, study/render/report_attention_calls.h), so that they read alike.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// Calls alike in all but their key length (a decode step's calls, one a token) and GPU time.
struct AttentionCallGroup {
  const AttentionCall* first = nullptr;
  int64_t count = 0;  // executions: a call replayed in a CUDA graph counts each replay
  int64_t gpu_ns = 0;
  double flops = 0;  // of the calls whose FLOPs are known (all or none: the shapes are alike)
  // CUDA memory the calls allocated and freed, summed; none without [memory] events.
  std::optional<int64_t> allocated_bytes, freed_bytes;
  std::optional<int64_t> kv_min, kv_max;  // the key lengths' range, where recorded
  std::vector<double> execution_ns;       // each execution's GPU time
  double median_ns() const;               // of execution_ns
};

// The calls grouped, in the order each kind first ran; `group_of`, where given, gets each call's
// group (an index into the result).
std::vector<AttentionCallGroup> attention_call_groups(const std::vector<AttentionCall>& calls,
                                                      std::vector<size_t>* group_of = nullptr);

// A shape or "-" where unknown.
std::string attention_count_cell(const std::optional<int64_t>& v);
// "16/4": query heads over KV heads where they differ.
std::string attention_heads_cell(const AttentionCall& c);
// "512x2048": query and key lengths; "1x257..271" for a group whose key lengths differ.
std::string attention_lengths_cell(const AttentionCallGroup& g);
// What the mask lets through: "causal", "window 256", "causal w256", "none", "tensor" (an
// explicit mask, its contents unknown), "-" (not recorded).
std::string attention_mask_cell(const AttentionCall& c);
// GFLOP per call, TFLOP/s over the group's GPU time, % of the roof with the roof it is of
// ("41.2 bf16", "63.0 mem", "above" where the estimate passes it); "-" where unknown.
std::string attention_gflop_cell(const AttentionCallGroup& g);
std::string attention_tflops_cell(const AttentionCallGroup& g);
std::string attention_roof_cell(const AttentionCallGroup& g);
// Whether any group knows its memory: the tables then show it beside the time.
bool attention_memory_known(const std::vector<AttentionCallGroup>& groups);
// "256.0 MiB": bytes allocated (or freed) per call; "-" where unknown.
std::string attention_allocated_cell(const AttentionCallGroup& g);
std::string attention_freed_cell(const AttentionCallGroup& g);

// "Attention calls of the typical region (#2), GPU times the median over 5 regions".
std::string attention_calls_heading(const TraceAnalysis& t);
// "attention: 2 call(s), 207.9 µs of GPU time a region, 34.2 % of its GPU busy time (medians)".
std::string attention_share_words(const TraceAnalysis& t);
// Each distinct non-empty text of `field` once, in the order first seen (roofs, FLOPs
// assumptions, notes).
std::vector<std::string> distinct_call_texts(const std::vector<AttentionCallGroup>& groups,
                                             std::string AttentionCall::*field);

}  // namespace attnprof
