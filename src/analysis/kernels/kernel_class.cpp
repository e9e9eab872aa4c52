#include "analysis/kernels/kernel_class.h"

#include <algorithm>
#include <initializer_list>
#include <string>

#include "analysis/findings/kernel_traits.h"
#include "analysis/kernels/inductor_kernel.h"
#include "analysis/text_match.h"

namespace attnprof {

namespace {

// In the order of the enum.
constexpr std::array<std::string_view, kKernelClassCount> kLabels = {
    "fused attention", "gemm", "softmax", "mask",          "elementwise",
    "reduction",       "copy", "memset",  "communication", "other"};

bool has_any(const std::string& text, std::initializer_list<std::string_view> keywords) {
  return std::any_of(keywords.begin(), keywords.end(),
                     [&](std::string_view k) { return text.find(k) != std::string::npos; });
}

// Rule 2b: an Inductor kernel by what it fuses.
KernelClass inductor_class(const InductorKernel& k) {
  if (k.is_matmul_template()) return KernelClass::kGemm;
  if (k.fuses_softmax()) return KernelClass::kSoftmax;
  switch (k.kind) {
    case InductorKind::kReduction:
    case InductorKind::kPersistentReduction:
      return KernelClass::kReduction;
    case InductorKind::kPointwise:
      return k.only_moves_data() ? KernelClass::kCopy : KernelClass::kElementwise;
    case InductorKind::kTemplate:
      break;
  }
  return KernelClass::kOther;
}

// MTIA names a kernel after its op and type ("fc-dtype_Float", "batch_matmul-dtype_Half"):
// the op's products are GEMMs.
bool is_mtia_product(const std::string& lower_name) {
  const size_t cut = lower_name.find("-dtype_");
  if (cut == std::string::npos) return false;
  const std::string_view op = std::string_view(lower_name).substr(0, cut);
  for (std::string_view p : {"fc", "batch_matmul", "matmul", "bmm", "mm", "addmm", "linear"})
    if (op == p) return true;
  return false;
}

}  // namespace

bool is_communication_kernel(std::string_view lower_name) {
  // RCCL keeps NCCL's kernel names (ncclDevKernel_*, ncclKernel_*); its own spelling and HCCL's
  // (Gaudi, Ascend) are matched as well. HTA's rule is the same substring, "nccl"
  // (docs/BREAKDOWN.md).
  for (std::string_view k : {"nccl", "rccl", "hccl"})
    if (lower_name.find(k) != std::string_view::npos) return true;
  return false;
}

std::string_view kernel_class_label(KernelClass c) {
  return kLabels[static_cast<size_t>(c)];
}

std::string_view kernel_class_id(KernelClass c) {
  return c == KernelClass::kFusedAttention ? "fused_attention" : kernel_class_label(c);
}

KernelClass classify_kernel(std::string_view short_name, std::string_view name) {
  std::string full = to_lower(name.empty() ? short_name : name);
  std::string brief = to_lower(short_name.empty() ? name : short_name);
  if (is_communication_kernel(full)) return KernelClass::kCommunication;
  // AMD's Composable Kernel and aiter name their attention kernels fmha_* / mha_* too
  // (ck_tile::FmhaFwdKernel, aiter's mha_fwd, fmha_v3).
  if (has_any(full, {"flash_fwd", "flash_bwd", "flash_attn", "fmha", "efficient_attention",
                     "cudnn_generated_fort_native_sdpa", "mha_fwd", "mha_bwd"}) ||
      kernel_traits::is_flex_attention(full))
    return KernelClass::kFusedAttention;
  if (auto inductor = parse_inductor_kernel(name.empty() ? short_name : name))
    return inductor_class(*inductor);
  if (is_mtia_product(full)) return KernelClass::kGemm;
  // FBGEMM's embedding kernels (fbgemm::split_embedding_*) are lookups, not products: its name
  // is no "gemm". AMD's Tensile kernels (rocBLAS, hipBLASLt) are named Cijk_<layout>_...
  std::string products = full;
  for (size_t at; (at = products.find("fbgemm")) != std::string::npos;) products.erase(at, 6);
  if (has_any(products, {"gemm", "nvjet", "xmma", "cublas", "cutlass", "hipblaslt"}) ||
      products.starts_with("cijk_"))
    return KernelClass::kGemm;
  if (has_any(brief, {"softmax"})) return KernelClass::kSoftmax;
  if (has_any(brief, {"triu_tril"})) return KernelClass::kMask;
  if (has_any(brief, {"copy"})) return KernelClass::kCopy;
  if (has_any(brief, {"reduce_kernel", "reduction"})) return KernelClass::kReduction;
  if (has_any(brief, {"elementwise", "multi_tensor_apply"})) return KernelClass::kElementwise;
  return KernelClass::kOther;
}

KernelClass classify_activity(const ActivityRow& row) {
  switch (row.kind) {
    case ActivityKind::kMemcpy:
      return KernelClass::kCopy;
    case ActivityKind::kMemset:
      return KernelClass::kMemset;
    case ActivityKind::kKernel:
      break;
  }
  return classify_kernel(row.short_name, row.name);
}

}  // namespace attnprof
