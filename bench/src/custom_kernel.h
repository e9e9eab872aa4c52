#pragma once
// A kernel given with `attnprof bench --custom [NAME=]PATH`, as the LibTorch half runs it: its
// row's name and the entry point of the C ABI (attnprof_bench/custom_attention.h), or an
// AOTInductor package. Plain data, no fmt (bench/README.md); custom_kernel_loader.h opens the
// library and fills it.

#include <string>

#include "attnprof_bench/custom_attention.h"

namespace attnprof::bench {

struct CustomKernel {
  std::string name;  // the row's name in the table, summary.json and the trace's file name
  std::string path;  // the shared library or AOTInductor package, as given
  // The library's entry point; null for an AOTInductor package (`.pt2`), which the LibTorch half
  // loads with torch's own package loader and calls with (q, k, v).
  attnprof_custom_attention_fn function = nullptr;
  bool aoti_package = false;
};

}  // namespace attnprof::bench
