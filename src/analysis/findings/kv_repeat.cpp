// K/V repeat: grouped-query attention written out repeats K and V once per query head that shares
// them (aten::repeat_interleave, or Hugging Face's repeat_kv: an expand to [B, KVH, n_rep, S, D]
// that aten::reshape copies to [B, KVH * n_rep, S, D], as tests/data/models/llama-prefill-eager
// records it), copies that the attention then reads. In a decode step they are most of the time.
// SDPA's enable_gqa lets a fused backend read the shared heads in place; the math backend repeats
// them itself.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/op_arguments.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

struct Repeat {
  bool found = false;
  bool inside_sdpa = false;  // the repeat is SDPA's own (its math backend)
  bool reshape = false;      // repeat_kv's expand and reshape, not repeat_interleave
};

// Whether `op` is aten::reshape copying an expanded [B, KVH, n_rep, S, D] (n_rep > 1) to
// [B, KVH * n_rep, S, D]: repeat_kv's copy.
bool is_repeat_kv_reshape(const Trace& t, HostEventId op) {
  if (t.strings.view(t.host_events[op].name) != "aten::reshape") return false;
  const auto args = op_arguments(t, op);
  if (!args || args->size() < 2) return false;
  const std::vector<int64_t>& in = (*args)[0].dims;
  const auto out = concrete_int_list((*args)[1]);
  return in.size() == 5 && in[2] > 1 && out && out->size() == 4 && (*out)[0] == in[0] &&
         (*out)[1] == in[1] * in[2] && (*out)[2] == in[3] && (*out)[3] == in[4];
}

// Whether the activity is a copy made by aten::repeat_interleave or repeat_kv's reshape, and
// whose op that is.
Repeat repeat_of(const FindingContext& c, GpuActivityId id) {
  Repeat r;
  if (!c.is_device_copy(id)) return r;
  r.found = c.any_op_above(id, [](std::string_view op) { return op == "aten::repeat_interleave"; });
  if (!r.found) {
    const Trace& t = c.trace;
    for (HostEventId op = t.activity_op[id]; op != kNoId && !r.found; op = t.host_parent[op])
      r.found = r.reshape =
          t.host_events[op].kind == HostKind::kCpuOp && is_repeat_kv_reshape(t, op);
  }
  if (r.found)
    r.inside_sdpa = c.any_op_above(
        id, [](std::string_view op) { return op == "aten::scaled_dot_product_attention"; });
  return r;
}

}  // namespace

void find_kv_repeat(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kKvRepeat, {}, {}, {}, 0};
  const int typical = c.typical();
  int64_t copies = 0, bytes = 0;
  double copy_ns = 0;
  bool inside_sdpa = false, reshape = false;
  const size_t typical_set = c.typical_set();
  std::vector<bool> hit(c.set_count(), false);
  for (size_t s = 0; s < c.set_count(); ++s) {
    for (GpuActivityId id : c.set_activities(s)) {
      const Repeat repeat = repeat_of(c, id);
      if (!repeat.found) continue;
      hit[s] = true;
      if (s != typical_set) break;
      const GpuActivity& a = c.activity(id);
      ++copies;
      copy_ns += a.dur_ns;
      bytes += a.bytes;
      inside_sdpa = inside_sdpa || repeat.inside_sdpa;
      reshape = reshape || repeat.reshape;
      if (f.evidence.size() < 4)
        f.evidence.push_back(fmt::format("{}: {}, {} <- {}", c.region_label(typical),
                                         short_kernel_name(c.name(id)), format_duration(a.dur_ns),
                                         c.chain_text(id)));
    }
  }
  f.regions_affected = c.regions_with(hit);
  if (f.regions_affected == 0 || copies == 0) return;
  f.gpu_ns = copy_ns;
  const double region_ns = static_cast<double>(c.analysis.regions[typical].gpu_busy_ns);
  const double share = region_ns > 0 ? 100.0 * copy_ns / region_ns : 0;
  f.summary = fmt::format(
      "K and V repeated for each query head that shares them (grouped-query attention): "
      "{} makes {} copies ({}, {} of the region's GPU time{}), in {} of {} regions",
      reshape ? "an expand and aten::reshape (Hugging Face's repeat_kv)"
              : "aten::repeat_interleave",
      copies, format_duration(copy_ns), format_percent(share),
      bytes > 0 ? fmt::format(", {}", format_size(bytes)) : "", f.regions_affected,
      c.region_count());
  f.suggestion =
      inside_sdpa
          ? "the math backend repeats K and V itself; a fused backend (cuDNN, flash) reads the "
            "shared K/V heads in place"
          : "scaled_dot_product_attention(..., enable_gqa=True) reads the shared K/V heads in "
            "place: the copies, their time and their memory go away";
  out.push_back(std::move(f));
}

}  // namespace attnprof
