#include "analysis/roofline.h"

#include <algorithm>

namespace attnprof {

std::optional<double> arithmetic_intensity(double flop, double dram_bytes) {
  if (dram_bytes <= 0 || flop < 0) return std::nullopt;
  return flop / dram_bytes;
}

double attainable_flop_per_s(double peak_flop_per_s, double bandwidth_bytes_per_s,
                             double intensity) {
  return std::min(peak_flop_per_s, intensity * bandwidth_bytes_per_s);
}

double ridge_intensity(double peak_flop_per_s, double bandwidth_bytes_per_s) {
  return bandwidth_bytes_per_s > 0 ? peak_flop_per_s / bandwidth_bytes_per_s : 0;
}

std::optional<double> percent_of_roof(const RooflinePoint& point, double peak_flop_per_s,
                                      double bandwidth_bytes_per_s) {
  if (peak_flop_per_s <= 0 || bandwidth_bytes_per_s <= 0 || point.intensity <= 0)
    return std::nullopt;
  const double roof =
      attainable_flop_per_s(peak_flop_per_s, bandwidth_bytes_per_s, point.intensity);
  return 100.0 * point.flop_per_s / roof;
}

bool memory_bound(const RooflinePoint& point, double peak_flop_per_s,
                  double bandwidth_bytes_per_s) {
  return point.intensity < ridge_intensity(peak_flop_per_s, bandwidth_bytes_per_s);
}

}  // namespace attnprof
