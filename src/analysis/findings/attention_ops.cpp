#include "analysis/findings/attention_ops.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <tuple>

#include "analysis/attention/attention_backend.h"
#include "analysis/attention/attention_rows.h"
#include "analysis/busy_time.h"
#include "analysis/enclosing_op.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/host_tree_facts.h"
#include "analysis/kernels/inductor_kernel.h"

namespace attnprof {

namespace {

using kernel_traits::contains;

enum class Stage : uint8_t { kOther, kMatmul, kSoftmax };

// An outermost op's part in a naive attention chain, forward or backward. Under torch.compile
// the chain's ops are Inductor's kernels (their launchers are ops named after them) and the
// extern matmuls: a matmul template is a product, a kernel that fuses a softmax the softmax.
Stage stage_of(std::string_view name) {
  if (auto inductor = parse_inductor_kernel(name)) {
    if (inductor->is_matmul_template()) return Stage::kMatmul;
    return inductor->fuses_softmax() ? Stage::kSoftmax : Stage::kOther;
  }
  if (name == "aten::matmul" || name == "aten::bmm" || name == "aten::baddbmm" ||
      name == "aten::einsum" || contains(name, "BmmBackward") || contains(name, "MatmulBackward") ||
      contains(name, "BaddbmmBackward"))
    return Stage::kMatmul;
  if (name == "aten::softmax" || name == "aten::_softmax" || name == "aten::_safe_softmax" ||
      contains(name, "SoftmaxBackward"))
    return Stage::kSoftmax;
  return Stage::kOther;
}

// A cast that an attention chain makes of its inputs or outputs (an upcast to FP32 and back), or
// its backward function.
bool is_chain_cast(std::string_view name) {
  return kernel_traits::is_cast_op(name) || name == "aten::type_as" ||
         contains(name, "ToCopyBackward");
}

// Ops between a chain's matmul and its softmax, and between the softmax and the second matmul
// (scale, mask, dropout and their backward functions); more, and the ops are no longer one
// attention.
constexpr size_t kMaxBetween = 4;

// An outermost op and its activities: rows [begin, end) of its region's rows sorted by op.
struct OuterOp {
  HostEventId op;
  uint32_t begin = 0, end = 0;
};

AttentionOp make(const FindingContext& c, std::vector<GpuActivityId> activities,
                 HostEventId compiled_region) {
  AttentionOp a;
  if (compiled_region != kNoId)
    a.compiled_region =
        std::string(c.trace.strings.view(c.trace.host_events[compiled_region].name));
  std::sort(activities.begin(), activities.end(), [&](GpuActivityId x, GpuActivityId y) {
    return c.activity(x).start_ns < c.activity(y).start_ns;
  });
  for (GpuActivityId id : activities) {
    if (c.activity(id).kind != GpuKind::kKernel) continue;
    const kernel_traits::KernelNameTraits& kernel = c.kernel(id);
    ++a.kernels;
    a.gemms += kernel.gemm;
    a.thin_gemms += kernel.gemm && kernel.thin_product;
    a.softmax += kernel.softmax;
    a.fused |= kernel.fused_attention;
  }
  std::vector<HostEventId> replays;  // the graph launches that ran its work
  for (GpuActivityId id : activities) {
    const Attribution how = c.trace.activity_attribution[id];
    if (how == Attribution::kCaptureOrder || how == Attribution::kSignature)
      replays.push_back(c.trace.activity_launch[id]);
  }
  a.graph_replay = !replays.empty();
  std::sort(replays.begin(), replays.end());
  a.executions =
      std::max<int64_t>(1, std::unique(replays.begin(), replays.end()) - replays.begin());
  a.busy_ns = busy_time(c.trace, activities);
  a.activities = std::move(activities);
  return a;
}

// The query rows and keys of `op` (an SDPA op, or a chain's first product), where recorded.
void set_shape(const Trace& t, HostEventId op, AttentionOp& a) {
  if (const std::optional<AttentionRows> rows = attention_rows(t, op)) {
    a.query_rows = rows->query_rows;
    a.keys = rows->keys;
  }
}

std::string parent_name(const FindingContext& c, HostEventId op) {
  HostEventId parent = enclosing_op(c.trace, op);
  return parent == kNoId ? std::string()
                         : std::string(c.trace.strings.view(c.trace.host_events[parent].name));
}

// What find_attention_ops asks of an activity's ops: the outermost op at or above it, and the
// outermost and innermost SDPA ops. Kept per event and shared by every region.
// A compiled frame's op (Torch-Compiled Region) is not the outermost op: the ops of the
// compiled graph below it are, so that its attention chain is found as an eager one's.
struct OpsAbove {
  HostEventId outermost = kNoId, outermost_sdpa = kNoId, innermost_sdpa = kNoId;
  HostEventId compiled_region = kNoId;
};

// What the memo keeps of OpsAbove per host event: the outermost op, and where the rest (the SDPA
// ops and the compiled frame: few events set them) is in a table of their own. Eight bytes an
// event instead of sixteen: the memo spans every host event, and fresh memory is what it costs
// (docs/PERFORMANCE.md, "Fresh memory").
struct OpsAboveRest {
  HostEventId outermost_sdpa = kNoId, innermost_sdpa = kNoId, compiled_region = kNoId;
  bool operator==(const OpsAboveRest&) const = default;
};
struct OpsAboveKept {
  HostEventId outermost = kNoId;
  uint32_t rest = 0;  // into OpsAboveFacts::rest
};
struct OpsAboveFacts {
  explicit OpsAboveFacts(const Trace& t) : kept(t, OpsAboveKept{}), names(t.strings.size(), 0) {}
  HostTreeFacts<OpsAboveKept> kept;
  std::vector<OpsAboveRest> rest{OpsAboveRest{}};
  // Per name id, what the walk asks of an op's name, worked out once (a dozen prefixes to test):
  // kNameKnown, with kCompiledRegion and kAttentionOp where they hold.
  static constexpr uint8_t kNameKnown = 1, kCompiledRegion = 2, kAttentionOp = 4;
  std::vector<uint8_t> names;
  uint8_t name_bits(const Trace& t, StringId name) {
    if (names[name] == 0) {
      const std::string_view text = t.strings.view(name);
      names[name] = kNameKnown | (is_compiled_region(text) ? kCompiledRegion : 0) |
                    (is_attention_op(text) ? kAttentionOp : 0);
    }
    return names[name];
  }
};

OpsAbove ops_above(OpsAboveFacts& facts, const Trace& t, HostEventId e) {
  const OpsAboveKept kept = facts.kept.at(e, [&](OpsAboveKept above, HostEventId op) {
    const HostEvent& event = t.host_events[op];
    if (event.kind != HostKind::kCpuOp) return above;
    const OpsAboveRest before = facts.rest[above.rest];
    OpsAboveRest rest = before;
    const uint8_t name = facts.name_bits(t, event.name);
    if (above.outermost == kNoId && rest.compiled_region == kNoId &&
        (name & OpsAboveFacts::kCompiledRegion)) {
      rest.compiled_region = op;
    } else {
      if (above.outermost == kNoId) above.outermost = op;
      if (name & OpsAboveFacts::kAttentionOp) {
        if (rest.outermost_sdpa == kNoId) rest.outermost_sdpa = op;
        rest.innermost_sdpa = op;
      }
    }
    if (!(rest == before)) {
      above.rest = static_cast<uint32_t>(facts.rest.size());
      facts.rest.push_back(rest);
    }
    return above;
  });
  const OpsAboveRest& rest = facts.rest[kept.rest];
  return {kept.outermost, rest.outermost_sdpa, rest.innermost_sdpa, rest.compiled_region};
}

// Attention that no op names: GPU work without an op (a CUDA graph replayed without its capture
// in the trace) whose kernels, on one stream, run a GEMM, a softmax-like kernel (ATen's softmax,
// Inductor's reductions that fuse one: softmax, _softmax_online_, prepare_softmax) and a GEMM,
// with at most kMaxBetween other kernels between each: naive attention's Q K^T, softmax, P V.
void add_kernel_chains(const FindingContext& c, size_t set,
                       std::vector<std::pair<int64_t, AttentionOp>>& found) {
  const Trace& t = c.trace;
  std::vector<GpuActivityId> bare;
  for (GpuActivityId id : c.set_activities(set))
    if (t.activity_op[id] == kNoId && is_gpu_work(c.activity(id).kind)) bare.push_back(id);
  std::sort(bare.begin(), bare.end(), [&](GpuActivityId x, GpuActivityId y) {
    const GpuActivity& a = c.activity(x);
    const GpuActivity& b = c.activity(y);
    return std::tie(a.device, a.stream, a.start_ns) < std::tie(b.device, b.stream, b.start_ns);
  });
  auto kernel = [&](size_t i) { return c.activity(bare[i]).kind == GpuKind::kKernel; };
  auto gemm = [&](size_t i) { return kernel(i) && c.kernel(bare[i]).gemm; };
  auto softmax = [&](size_t i) { return kernel(i) && c.kernel(bare[i]).softmax; };
  auto same_stream = [&](size_t i, size_t j) {
    return c.activity(bare[i]).device == c.activity(bare[j]).device &&
           c.activity(bare[i]).stream == c.activity(bare[j]).stream;
  };
  // The next activity after `from` that `wanted` accepts, over at most kMaxBetween other kernels
  // and no GEMM, on `from`'s stream; bare.size() where none.
  auto next = [&](size_t from, auto&& wanted) {
    size_t others = 0;
    for (size_t i = from + 1; i < bare.size() && same_stream(from, i); ++i) {
      if (wanted(i)) return i;
      if (gemm(i) || (kernel(i) && ++others > kMaxBetween)) break;
    }
    return bare.size();
  };
  for (size_t first = 0; first < bare.size(); ++first) {
    if (!gemm(first)) continue;
    const size_t soft = next(first, softmax);
    if (soft == bare.size()) continue;
    const size_t last = next(soft, gemm);
    if (last == bare.size()) continue;
    AttentionOp a = make(c, {bare.begin() + first, bare.begin() + last + 1}, kNoId);
    a.op = t.activity_launch[bare[first]];
    a.label = "GEMM -> softmax -> GEMM kernels";
    a.found_by =
        "its kernels: a GEMM, a softmax-like kernel and a GEMM on one stream, with no op recorded "
        "for them";
    found.emplace_back(c.activity(bare[first]).start_ns, std::move(a));
    first = last;
  }
}

// `stages`: per name id, its Stage + 1 once worked out (0 before), shared by every member set.
std::vector<AttentionOp> attention_ops_of(const FindingContext& c, size_t set, OpsAboveFacts& facts,
                                          std::vector<uint8_t>& stages) {
  const Trace& t = c.trace;
  auto stage_by_name = [&](StringId name) {
    if (stages[name] == 0)
      stages[name] = static_cast<uint8_t>(1 + static_cast<uint8_t>(stage_of(t.strings.view(name))));
    return static_cast<Stage>(stages[name] - 1);
  };
  // Each activity under its outermost attention op, or else under its outermost op: rows sorted
  // by op, then grouped (a map of vectors per region was most of this function's time).
  struct Under {
    HostEventId op, innermost;
    GpuActivityId id;
  };
  std::vector<Under> sdpa, outer;
  // An outermost op -> its compiled frame's op (Torch-Compiled Region); compiled code only.
  std::map<HostEventId, HostEventId> compiled;
  for (GpuActivityId id : c.set_activities(set)) {
    if (t.activity_op[id] == kNoId) continue;
    const OpsAbove above = ops_above(facts, t, t.activity_op[id]);
    if (above.outermost_sdpa != kNoId)
      sdpa.push_back({above.outermost_sdpa, above.innermost_sdpa, id});
    else if (above.outermost != kNoId)
      outer.push_back({above.outermost, kNoId, id});
    const HostEventId top = above.outermost_sdpa != kNoId ? above.outermost_sdpa : above.outermost;
    if (top != kNoId && above.compiled_region != kNoId)
      compiled.emplace(top, above.compiled_region);
  }
  // Calls `each(first row, activities)` per op, its activities in their order.
  auto by_op = [](std::vector<Under>& rows, auto&& each) {
    std::stable_sort(rows.begin(), rows.end(),
                     [](const Under& x, const Under& y) { return x.op < y.op; });
    for (size_t i = 0, j = 0; i < rows.size(); i = j) {
      std::vector<GpuActivityId> ids;
      for (j = i; j < rows.size() && rows[j].op == rows[i].op; ++j) ids.push_back(rows[j].id);
      each(rows[i], std::move(ids));
    }
  };
  std::vector<std::pair<int64_t, AttentionOp>> found;  // by start
  by_op(sdpa, [&](const Under& first, std::vector<GpuActivityId>&& activities) {
    const HostEventId op = first.op;
    AttentionOp a = make(c, std::move(activities), compiled.contains(op) ? compiled[op] : kNoId);
    a.sdpa = true;
    a.op = op;
    a.innermost = first.innermost;
    a.label = std::string(t.strings.view(t.host_events[op].name));
    if (first.innermost != op)
      a.label += " (" + std::string(t.strings.view(t.host_events[first.innermost].name)) + ")";
    a.parent = parent_name(c, op);
    set_shape(t, op, a);
    found.emplace_back(t.host_events[op].start_ns, std::move(a));
  });
  // Siblings: the outermost ops of one parent on one thread, by start. Each op's activities are
  // its run of `outer` (sorted by op), so that no op holds a list of its own: most regions hold
  // hundreds of ops and no chain (docs/PERFORMANCE.md, "Every op's inputs in the host events'
  // table").
  std::stable_sort(outer.begin(), outer.end(),
                   [](const Under& x, const Under& y) { return x.op < y.op; });
  std::vector<OuterOp> runs;
  for (size_t i = 0, j = 0; i < outer.size(); i = j) {
    j = i;
    while (j < outer.size() && outer[j].op == outer[i].op) ++j;
    runs.push_back({outer[i].op, static_cast<uint32_t>(i), static_cast<uint32_t>(j)});
  }
  // (thread, parent, run): sorted whole, each group's runs stay in op order.
  std::vector<std::tuple<int32_t, int32_t, HostEventId, uint32_t>> keyed;
  keyed.reserve(runs.size());
  for (uint32_t r = 0; r < runs.size(); ++r) {
    const HostEvent& e = t.host_events[runs[r].op];
    keyed.emplace_back(e.pid, e.tid, enclosing_op(t, runs[r].op), r);
  }
  std::sort(keyed.begin(), keyed.end());
  std::vector<OuterOp> ops;
  for (size_t g = 0, h = 0; g < keyed.size(); g = h) {
    ops.clear();
    bool softmax_seen = false;
    auto same_group = [&](size_t i) {
      return std::tie(std::get<0>(keyed[i]), std::get<1>(keyed[i]), std::get<2>(keyed[i])) ==
             std::tie(std::get<0>(keyed[g]), std::get<1>(keyed[g]), std::get<2>(keyed[g]));
    };
    for (h = g; h < keyed.size() && same_group(h); ++h) {
      ops.push_back(runs[std::get<3>(keyed[h])]);
      softmax_seen |= stage_by_name(t.host_events[ops.back().op].name) == Stage::kSoftmax;
    }
    // A chain is a product, a softmax and a product: a group without a softmax holds none.
    if (!softmax_seen || ops.size() < 3) continue;
    std::sort(ops.begin(), ops.end(), [&](const OuterOp& x, const OuterOp& y) {
      return t.host_events[x.op].start_ns < t.host_events[y.op].start_ns;
    });
    auto stage = [&](size_t i) { return stage_by_name(t.host_events[ops[i].op].name); };
    auto activities_of = [&](size_t i) {
      return std::span(outer.begin() + ops[i].begin, outer.begin() + ops[i].end);
    };
    size_t claimed = 0;  // ops before this belong to a chain already found
    for (size_t first = 0; first < ops.size(); ++first) {
      if (stage(first) != Stage::kMatmul) continue;
      size_t softmax = first + 1;
      while (softmax < ops.size() && softmax - first - 1 <= kMaxBetween &&
             stage(softmax) == Stage::kOther)
        ++softmax;
      if (softmax >= ops.size() || softmax - first - 1 > kMaxBetween ||
          stage(softmax) != Stage::kSoftmax)
        continue;
      size_t last = softmax + 1;
      while (last < ops.size() && last - softmax - 1 <= kMaxBetween && stage(last) == Stage::kOther)
        ++last;
      if (last >= ops.size() || last - softmax - 1 > kMaxBetween || stage(last) != Stage::kMatmul)
        continue;
      // The casts around the chain belong to it: in the backward, autograd runs the math
      // backend's upcasts as ToCopyBackward0 nodes beside its matmuls, not under an SDPA op.
      // Reach over casts and up to kMaxBetween other ops (a scale, a mask) to the farthest cast
      // on each side; never into an earlier chain, nor past an op that runs a GEMM (a
      // projection, whose own casts are the model's, as under autocast).
      auto is_cast_at = [&](size_t i) {
        return is_chain_cast(t.strings.view(t.host_events[ops[i].op].name));
      };
      auto runs_gemm = [&](size_t i) {
        for (const Under& u : activities_of(i))
          if (c.kernel(u.id).gemm) return true;
        return false;
      };
      auto beside = [&](size_t i, size_t& others) {
        if (stage(i) != Stage::kOther || runs_gemm(i)) return false;
        return is_cast_at(i) || ++others <= kMaxBetween;
      };
      size_t from = first;
      for (size_t i = first, others = 0; i > claimed && beside(i - 1, others);)
        if (is_cast_at(--i)) from = i;
      size_t to = last;
      for (size_t i = last + 1, others = 0; i < ops.size() && beside(i, others); ++i)
        if (is_cast_at(i)) to = i;
      std::vector<GpuActivityId> activities;
      std::string label;
      for (size_t i = from; i <= to; ++i) {
        for (const Under& u : activities_of(i)) activities.push_back(u.id);
        std::string_view name = t.strings.view(t.host_events[ops[i].op].name);
        // The autograd engine's wrapper says nothing its function's name does not.
        constexpr std::string_view kEngine = "autograd::engine::evaluate_function: ";
        if (name.starts_with(kEngine)) name.remove_prefix(kEngine.size());
        label += (label.empty() ? "" : " -> ") + std::string(name);
      }
      const HostEventId region = compiled.contains(ops[first].op) ? compiled[ops[first].op] : kNoId;
      AttentionOp a = make(c, std::move(activities), region);
      a.label = std::move(label);
      a.parent = parent_name(c, ops[from].op);
      a.op = ops[from].op;
      a.first_product = ops[first].op;
      a.second_product = ops[last].op;
      set_shape(t, ops[first].op, a);  // the first product: Q·K^T
      found.emplace_back(t.host_events[ops[from].op].start_ns, std::move(a));
      first = to;
      claimed = to + 1;
    }
  }
  add_kernel_chains(c, set, found);
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<AttentionOp> out;
  for (auto& [start, a] : found) out.push_back(std::move(a));
  return out;
}

}  // namespace

std::vector<std::vector<AttentionOp>> find_attention_ops(const FindingContext& c) {
  OpsAboveFacts facts(c.trace);
  std::vector<uint8_t> stages(c.trace.strings.size(), 0);
  std::vector<std::vector<AttentionOp>> out;
  for (size_t s = 0; s < c.set_count(); ++s) out.push_back(attention_ops_of(c, s, facts, stages));
  return out;
}

}  // namespace attnprof
