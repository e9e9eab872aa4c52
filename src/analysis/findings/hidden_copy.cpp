// Hidden copy: an out-of-place op (masked_fill, add, ...) clones its input before writing, which
// shows as a Memcpy DtoD (or a copy kernel) under `op -> aten::clone -> aten::copy_`.

#include <fmt/format.h>

#include "analysis/findings/finding_context.h"
#include "analysis/findings/kernel_traits.h"
#include "analysis/kernel_names.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

// The op whose clone made the copy, or "" when the copy is not under a clone.
std::string_view cloning_op(const std::vector<std::string_view>& chain) {
  for (size_t i = 1; i < chain.size(); ++i)
    if (chain[i] == "aten::clone") {
      std::string_view op = chain[i - 1];
      // A copy the user asked for (x.contiguous(), x.to()) is not hidden, and a reshape copies
      // only to make a layout contiguous: neither has an in-place form to suggest.
      static constexpr std::string_view kNotOutOfPlace[] = {
          "aten::contiguous", "aten::to",   "aten::_to_copy", "aten::reshape",
          "aten::flatten",    "aten::view", "aten::clone",    "aten::copy_"};
      for (std::string_view excluded : kNotOutOfPlace)
        if (op == excluded) return {};
      return op;
    }
  return {};
}

bool is_copy(const GpuActivity& a, std::string_view name) {
  return (a.kind == GpuKind::kMemcpy && name.find("DtoD") != std::string_view::npos) ||
         (a.kind == GpuKind::kKernel && kernel_traits::is_copy_kernel(name));
}

}  // namespace

void find_hidden_copies(const FindingContext& c, std::vector<Finding>& out) {
  Finding f{FindingKind::kHiddenCopy, {}, {}, {}, 0};
  std::string op_for_suggestion;
  for (size_t r = 0; r < c.region_count(); ++r) {
    bool hit = false;
    for (GpuActivityId id : c.activities(r)) {
      const GpuActivity& a = c.activity(id);
      if (!is_copy(a, c.name(id))) continue;
      std::string_view op = cloning_op(c.op_chain(id));
      if (op.empty()) continue;
      hit = true;
      if (static_cast<int>(r) == c.typical()) {
        std::string what = a.kind == GpuKind::kMemcpy
                               ? fmt::format("{} ({})", c.name(id).substr(0, c.name(id).find(" (")),
                                             format_bytes(a.bytes))
                               : short_kernel_name(c.name(id));
        f.evidence.push_back(fmt::format("{}: {}, {} us <- {}", c.region_label(r), what,
                                         format_us(a.dur_ns), c.chain_text(id)));
        if (op_for_suggestion.empty()) op_for_suggestion = std::string(op);
      }
    }
    f.regions_affected += hit;
  }
  if (f.regions_affected == 0) return;
  if (op_for_suggestion.empty()) op_for_suggestion = "the op";
  f.summary = fmt::format(
      "{} copies its input before writing (out of place): a device-to-device copy "
      "in {} of {} regions",
      op_for_suggestion, f.regions_affected, c.region_count());
  f.suggestion = fmt::format(
      "use the in-place form ({}_) when autograd is off and the input is not "
      "needed afterwards: the copy, its time and its memory go away",
      op_for_suggestion);
  out.push_back(std::move(f));
}

}  // namespace attnprof
