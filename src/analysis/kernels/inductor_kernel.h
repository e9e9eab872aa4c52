#pragma once
// What an Inductor (torch.compile) Triton kernel's name says: its kind and the ATen ops it fuses.
// Inductor names a kernel triton_<kind>_fused_<ops>_<n>, the ops joined by underscores in the
// order of their names (tests/data/graphs/naive-compiled.json.gz:
// triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_0 is a persistent
// reduction that fuses _softmax, exp, masked_fill, mul, sub and view). The ops' own underscores
// make the list impossible to split exactly, so questions are asked of whole op names
// (`fuses("masked_fill")`), never of pieces. docs/CUDA_GRAPHS.md, "Compiled code".

#include <optional>
#include <string_view>

namespace attnprof {

enum class InductorKind {
  kPointwise,            // triton_poi_
  kReduction,            // triton_red_: a looped reduction
  kPersistentReduction,  // triton_per_: a reduction that keeps its row on chip
  kTemplate,             // triton_tem_: a template (a matmul, FlexAttention)
};

struct InductorKernel {
  InductorKind kind = InductorKind::kPointwise;
  // The fused ops as the name writes them: "_softmax_exp_masked_fill_mul_..._view"; "" when the
  // name says none (triton_poi_0).
  std::string_view fused;

  // Whether the name lists `op` whole, between underscores ("_softmax" in "fused__softmax_exp").
  bool fuses(std::string_view op) const;
  // A softmax among the fused ops: _softmax, softmax, _log_softmax, or the online softmax's
  // prepare_softmax_online (the max and sum in one pass, torch 2.6 on).
  bool fuses_softmax() const;
  // A matrix product template: mm, bmm, addmm, baddbmm (Inductor's Triton GEMMs).
  bool is_matmul_template() const;
  // Every fused op only moves or casts data (clone, copy, _to_copy, cat, view, permute, ...).
  bool only_moves_data() const;
};

// The kernel's kind and fused ops, or nothing for a name that is not Inductor's.
std::optional<InductorKernel> parse_inductor_kernel(std::string_view name);

// The op torch.compile runs a compiled frame under ("Torch-Compiled Region: 0/0": frame 0,
// compile 0), with the compiled graph's kernels and extern ops (aten::bmm) below it.
inline bool is_compiled_region(std::string_view op) {
  return op.starts_with("Torch-Compiled Region");
}

}  // namespace attnprof
