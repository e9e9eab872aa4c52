#pragma once
// A bench run's roofline (bench --counters), as the report draws it: the roofs, the measured
// bandwidth, a point per variant (useful FLOPs per DRAM byte, achieved TFLOP/s by CUDA events)
// and a point per variant's main kernel (the FLOPs the hardware counted per DRAM byte, over the
// kernel's duration under ncu).

#include <optional>
#include <string>
#include <vector>

#include "study/run/run_summary.h"

namespace attnprof {

struct RunRooflinePoint {
  std::string label;  // the variant ("sdpa-auto (cudnn)"), or its main kernel's short name
  std::string variant;
  bool kernel = false;
  size_t variant_index = 0;  // among the point's variants: one color for a variant and its kernel
  double intensity = 0;
  double flop_per_s = 0;
  std::optional<double> percent_of_roof;  // under the highest roof
};

struct RunRoofline {
  std::vector<RunCounters::Roof> roofs;  // highest first
  double bandwidth_bytes_per_s = 0;
  std::vector<RunRooflinePoint> points;
};

// nullopt when the run has no counters or no measured bandwidth.
std::optional<RunRoofline> run_roofline(const RunSummary& run, const RunPoint& point);

}  // namespace attnprof
