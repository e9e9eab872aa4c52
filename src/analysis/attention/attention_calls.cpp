#include "analysis/attention/attention_calls.h"

#include <algorithm>
#include <charconv>
#include <unordered_map>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "analysis/attention/attention_backend.h"
#include "analysis/busy_time.h"
#include "analysis/enclosing_op.h"
#include "analysis/gpu_datasheet.h"
#include "analysis/spread.h"

namespace attnprof {

namespace {

std::string_view name_of(const Trace& t, HostEventId e) {
  return t.strings.view(t.host_events[e].name);
}

// The FLOPs of an attention shape, as op_cost counts its attention ops (docs/OP_COSTS.md): two
// products per visible pair and query head, backward 2.5 x. For FlexAttention's template op,
// which op_cost does not know: its block mask's contents are not recorded, so every pair counts.
double shape_flops(const AttentionShape& s) {
  return static_cast<double>(s.batch * s.heads) * visible_pairs(s) * 2.0 *
         static_cast<double>(s.head_dim + s.value_dim) * (s.backward ? 2.5 : 1.0);
}

// FlexAttention's template op, named after its kernel: q, k, v as [B, H, L, E] first, then the
// block mask's tensors (whose shapes, not values, are recorded).
std::optional<AttentionShape> flex_shape(std::string_view op, const std::vector<OpArgument>& a) {
  if (!op.starts_with("triton_tem_fused_flex_attention") || a.size() < 3) return std::nullopt;
  for (size_t i = 0; i < 3; ++i)
    if (a[i].dims.size() != 4 || element_bytes(a[i].type) == 0) return std::nullopt;
  AttentionShape s;
  s.batch = a[0].dims[0];
  s.heads = a[0].dims[1];
  s.kv_heads = a[1].dims[1];
  s.q_len = a[0].dims[2];
  s.kv_len = a[1].dims[2];
  s.head_dim = a[0].dims[3];
  s.value_dim = a[2].dims[3];
  s.dtype = a[0].type;
  s.backward = op.find("backward") != std::string_view::npos;
  if (s.batch <= 0 || s.heads <= 0 || s.kv_heads <= 0) return std::nullopt;
  return s;
}

void set_shape(AttentionCall& call, const AttentionShape& s) {
  call.batch = s.batch;
  call.heads = s.heads;
  call.kv_heads = s.kv_heads;
  call.q_len = s.q_len;
  call.kv_len = s.kv_len;
  call.head_dim = s.head_dim;
  call.dtype = dtype_label(s.dtype);
  call.backward = s.backward;
  // A mask tensor hides pairs the trace does not record: neither causal nor a window is known.
  call.explicit_mask = s.explicit_mask;
  if (!s.explicit_mask) {
    call.causal = s.causal;
    if (s.window_left >= 0) call.window = s.window_left;
  }
}

std::optional<double> concrete_number(const OpArgument& a) {
  double v = 0;
  const char* end = a.concrete.data() + a.concrete.size();
  auto [p, ec] = std::from_chars(a.concrete.data(), end, v);
  if (a.concrete.empty() || ec != std::errc()) return std::nullopt;
  return v;
}

struct Kernels {
  std::vector<std::string_view> names;
  std::string main;  // the longest one's short name
  int64_t count = 0;
};

Kernels kernels_of(const FindingContext& c, const std::vector<GpuActivityId>& activities) {
  Kernels k;
  int64_t longest = -1;
  GpuActivityId main;
  for (GpuActivityId id : activities) {
    const GpuActivity& a = c.activity(id);
    if (a.kind != GpuKind::kKernel) continue;
    ++k.count;
    k.names.push_back(c.trace.strings.view(a.name));
    if (a.dur_ns > longest) {
      longest = a.dur_ns;
      main = id;
    }
  }
  if (longest >= 0) k.main = c.short_name(main);
  return k;
}

// Fills a chain's shapes and FLOPs from its two products, Q K^T ([..., L, E] x [..., E, S]) and
// P V ([..., L, S] x [..., S, Ev]). Every pair is computed, whatever a mask hides after. False
// where their shapes were not recorded.
bool set_products(const Trace& t, HostEventId qk_op, HostEventId pv_op,
                  const OpArgumentsOf& arguments, AttentionCall& call) {
  const auto first = arguments(qk_op);
  const auto second = arguments(pv_op);
  if (!first || !second || first->size() < 2 || second->size() < 2) return false;
  const auto& q = (*first)[0].dims;
  const auto& kt = (*first)[1].dims;
  const auto& v = (*second)[1].dims;
  if (q.size() < 3 || kt.size() != q.size() || v.size() != q.size()) return false;
  call.q_len = q[q.size() - 2];
  call.head_dim = q.back();
  call.kv_len = kt.back();
  if (q.size() == 4) {  // [B, H, L, E]; a bmm's [B * H, L, E] does not tell B from H
    call.batch = q[0];
    call.heads = q[1];
    call.kv_heads = kt[1];
  }
  call.dtype = dtype_label((*first)[0].type);
  const auto qk = op_cost(name_of(t, qk_op), *first);
  const auto pv = op_cost(name_of(t, pv_op), *second);
  if (qk && pv) {
    call.flops = qk->flops + pv->flops;
    call.bytes = qk->bytes + pv->bytes;
    call.assumed =
        "two products over every query-key pair (what a mask hides is computed all the same)";
  }
  return true;
}

bool is_product_op(std::string_view name) {
  return name == "aten::matmul" || name == "aten::bmm" || name == "aten::baddbmm" ||
         name == "aten::einsum";
}

// The product a chain wrote, from the op that ran it: the outermost product op at or above `op`
// (the aten::matmul above the aten::bmm it runs, whose 4-d shapes tell batch from heads).
HostEventId outer_product(const Trace& t, HostEventId op) {
  HostEventId out = op;
  for (HostEventId p = t.host_parent[op]; p != kNoId; p = t.host_parent[p]) {
    if (t.host_events[p].kind != HostKind::kCpuOp) continue;  // a Python frame (with_stack)
    if (!is_product_op(name_of(t, p))) break;
    out = p;
  }
  return out;
}

// The outermost and innermost attention ops at or above `op`; kNoId where none.
std::pair<HostEventId, HostEventId> attention_ops_above(const Trace& t, HostEventId op) {
  HostEventId outer = kNoId, inner = kNoId;
  for (HostEventId p = op; p != kNoId; p = t.host_parent[p]) {
    if (t.host_events[p].kind != HostKind::kCpuOp || !is_attention_op(name_of(t, p))) continue;
    if (inner == kNoId) inner = p;
    outer = p;
  }
  return {outer, inner};
}

// A backward chain's shapes and FLOPs, from its forward: autograd's functions record the
// gradients' shapes only, so the products' forward ops, linked by the trace's fwdbwd flows, say
// what was computed. The math backend's forward ran under an SDPA op, whose shapes, mask and
// count (docs/OP_COSTS.md) the backward takes at 2.5 x; an unfused chain's forward is two
// products, counted the same way.
void set_backward_chain(const FindingContext& c, const AttentionOp& a,
                        const OpArgumentsOf& arguments, const ForwardOps& forwards,
                        AttentionCall& call) {
  const Trace& t = c.trace;
  HostEventId first = forwards.forward_of(a.first_product);
  HostEventId second = forwards.forward_of(a.second_product);
  if (first == kNoId || second == kNoId) return;
  if (const auto [outer, inner] = attention_ops_above(t, first); outer != kNoId) {
    for (HostEventId e = inner; e != kNoId; e = t.host_parent[e]) {
      if (t.host_events[e].kind != HostKind::kCpuOp) continue;
      const auto args = arguments(e);
      const auto s = args ? attention_shape(name_of(t, e), *args) : std::nullopt;
      const auto cost = s ? op_cost(name_of(t, e), *args) : std::nullopt;
      if (cost) {
        set_shape(call, *s);
        const OpCost backward = backward_cost(*cost);
        call.flops = backward.flops;
        call.bytes = backward.bytes;
        call.assumed = backward.assumed;
        break;
      }
      if (e == outer) break;
    }
    call.backward = true;
    call.backend = detect_attention_backend(name_of(t, inner), {});
    call.note = fmt::format(
        "the backward of {} ({}): autograd's products, linked to their forward by the trace's "
        "fwdbwd flows",
        name_of(t, outer), name_of(t, inner));
    return;
  }
  // The backward runs the chain's products in reverse: the earlier forward is Q K^T.
  if (t.host_events[second].start_ns < t.host_events[first].start_ns) std::swap(first, second);
  AttentionCall forward;
  if (!set_products(t, outer_product(t, first), outer_product(t, second), arguments, forward))
    return;
  call.batch = forward.batch;
  call.heads = forward.heads;
  call.kv_heads = forward.kv_heads;
  call.q_len = forward.q_len;
  call.kv_len = forward.kv_len;
  call.head_dim = forward.head_dim;
  call.dtype = forward.dtype;
  if (forward.flops) {
    const OpCost backward = backward_cost(
        {OpFamily::kAttention, *forward.flops, forward.bytes.value_or(0), "", forward.assumed});
    call.flops = backward.flops;
    call.bytes = backward.bytes;
    call.assumed = backward.assumed;
  }
}

bool is_softmax_op(std::string_view name) {
  return name == "aten::softmax" || name == "aten::_softmax" || name == "aten::_safe_softmax";
}

// The model's KV heads where grouped-query attention was written out before an eager chain:
// Hugging Face's repeat_kv expands K and V from [B, KVH, S, D] through [B, KVH, 1, S, D] to
// [B, KVH, n_rep, S, D] (an aten::expand that records the size) and reshapes that to
// [B, KVH * n_rep, S, D], so the products read as many K heads as query heads
// (tests/data/models/llama-prefill-eager.json.gz: 4 KV heads expanded to 16). The expand is an
// earlier op of the call's thread under the same parent, after the previous call (its softmax or
// attention op); none where no expand matches the K the call read.
std::optional<int64_t> repeated_kv_heads(const Trace& t, HostEventId first_product,
                                         const OpArgumentsOf& arguments,
                                         const AttentionCall& call) {
  if (!call.batch || !call.kv_heads || !call.kv_len || !call.head_dim) return std::nullopt;
  const HostEvent& product = t.host_events[first_product];
  const HostEventId parent = enclosing_op(t, first_product);
  const int64_t parent_start = parent == kNoId ? INT64_MIN : t.host_events[parent].start_ns;
  // repeat_kv runs a few dozen events before the call it feeds; the bound keeps a model without
  // it from a walk back to the step's start at every layer.
  constexpr size_t kMaxEventsBack = 1000;
  const size_t stop =
      first_product.index() > kMaxEventsBack ? first_product.index() - kMaxEventsBack : 0;
  for (size_t i = first_product.index(); i-- > stop;) {
    const HostEventId id(i);
    const HostEvent& e = t.host_events[id];
    if (e.pid != product.pid || e.tid != product.tid || e.start_ns < parent_start) break;
    if (e.kind != HostKind::kCpuOp) continue;
    const std::string_view name = name_of(t, id);
    if (is_softmax_op(name) || is_attention_op(name)) break;  // the previous call's
    if (name != "aten::expand" || enclosing_op(t, id) != parent) continue;
    const auto args = arguments(id);
    if (!args || args->size() < 2) continue;
    const std::vector<int64_t>& in = (*args)[0].dims;
    const auto size = concrete_int_list((*args)[1]);
    if (in.size() != 5 || !size || size->size() != 5 || in[2] != 1) continue;
    const int64_t kv_heads = in[1], n_rep = (*size)[2];
    if (n_rep > 1 && in[0] == *call.batch && (*size)[1] == kv_heads &&
        kv_heads * n_rep == *call.kv_heads && in[3] == *call.kv_len && in[4] == *call.head_dim)
      return kv_heads;
  }
  return std::nullopt;
}

std::string repeated_words(int64_t kv_heads, int64_t heads) {
  return fmt::format(
      "; K and V repeated from {} to {} heads before the call (repeat_kv): the model's "
      "grouped-query attention",
      kv_heads, heads);
}

// An attention op's call: its shapes and cost from the innermost op up to the outermost that
// recorded them (a trace may keep the outer op's arguments alone).
AttentionCall op_call(const FindingContext& c, const AttentionOp& a,
                      const OpArgumentsOf& arguments) {
  const Trace& t = c.trace;
  AttentionCall call;
  call.op = std::string(name_of(t, a.op));
  call.backend_op = std::string(name_of(t, a.innermost));
  const Kernels k = kernels_of(c, a.activities);
  call.backend = detect_attention_backend(call.backend_op, k.names);
  call.backward = call.backend_op.find("backward") != std::string::npos;
  for (HostEventId e = a.innermost; e != kNoId; e = t.host_parent[e]) {
    if (t.host_events[e].kind != HostKind::kCpuOp) continue;
    const std::string_view name = name_of(t, e);
    if (const auto args = arguments(e)) {
      std::optional<AttentionShape> s = attention_shape(name, *args);
      if (!s) s = flex_shape(name, *args);
      if (s) {
        set_shape(call, *s);
        if (const auto cost = op_cost(name, *args)) {
          call.flops = cost->flops;
          call.bytes = cost->bytes;
          call.assumed = cost->assumed;
        } else {
          call.flops = shape_flops(*s);
          call.assumed =
              "FlexAttention: the block mask's contents are not recorded, so every pair is "
              "counted (an upper bound)";
          call.causal.reset();
        }
        break;
      }
    }
    if (e == a.op) break;
  }
  if (call.backend == AttentionBackend::kMath &&
      name_of(t, a.op) == "aten::scaled_dot_product_attention")
    if (const auto args = arguments(a.op)) call.note = math_fallback_note(*args);
  return call;
}

// An unfused chain's call: the shapes of its two products, or, for its backward, of its forward.
AttentionCall chain_call(const FindingContext& c, const AttentionOp& a,
                         const OpArgumentsOf& arguments, const ForwardOps& forwards) {
  AttentionCall call;
  call.op = a.label;
  call.backend = AttentionBackend::kUnfused;
  call.backward = a.label.find("Backward") != std::string::npos;
  if (!a.found_by.empty()) {  // no op: nothing recorded its shapes
    call.note = "found by " + a.found_by;
    return call;
  }
  if (call.backward)
    set_backward_chain(c, a, arguments, forwards, call);
  else if (set_products(c.trace, a.first_product, a.second_product, arguments, call))
    if (const auto kv_heads = repeated_kv_heads(c.trace, a.first_product, arguments, call)) {
      call.assumed += repeated_words(*kv_heads, *call.kv_heads);
      call.kv_heads = kv_heads;
    }
  return call;
}

std::optional<PeakPrecision> precision_of(std::string_view dtype) {
  if (dtype == "bf16") return PeakPrecision::kBf16;
  if (dtype == "fp16") return PeakPrecision::kFp16;
  if (dtype == "fp32") return PeakPrecision::kFp32;
  if (dtype.starts_with("fp8")) return PeakPrecision::kFp8;
  return std::nullopt;
}

// The call's roof on its GPU: the dense peak of its dtype, or the bandwidth times its FLOPs per
// byte where that is lower (a roofline's two sides).
void set_roof(const Trace& t, const std::vector<GpuActivityId>& activities, AttentionCall& call) {
  const std::optional<double> achieved = call.tflops();
  const std::optional<PeakPrecision> precision = precision_of(call.dtype);
  if (!achieved || !precision || activities.empty()) return;
  const DeviceProperties* device = t.device(t.gpu_activities[activities.front()].device);
  const GpuDatasheet* sheet = device ? find_gpu_datasheet(device->name) : nullptr;
  if (!sheet || sheet->tflops(*precision) <= 0) return;
  double roof = sheet->tflops(*precision);
  call.roof = fmt::format("{} dense {:g} TFLOP/s", precision_name(*precision), roof);
  if (call.bytes && *call.bytes > 0) {
    const double intensity = *call.flops / *call.bytes;  // FLOPs per byte
    const double memory_roof = sheet->memory_gb_per_s * intensity / 1e3;
    if (memory_roof < roof) {
      roof = memory_roof;
      call.memory_roof = true;
      call.roof =
          fmt::format("memory {:g} GB/s x {:.3g} FLOP/B", sheet->memory_gb_per_s, intensity);
    }
  }
  const double pct = 100.0 * *achieved / roof;
  if (pct <= 100.0) {
    call.roof_pct = pct;
    return;
  }
  // The GPU cannot pass its roof: the count is wrong, and the call says which of its two sides.
  call.roof_note =
      call.memory_roof
          ? fmt::format(
                "estimate above the roof ({:.0f} %): the fewest bytes counted are more "
                "than the kernels moved from memory (K and V read from cache, or a "
                "cache shorter than the recorded key length)",
                pct)
          : fmt::format(
                "estimate above the roof ({:.0f} %): the FLOPs counted are more than "
                "the kernels computed (masked blocks skipped, or pairs the count "
                "assumed visible)",
                pct);
}

}  // namespace

std::string dtype_label(std::string_view type) {
  if (type == "c10::BFloat16") return "bf16";
  if (type == "c10::Half") return "fp16";
  if (type == "float") return "fp32";
  if (type == "double") return "fp64";
  if (type.starts_with("c10::Float8_")) return "fp8_" + std::string(type.substr(12));
  return std::string(type);
}

std::string math_fallback_note(const std::vector<OpArgument>& args) {
  std::vector<std::string> reasons;
  const std::optional<AttentionShape> s =
      attention_shape("aten::scaled_dot_product_attention", args);
  if (s) {
    if (s->explicit_mask)
      reasons.push_back(
          "an explicit attn_mask (flash takes none: pass is_causal=True for a causal mask)");
    if (s->dtype == "float" || s->dtype == "double")
      reasons.push_back(fmt::format("{} inputs (flash and cuDNN take fp16 and bf16 only)",
                                    dtype_label(s->dtype)));
    if (s->head_dim > 256 || s->head_dim % 8 != 0)
      reasons.push_back(
          fmt::format("head dim {} (flash and cuDNN take a multiple of 8 up to 256)", s->head_dim));
  }
  if (args.size() > 4) {
    if (auto dropout = concrete_number(args[4]); dropout && *dropout > 0)
      reasons.push_back(
          fmt::format("dropout_p {} (cuDNN and some fused kernels take no dropout)", *dropout));
  }
  if (reasons.empty())
    return "SDPA ran its math backend though no recorded input rules the fused ones out: they "
           "were likely disabled (torch.nn.attention.sdpa_kernel, or "
           "torch.backends.cuda.enable_*_sdp(False))";
  std::string words;
  for (const std::string& r : reasons) words += (words.empty() ? "" : "; ") + r;
  return "SDPA fell back to its math backend, likely because of " + words;
}

namespace {

// The CUDA memory allocated and freed inside the call's ops: on the thread of its op, from the
// op's start to the end of its last (an SDPA call's own op; a chain's second product).
void set_memory(const Trace& t, const AttentionOp& a, const MemoryEvents& memory,
                AttentionCall& call) {
  if (memory.empty() || a.op == kNoId) return;
  const HostEvent& first = t.host_events[a.op];
  int64_t end = first.end_ns();
  if (!a.sdpa && a.second_product != kNoId)
    end = std::max(end, t.host_events[a.second_product].end_ns());
  int64_t allocated = 0, freed = 0;
  for (uint32_t i : memory.on_thread(first.pid, first.tid, first.start_ns, end)) {
    const int64_t bytes = t.instants[i].bytes;
    (bytes > 0 ? allocated : freed) += bytes > 0 ? bytes : -bytes;
  }
  call.allocated_bytes = allocated;
  call.freed_bytes = freed;
}

}  // namespace

AttentionCalls attention_calls_of(const FindingContext& c, size_t region,
                                  const OpArgumentsOf& arguments, const ForwardOps& forwards,
                                  const MemoryEvents& memory) {
  const Trace& t = c.trace;
  AttentionCalls out;
  std::vector<std::pair<int64_t, AttentionCall>> found;  // by GPU start
  std::vector<GpuActivityId> claimed, all;
  for (const AttentionOp& a : c.attention_ops(region)) {
    AttentionCall call = a.sdpa ? op_call(c, a, arguments) : chain_call(c, a, arguments, forwards);
    const Kernels k = kernels_of(c, a.activities);
    call.kernels = k.count / a.executions;  // a call's kernels, run again by each replay
    call.main_kernel = k.main;
    call.gpu_ns = a.busy_ns;
    // A captured call replayed N times did its work N times in the region's GPU time.
    call.executions = a.executions;
    if (call.flops) *call.flops *= static_cast<double>(a.executions);
    if (call.bytes) *call.bytes *= static_cast<double>(a.executions);
    set_roof(t, a.activities, call);
    set_memory(t, a, memory, call);
    claimed.insert(claimed.end(), a.activities.begin(), a.activities.end());
    const int64_t start = a.activities.empty() ? t.host_events[a.op].start_ns
                                               : t.gpu_activities[a.activities.front()].start_ns;
    found.emplace_back(start, std::move(call));
  }
  all = claimed;
  std::sort(claimed.begin(), claimed.end());
  // Attention kernels that no attention op launched: a compiled region's, a Triton kernel's.
  for (GpuActivityId id : c.activities(region)) {
    const GpuActivity& g = t.gpu_activities[id];
    if (g.kind != GpuKind::kKernel || std::binary_search(claimed.begin(), claimed.end(), id))
      continue;
    if (!c.kernel(id).attention) continue;
    const std::string_view kernel = t.strings.view(g.name);
    AttentionCall call;
    const HostEventId op = t.activity_op[id];
    call.op = op == kNoId ? "" : std::string(name_of(t, op));
    call.backend = detect_attention_backend("", {kernel});
    call.backward = kernel.find("bwd") != std::string_view::npos ||
                    kernel.find("bprop") != std::string_view::npos ||
                    kernel.find("backward") != std::string_view::npos;
    call.kernels = 1;
    call.main_kernel = c.short_name(id);
    call.gpu_ns = g.dur_ns;
    call.note = "a kernel alone: the op that launched it records no attention shapes";
    all.push_back(id);
    found.emplace_back(g.start_ns, std::move(call));
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  for (auto& [start, call] : found) out.calls.push_back(std::move(call));
  std::sort(all.begin(), all.end(), [&](GpuActivityId x, GpuActivityId y) {
    return t.gpu_activities[x].start_ns < t.gpu_activities[y].start_ns;
  });
  all.erase(std::unique(all.begin(), all.end()), all.end());
  out.gpu_ns = busy_time(t, all);
  return out;
}

namespace {

// The median of values that repeat, each with how many times it does, by spread_of's rule (the
// mean of the two middle values for an even count), without writing each repeat out.
double median_of_repeated(std::vector<std::pair<double, size_t>> values) {
  std::sort(values.begin(), values.end());
  size_t n = 0;
  for (const auto& v : values) n += v.second;
  if (n == 0) return 0;
  auto at = [&](size_t k) {
    size_t seen = 0;
    for (const auto& [value, count] : values) {
      seen += count;
      if (k < seen) return value;
    }
    return values.back().first;
  };
  return n % 2 ? at(n / 2) : (at(n / 2 - 1) + at(n / 2)) / 2;
}

}  // namespace

MedianAttentionCalls median_attention_calls(const std::vector<const AttentionCalls*>& regions,
                                            const std::vector<int64_t>& region_busy_ns,
                                            int typical) {
  MedianAttentionCalls out;
  if (typical < 0 || static_cast<size_t>(typical) >= regions.size()) return out;
  out.regions = static_cast<int>(regions.size());
  const std::vector<AttentionCall>& mine = regions[typical]->calls;
  out.calls = mine;
  // Regions that hold the same work share one list (analysis/summarize.cpp): each distinct list
  // is read once and weighed by its regions, so that many overlapping steps around many calls
  // cost their calls, not regions x calls.
  std::vector<std::pair<const AttentionCalls*, size_t>> distinct;
  {
    std::unordered_map<const AttentionCalls*, size_t> index;
    for (const AttentionCalls* r : regions) {
      const auto [it, added] = index.emplace(r, distinct.size());
      if (added) distinct.emplace_back(r, 0);
      ++distinct[it->second].second;
    }
  }
  out.same_in_every_region = true;
  for (const auto& [r, count] : distinct) {
    bool same = r->calls.size() == mine.size();
    for (size_t i = 0; same && i < mine.size(); ++i)
      same = r->calls[i].op == mine[i].op && r->calls[i].backend == mine[i].backend;
    out.same_in_every_region &= same;
  }
  if (out.same_in_every_region) {
    for (size_t i = 0; i < mine.size(); ++i) {
      std::vector<std::pair<double, size_t>> times;
      for (const auto& [r, count] : distinct)
        times.emplace_back(static_cast<double>(r->calls[i].gpu_ns), count);
      out.calls[i].gpu_ns = static_cast<int64_t>(median_of_repeated(std::move(times)));
    }
  }
  std::vector<double> gpu, share;
  for (size_t r = 0; r < regions.size(); ++r) {
    gpu.push_back(static_cast<double>(regions[r]->gpu_ns));
    if (region_busy_ns[r] > 0)
      share.push_back(100.0 * static_cast<double>(regions[r]->gpu_ns) /
                      static_cast<double>(region_busy_ns[r]));
  }
  out.gpu_ns = static_cast<int64_t>(spread_of(std::move(gpu)).median);
  if (!share.empty()) out.share_pct = spread_of(std::move(share)).median;
  return out;
}

}  // namespace attnprof
