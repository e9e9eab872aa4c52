#pragma once
// The cells that show a region's facts in the study's table: the bench's table (terminal and
// summary.md) and the report's tables (HTML and Markdown) print each fact this one way.

#include <string>

#include "attnprof/region_facts.h"

namespace attnprof {

inline constexpr const char* kNoCell = "-";

std::string kernels_cell(const RegionFacts& f);      // "5", "5.5"
std::string main_kernel_cell(const RegionFacts& f);  // its short name; "-" without one
std::string memcpy_cell(const RegionFacts& f);       // "1 (DtoD)", "2 (DtoD, HtoD)", "0"
// The main kernel's occupancy: attnprof's estimate, else Kineto's ("0 % (Kineto)"), else "n/a".
std::string occupancy_cell(const RegionFacts& f);
std::string launch_api_cell(const RegionFacts& f);  // "cudaLaunchKernel"; "-" when unknown
std::string cpu_time_cell(const RegionFacts& f);    // the median CPU time: "220.0 µs"

}  // namespace attnprof
