#pragma once
// The machine the bench runs on, as LibTorch sees it. Implemented in libtorch/device_info.cpp; this
// header includes no LibTorch (bench/README.md).

#include <cstdint>
#include <string>

#include "problem.h"

namespace attnprof::bench {

struct DeviceInfo {
  bool available = false;
  std::string unavailable_reason;  // one line, when not available
  std::string name;                // "NVIDIA H200"; "CPU" on the CPU
  int sm_count = 0;
  int compute_major = 0, compute_minor = 0;
  int64_t l2_bytes = 0;
  int64_t memory_bytes = 0;
  // fp32 matmuls may run as TF32 (torch.backends.cuda.matmul.allow_tf32): changes the fp32 peak.
  bool tf32_matmul = false;
};

struct LibraryVersions {
  std::string torch;         // "2.11.0"
  std::string cuda_runtime;  // "13.0"; empty on CPU-only builds
  std::string cudnn;         // "9.19.0"; empty without cuDNN
};

// Never throws; a device LibTorch cannot use comes back with available == false.
DeviceInfo query_device(DeviceKind device);
LibraryVersions library_versions();

}  // namespace attnprof::bench
