// Hidden copy: an out-of-place op (masked_fill, add, ...) clones its input before writing, which
// shows as a Memcpy DtoD (or a copy kernel) under `op -> aten::clone -> aten::copy_`. An op that
// clones an operand to make its layout contiguous (aten::bmm given an expanded view, under
// torch.compile's CUDA graph of tests/data/graphs/hf-decode-compiled-capture.json.gz) makes the
// same chain, but has no in-place form: the trace tells them apart, as an out-of-place op runs its
// in-place form (`aten::masked_fill_`) on the clone.

#include <algorithm>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernels/kernel_names.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

// The op whose clone made the copy, or kNoId when the copy is not under a clone.
HostEventId cloning_op(const FindingContext& c, GpuActivityId id) {
  std::vector<HostEventId> chain;  // outermost first
  for (HostEventId op = c.trace.activity_op[id]; op != kNoId; op = c.trace.host_parent[op])
    if (c.trace.host_events[op].kind == HostKind::kCpuOp) chain.push_back(op);
  std::reverse(chain.begin(), chain.end());
  auto name = [&](HostEventId op) { return c.trace.strings.view(c.trace.host_events[op].name); };
  for (size_t i = 1; i < chain.size(); ++i)
    if (name(chain[i]) == "aten::clone") {
      std::string_view op = name(chain[i - 1]);
      // A copy the user asked for (x.contiguous(), x.to()) is not hidden, and a reshape copies
      // only to make a layout contiguous: neither has an in-place form to suggest. Nor has
      // repeat_interleave, whose copy is its output (K and V repeated for grouped-query attention,
      // which SDPA's enable_gqa avoids): the not-fused finding counts its time.
      static constexpr std::string_view kNotOutOfPlace[] = {
          "aten::contiguous", "aten::to",      "aten::_to_copy",
          "aten::reshape",    "aten::flatten", "aten::view",
          "aten::clone",      "aten::copy_",   "aten::repeat_interleave"};
      for (std::string_view excluded : kNotOutOfPlace)
        if (op == excluded) return kNoId;
      return chain[i - 1];
    }
  return kNoId;
}

// Whether `op` runs its own in-place form (its name with a trailing underscore) among the ops it
// calls, as an out-of-place ATen op does on its clone. Host events are sorted by thread and start,
// so the ops it calls follow it.
bool runs_in_place_form(const Trace& t, HostEventId op) {
  const HostEvent& e = t.host_events[op];
  const std::string in_place = std::string(t.strings.view(e.name)) + "_";
  for (size_t i = op.index() + 1; i < t.host_events.size(); ++i) {
    const HostEvent& inner = t.host_events[HostEventId(i)];
    if (inner.pid != e.pid || inner.tid != e.tid || inner.start_ns > e.end_ns()) break;
    if (inner.kind == HostKind::kCpuOp && t.strings.view(inner.name) == in_place) return true;
  }
  return false;
}

}  // namespace

std::vector<HiddenCopy> find_hidden_copy_activities(const FindingContext& c) {
  std::vector<HiddenCopy> out;
  for (size_t s = 0; s < c.set_count(); ++s) {
    for (GpuActivityId id : c.set_activities(s)) {
      if (!c.is_device_copy(id)) continue;
      if (HostEventId op = cloning_op(c, id); op != kNoId)
        out.push_back({c.first_region_of(s), id, op});
    }
  }
  return out;
}

void find_hidden_copies(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kHiddenCopy, {}, {}, {}, 0};
  const std::vector<HiddenCopy> copies = find_hidden_copy_activities(c);
  if (copies.empty()) return;
  // The typical region's copies are the evidence; where it has none (a trace whose steps differ),
  // the first region's that has some: never a finding without evidence or without its op.
  size_t shown = copies.front().region;
  std::vector<bool> hit(c.set_count(), false);
  for (const HiddenCopy& copy : copies) hit[c.set_of(copy.region)] = true;
  if (c.typical_set() < c.set_count() && hit[c.typical_set()])
    shown = static_cast<size_t>(c.typical());
  std::string op;
  HostEventId shown_op = kNoId;
  for (const HiddenCopy& copy : copies) {
    if (c.set_of(copy.region) != c.set_of(shown)) continue;
    const GpuActivityId id = copy.activity;
    const GpuActivity& a = c.activity(id);
    std::string what = a.kind == GpuKind::kMemcpy
                           ? fmt::format("{} ({})", c.name(id).substr(0, c.name(id).find(" (")),
                                         format_size(a.bytes))
                           : short_kernel_name(c.name(id));
    f.evidence.push_back(fmt::format("{}: {}, {} <- {}", c.region_label(shown), what,
                                     format_duration(a.dur_ns), c.chain_text(id)));
    f.gpu_ns = std::max(f.gpu_ns, 0.0) + static_cast<double>(a.dur_ns);
    if (shown_op == kNoId) {
      shown_op = copy.op;
      op = std::string(c.trace.strings.view(c.trace.host_events[copy.op].name));
    }
  }
  f.regions_affected = c.regions_with(hit);
  if (runs_in_place_form(c.trace, shown_op)) {
    f.summary = fmt::format(
        "{} copies its input before writing (out of place): a device-to-device copy "
        "in {} of {} regions",
        op, f.regions_affected, c.region_count());
    f.suggestion = fmt::format(
        "use the in-place form ({}_) when autograd is off and the input is not needed "
        "afterwards: the copy, its time and its memory go away",
        op);
  } else if (op.starts_with("aten::")) {
    // No in-place form ran: the op copied an operand whose layout it cannot read (an expanded,
    // transposed or sliced view) into a contiguous one.
    f.summary = fmt::format(
        "{} copies an operand into a contiguous layout before computing (a view it cannot read "
        "as it is): a device-to-device copy in {} of {} regions",
        op, f.regions_affected, c.region_count());
    f.suggestion = fmt::format(
        "give {} a contiguous operand: make the view contiguous once where it is made, if it is "
        "read more than once, or build the operand in the layout it reads",
        op);
  } else {
    // A user's op or an autograd function: what its clone is for is not in the trace.
    f.summary =
        fmt::format("{} clones a tensor (aten::clone): a device-to-device copy in {} of {} regions",
                    op, f.regions_affected, c.region_count());
    f.suggestion = fmt::format(
        "if {} writes into its clone, write into the input in place where autograd is off and "
        "the input is not needed afterwards; if it makes a view contiguous, give it a contiguous "
        "input: either way the copy goes away",
        op);
  }
  out.push_back(std::move(f));
}

}  // namespace attnprof
