#pragma once
// `attnprof bench --custom [NAME=]PATH`: reading the flag and opening the shared library it names,
// before any GPU work, so that a wrong path, a library without the ABI's symbols or one built for
// another ABI version is one line and exit code 2 (docs/CUSTOM_KERNELS.md). No LibTorch, no CUDA:
// built and tested wherever the bench could be.

#include <string>
#include <string_view>

#include "attnprof/result.h"
#include "custom_kernel.h"

namespace attnprof::bench {

// `NAME=PATH`, or `PATH` alone: the name is then the file's, without a leading "lib" and without
// its extensions (libexample_attention.so -> example_attention). Fails (kUsage) on an empty name
// or path, a name that is not letters, digits, '.', '_' or '-' (it names the trace's file), or the
// name of a built-in variant.
Result<CustomKernel> parse_custom_kernel(std::string_view text);

// Opens kernel.path with dlopen and fills kernel.function. Fails (kUsage, one line naming the
// path) when the file does not exist, cannot be loaded (dlerror's words), exports no
// attnprof_custom_attention_abi_version or attnprof_custom_attention, or reports an ABI version
// other than ATTNPROF_CUSTOM_ATTENTION_ABI_VERSION. The library stays loaded until the process
// ends: unloading CUDA code while the driver may still reference it is not worth the risk for a
// command that ends soon after. A `.pt2` file is an AOTInductor package: only checked to be a
// zip archive here (kernel.aoti_package), loaded by the LibTorch half when its row runs.
Result<CustomKernel> load_custom_kernel(CustomKernel kernel);

}  // namespace attnprof::bench
