#pragma once
// The roofline: what a kernel can reach at its arithmetic intensity (FLOPs per DRAM byte), the
// lower of the compute roof and the memory roof (intensity x bandwidth). The compute roofs are
// the GPU's datasheet peaks; the bandwidth is the one measured by a copy kernel in the same run
// (docs/counters.md).

#include <optional>
#include <string>
#include <vector>

namespace attnprof {

struct ComputeRoof {
  std::string name;  // "bf16 tensor", "fp32"
  double flop_per_s = 0;
};

struct Roofline {
  std::vector<ComputeRoof> compute;  // highest first
  double bandwidth_bytes_per_s = 0;
};

struct RooflinePoint {
  double intensity = 0;  // FLOP per DRAM byte
  double flop_per_s = 0;
};

// FLOP per byte, or nullopt when no byte came from DRAM (the work ran from caches: no point).
std::optional<double> arithmetic_intensity(double flop, double dram_bytes);

// min(peak, intensity x bandwidth).
double attainable_flop_per_s(double peak_flop_per_s, double bandwidth_bytes_per_s,
                             double intensity);

// The intensity where the memory roof meets the compute roof `peak`.
double ridge_intensity(double peak_flop_per_s, double bandwidth_bytes_per_s);

// Achieved over attainable at the point's intensity, in percent; nullopt without a bandwidth or
// a peak.
std::optional<double> percent_of_roof(const RooflinePoint& point, double peak_flop_per_s,
                                      double bandwidth_bytes_per_s);

// True when the point's intensity lies left of the ridge: the memory roof bounds it.
bool memory_bound(const RooflinePoint& point, double peak_flop_per_s, double bandwidth_bytes_per_s);

}  // namespace attnprof
