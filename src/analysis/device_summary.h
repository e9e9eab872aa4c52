#pragma once
// A device as the trace describes it, in its vendor's words: NVIDIA's SMs and compute capability,
// AMD's compute units and gcnArchName; "unknown" for what the trace does not give.

#include "attnprof/analysis.h"
#include "model/trace.h"

namespace attnprof {

DeviceSummary summarize_device(const DeviceProperties& device);

}  // namespace attnprof
