// Hidden copy: an out-of-place op (masked_fill, add, ...) clones its input before writing, which
// shows as a Memcpy DtoD (or a copy kernel) under `op -> aten::clone -> aten::copy_`.

#include <algorithm>

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/kernel_names.h"
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
    if (op.empty()) op = std::string(c.trace.strings.view(c.trace.host_events[copy.op].name));
  }
  f.regions_affected = c.regions_with(hit);
  f.summary = fmt::format(
      "{} copies its input before writing (out of place): a device-to-device copy "
      "in {} of {} regions",
      op, f.regions_affected, c.region_count());
  // An ATen op has an in-place form named with a trailing underscore; an autograd function or a
  // user's op has none to name.
  const bool has_in_place_form = op.starts_with("aten::") && !op.ends_with("_");
  f.suggestion =
      has_in_place_form
          ? fmt::format(
                "use the in-place form ({}_) when autograd is off and the input is not "
                "needed afterwards: the copy, its time and its memory go away",
                op)
          : "write into the input in place where autograd is off and the input is not needed "
            "afterwards: the copy, its time and its memory go away";
  out.push_back(std::move(f));
}

}  // namespace attnprof
