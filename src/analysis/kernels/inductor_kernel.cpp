#include "analysis/kernels/inductor_kernel.h"

#include <array>
#include <string>

namespace attnprof {

namespace {

struct Prefix {
  std::string_view text;
  InductorKind kind;
};
constexpr std::array<Prefix, 4> kPrefixes = {{{"triton_poi_", InductorKind::kPointwise},
                                              {"triton_red_", InductorKind::kReduction},
                                              {"triton_per_", InductorKind::kPersistentReduction},
                                              {"triton_tem_", InductorKind::kTemplate}}};

// ATen ops that only move, view or cast data: a pointwise kernel of these alone is a copy (the
// layout and dtype changes around a compiled region's real work). Longest first where one name
// starts another, so that the greedy match below tries "index_copy" before "index".
constexpr std::array<std::string_view, 24> kDataMovers = {
    "_to_copy",   "_unsafe_view", "constant_pad_nd", "index_copy", "as_strided", "lift_fresh",
    "contiguous", "transpose",    "unsqueeze",       "squeeze",    "permute",    "reshape",
    "expand",     "select",       "narrow",          "repeat",     "split",      "slice",
    "index",      "clone",        "copy_",           "copy",       "view",       "cat"};

bool movers_from(std::string_view fused, size_t at) {
  if (at == fused.size()) return true;
  for (std::string_view op : kDataMovers) {
    if (fused.substr(at, op.size()) != op) continue;
    const size_t end = at + op.size();
    if (end == fused.size()) return true;
    if (fused[end] == '_' && movers_from(fused, end + 1)) return true;
  }
  return false;
}

}  // namespace

bool InductorKernel::fuses(std::string_view op) const {
  if (op.empty() || fused.empty()) return false;
  // `op` as a whole word of the fused names, which '_' separates (an op of its own may start with
  // one: "_softmax").
  for (size_t at = fused.find(op); at != std::string_view::npos; at = fused.find(op, at + 1)) {
    const size_t end = at + op.size();
    if ((at == 0 || fused[at - 1] == '_') && (end == fused.size() || fused[end] == '_'))
      return true;
  }
  return false;
}

bool InductorKernel::fuses_softmax() const {
  return fuses("_softmax") || fuses("softmax") || fuses("_log_softmax") ||
         fuses("prepare_softmax_online");
}

bool InductorKernel::is_matmul_template() const {
  return kind == InductorKind::kTemplate &&
         (fuses("mm") || fuses("bmm") || fuses("addmm") || fuses("baddbmm"));
}

bool InductorKernel::only_moves_data() const {
  return !fused.empty() && movers_from(fused, 0);
}

std::optional<InductorKernel> parse_inductor_kernel(std::string_view name) {
  for (const Prefix& p : kPrefixes) {
    if (!name.starts_with(p.text)) continue;
    std::string_view rest = name.substr(p.text.size());
    if (rest.starts_with("fused_")) rest.remove_prefix(6);
    // The kernel's number: "_0", "_12".
    const size_t last = rest.find_last_not_of("0123456789");
    if (last != std::string_view::npos && last + 1 < rest.size() && rest[last] == '_')
      rest = rest.substr(0, last);
    else if (last == std::string_view::npos)
      rest = {};
    return InductorKernel{p.kind, rest};
  }
  return std::nullopt;
}

}  // namespace attnprof
