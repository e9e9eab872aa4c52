#pragma once
// How a GPU activity's op was found (docs/CUDA_GRAPHS.md, "Attribution"). A kernel launched on
// its own has its launch's op; every activity of a CUDA graph replay shares the launch of
// cudaGraphLaunch, so its op comes from the capture of that graph in the same trace, paired by
// order on the stream, or from a capture trace given apart (--graph-capture), matched by the
// replay's kernel names, or stays unknown.

#include <cstdint>
#include <string_view>

namespace attnprof {

enum class Attribution : uint8_t {
  kLaunch,        // its own launch (or its "External id"): the op that called the launch API
  kCaptureOrder,  // a graph replay's n-th activity, paired with the n-th launch of the capture
  kSignature,     // a graph replay whose names, in order, are those of exactly one graph of a
                  // capture trace given apart: the n-th activity takes that graph's n-th op
  kUnknown,       // a graph replay with no capture to pair with, or one it matches ambiguously;
                  // or an activity whose launch is not in the trace and that names no op
};

// The word JSON, CSV and the Python module write: "launch", "capture_order", "signature",
// "unknown".
constexpr std::string_view attribution_name(Attribution a) {
  switch (a) {
    case Attribution::kLaunch:
      return "launch";
    case Attribution::kCaptureOrder:
      return "capture_order";
    case Attribution::kSignature:
      return "signature";
    case Attribution::kUnknown:
      return "unknown";
  }
  return "unknown";
}

inline constexpr int kAttributionCount = 4;

}  // namespace attnprof
