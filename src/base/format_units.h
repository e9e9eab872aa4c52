#pragma once
// Number formats shared by every output: analyze's tables, the report, the SVG charts and the
// bench's table. One way to print a duration, a count or a size.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// 1234567 ns -> "1234.6" (microseconds, one decimal), the unit every table uses.
std::string format_us(double ns);
// "0.8 µs", "157.2 µs", "2.26 ms", "1.20 s": a duration as the tables and charts show it.
std::string format_duration(double ns);
// One unit for a column of durations, said once in its header, so that its cells compare at a
// glance: milliseconds when every value is at least 1 ms, microseconds otherwise (a median of
// 157 µs in ms would lose its digits).
enum class DurationUnit { kMicroseconds, kMilliseconds };
DurationUnit common_duration_unit(const std::vector<double>& ns);
std::string_view unit_symbol(DurationUnit unit);  // "µs", "ms"
// The number alone, in `unit`: "157.2" (µs, one decimal), "2.26" (ms, two decimals).
std::string format_duration_in(double ns, DurationUnit unit);
// Axis tick labels, as short as the value allows: "0", "500 µs", "1.5 ms", "100 ms"; "16 MiB".
std::string format_tick_duration(double ns);
std::string format_tick_bytes(double bytes);
// "13.2 %"
std::string format_percent(double percent);
// A relative error: "3.1e-03"; "nan".
std::string format_error(double relative_error);
// A count that may be a median of an even number of regions: "5" or "5.5".
std::string format_count(double v);
std::string format_bytes(int64_t bytes);
// A size or count the trace may not give (negative: unknown): "-" then, never "0".
std::string format_size(int64_t bytes);
std::string format_known_count(int64_t count);
// grid/block as "[16,4,16]"; "-" when the trace does not give it.
std::string format_dim3(const std::array<int32_t, 3>& dims);

}  // namespace attnprof
