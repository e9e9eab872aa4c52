#pragma once
// Kineto traces of a variant, recorded through LibTorch's C++ profiler API.

#include <string>
#include <vector>

#include "libtorch/variants.h"

namespace attnprof::bench {

// Records `iterations` calls of `call` under LibTorch's Kineto profiler (CPU ops with their input
// shapes; on CUDA also the runtime calls and GPU activities) and saves Kineto's Chrome-trace JSON
// at `json_path`, uncompressed (the study side gzips it). Each forward runs inside a `forward`
// user annotation and each backward inside `backward`: the regions `attnprof analyze` summarizes.
// One call inside a `warmup` annotation comes first, because the profiler's own start-up (CUPTI
// buffers, first callbacks) would otherwise inflate the first region, the reason Python's
// profiler schedule has warm-up steps; and the device is synchronized after each call, as the
// study does, so that regions do not overlap on the GPU. Input sets rotate as in the timing.
// Throws what LibTorch throws; the profiler is disabled again in any case.
void record_trace(const AttentionCall& call, const std::vector<InputSet>& inputs, int iterations,
                  const std::string& json_path);

}  // namespace attnprof::bench
