#pragma once
// A --custom kernel (attnprof_bench/custom_attention.h) as one of the bench's calls: the input
// set's q, k and v and a fresh output handed to the library's C function, on the current CUDA
// stream. LibTorch half of the bench only.

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "custom_kernel.h"
#include "libtorch/variants.h"

namespace torch::inductor {
class AOTIModelPackageLoader;
}

namespace attnprof::bench {

// What forward() throws when the library does not return ATTNPROF_CUSTOM_OK: its status and the
// reason it wrote (one line).
class CustomKernelRefusal : public std::runtime_error {
 public:
  CustomKernelRefusal(int32_t status, const std::string& reason)
      : std::runtime_error(reason), status_(status) {}
  bool unsupported() const { return status_ == ATTNPROF_CUSTOM_UNSUPPORTED; }

 private:
  int32_t status_;
};

// Why the bench cannot hand this problem to any custom kernel (the ABI is forward-only and takes
// CUDA device pointers), or nullopt.
std::optional<std::string> custom_unsupported_reason(const Problem& problem);

// An AOTInductor package (kernel.aoti_package) is loaded here, with torch's
// AOTIModelPackageLoader (the Python loader crashed on the GPU machine, the C++ one did not:
// docs/CUSTOM_KERNELS.md), and called with (q, k, v); its first output is the attention's.
class CustomKernelCall : public AttentionCall {
 public:
  // Throws what torch's package loader throws for a package it cannot load.
  CustomKernelCall(const CustomKernel& kernel, const Problem& problem, const Masks& masks);
  ~CustomKernelCall() override;

  // Enqueues the kernel on the current CUDA stream and returns its output; throws
  // CustomKernelRefusal when the library returns anything but ATTNPROF_CUSTOM_OK.
  at::Tensor forward(const InputSet& in) const override;

 private:
  at::Tensor run_library(const InputSet& in) const;
  at::Tensor run_package(const InputSet& in) const;

  CustomKernel kernel_;
  double softmax_scale_;
  std::unique_ptr<torch::inductor::AOTIModelPackageLoader> package_;
};

}  // namespace attnprof::bench
