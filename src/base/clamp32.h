#pragma once
// A trace's 64-bit integer narrowed to the 32 bits a model field keeps (a device, a stream, an SM
// count), saturating: a number out of range becomes the nearest that fits, never another value.

#include <algorithm>
#include <cstdint>
#include <limits>

namespace attnprof {

inline int32_t clamp32(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

}  // namespace attnprof
