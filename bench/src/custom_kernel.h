#pragma once
// A kernel given with `attnprof bench --custom [NAME=]PATH`, as the LibTorch half runs it: its
// row's name and the entry point of the C ABI (attnprof_bench/custom_attention.h). Plain data,
// no fmt (bench/README.md); custom_kernel_loader.h opens the library and fills it.

#include <string>

#include "attnprof_bench/custom_attention.h"

namespace attnprof::bench {

struct CustomKernel {
  std::string name;  // the row's name in the table, summary.json and the trace's file name
  std::string path;  // the shared library, as given
  attnprof_custom_attention_fn function = nullptr;
};

}  // namespace attnprof::bench
