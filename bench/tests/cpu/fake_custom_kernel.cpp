// A stand-in for a custom kernel library (no GPU work), built in several flavours to test the
// loader's refusals: FAKE_ABI_VERSION is the version it reports, FAKE_NO_VERSION leaves out the
// version symbol, FAKE_NO_ENTRY the attention function.

#include <cstdio>

#include "attnprof_bench/custom_attention.h"

#ifndef FAKE_NO_VERSION
extern "C" __attribute__((visibility("default"))) int32_t attnprof_custom_attention_abi_version() {
  return FAKE_ABI_VERSION;
}
#endif

#ifndef FAKE_NO_ENTRY
// Runs nothing: says why, as a kernel that cannot run a problem does.
extern "C" __attribute__((visibility("default"))) int32_t attnprof_custom_attention(
    const attnprof_attention_args* args, char* reason, size_t reason_size) {
  std::snprintf(reason, reason_size, "fake kernel: nothing runs here (head_dim %lld)",
                static_cast<long long>(args->head_dim));
  return ATTNPROF_CUSTOM_UNSUPPORTED;
}
#endif
