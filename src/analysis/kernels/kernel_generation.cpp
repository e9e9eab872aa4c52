#include "analysis/kernels/kernel_generation.h"

#include <cctype>
#include <string>

#include "analysis/text_match.h"

namespace attnprof {

namespace {

bool holds(const std::string& text, std::string_view word) {
  return text.find(word) != std::string::npos;
}

// "sm80", "sm_90", "sm100" as a word of the name (between non-alphanumerics or at its ends).
int sm_in(const std::string& lower) {
  for (size_t at = lower.find("sm"); at != std::string::npos; at = lower.find("sm", at + 1)) {
    if (at > 0 && std::isalpha(static_cast<unsigned char>(lower[at - 1]))) continue;
    size_t i = at + 2;
    if (i < lower.size() && lower[i] == '_') ++i;
    size_t digits = i;
    while (digits < lower.size() && std::isdigit(static_cast<unsigned char>(lower[digits])))
      ++digits;
    if (digits - i < 2 || digits - i > 3) continue;
    if (digits < lower.size() && std::isalpha(static_cast<unsigned char>(lower[digits])) &&
        lower[digits] != 'a' && lower[digits] != 'x')
      continue;
    return std::stoi(lower.substr(i, digits - i));
  }
  return 0;
}

}  // namespace

KernelGeneration kernel_generation(std::string_view name) {
  const std::string lower = to_lower(name);
  KernelGeneration g;
  g.sm = sm_in(lower);
  g.wgmma = holds(lower, "wgmma") || holds(lower, "_gmma");
  g.tma = holds(lower, "tma");
  g.sm_in_name = g.sm != 0;
  if (holds(lower, "pytorch_flash::flash_fwd") || holds(lower, "pytorch_flash::flash_bwd") ||
      holds(lower, "flash_fwd_kernel") || holds(lower, "flash_bwd_") ||
      holds(lower, "flash_fwd_splitkv")) {
    g.family = "FlashAttention-2";
    if (!g.sm) {
      g.sm = 80;
      g.basis =
          "FlashAttention-2's kernels are written for sm80: mma.sync and cp.async, no wgmma "
          "or TMA";
    }
  } else if (holds(lower, "fmha_cutlass")) {
    g.family = "xformers (CUTLASS)";
  } else if (holds(lower, "cudnn_generated")) {
    g.family = "cuDNN";
  } else if (holds(lower, "nvjet_sm")) {
    g.family = "cuBLASLt";
  }
  return g;
}

}  // namespace attnprof
