#pragma once
// Which GPU generation a kernel was written for, as far as its name tells: the architecture tag
// cuBLAS, cuDNN and CUTLASS put in their names (sm80, sm90), Hopper's warpgroup matrix
// instructions (wgmma) and tensor memory accelerator (tma), and the families whose names carry
// none but whose design is known (FlashAttention-2's flash_fwd_kernel is written for sm80:
// mma.sync and cp.async, without wgmma or TMA). The headline compares a slow variant's main
// kernel with the fastest's by these when no finding covers its gap.

#include <optional>
#include <string>
#include <string_view>

namespace attnprof {

struct KernelGeneration {
  int sm = 0;               // 80, 90, 100; 0 when the name does not tell
  bool wgmma = false;       // Hopper's warpgroup MMA, named in the kernel
  bool tma = false;         // the tensor memory accelerator, named in the kernel
  std::string family;       // "FlashAttention-2", "xformers (CUTLASS)", "cuDNN", ""
  bool sm_in_name = false;  // the name carries its architecture tag (sm80, sm90)
  // How the generation was told where the name carries no tag: what is known of its family.
  std::string basis;
};

KernelGeneration kernel_generation(std::string_view name);

}  // namespace attnprof
