#pragma once
// Number formats shared by the renderers.

#include <array>
#include <cstdint>
#include <string>

namespace attnprof {

// 1234567 ns -> "1234.6" (microseconds, one decimal), the unit every table uses.
std::string format_us(double ns);
// A count that may be a median of an even number of regions: "5" or "5.5".
std::string format_count(double v);
std::string format_bytes(int64_t bytes);
// grid/block as "[16,4,16]".
std::string format_dim3(const std::array<int32_t, 3>& dims);

}  // namespace attnprof
