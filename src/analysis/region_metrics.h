#pragma once
// The numbers `check` tests and `diff` compares, for one analyzed trace: each region quantity as
// a median over the regions with its min..max, and the main kernel of the typical region.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_class.h"
#include "analysis/spread.h"
#include "attnprof/analysis.h"

namespace attnprof {

// The typical region's kernel with the longest duration: in an attention forward, the attention
// kernel itself or its largest GEMM.
struct MainKernel {
  std::string short_name;
  std::string name;
  std::string launch_api;
  std::optional<double> occupancy_pct;         // attnprof's estimate
  std::optional<double> kineto_occupancy_pct;  // as Kineto wrote it
  int32_t registers = 0;
  int64_t shared_memory_bytes = 0;
  int64_t grid_blocks = 0;  // grid x * y * z
  int64_t duration_ns = 0;
};

struct ClassMetrics {
  Spread count;    // activities of the class per region
  Spread time_ns;  // sum of their durations per region
};

struct RegionMetrics {
  std::string path;
  std::string region_pattern;  // "" for the whole trace
  int64_t regions = 0;
  int typical_region = -1;
  std::string typical_region_name;

  Spread kernels, memcpy, memset;
  std::map<std::string, Spread> memcpy_by_kind;  // DtoD, HtoD and DtoH always, others when present
  Spread gpu_busy_ns, wall_ns, cpu_ns;

  // Per kernel class (kernel_class.h), over the regions whose activities the analysis listed:
  // every region when it ran with activities_of_every_region, else the typical one alone.
  std::array<ClassMetrics, kKernelClassCount> by_class;
  int class_regions = 0;

  std::optional<MainKernel> main_kernel;  // none when the typical region ran no kernel
};

RegionMetrics compute_region_metrics(const TraceAnalysis& analysis);

// The metric names `check` knows, with the type of their value.
enum class MetricType : uint8_t { kNumber, kText };
struct MetricInfo {
  std::string name;
  MetricType type;
  std::string meaning;
};
const std::vector<MetricInfo>& metric_catalog();
const MetricInfo* find_metric(std::string_view name);

// A metric's value in one trace. A text value may have several spellings that `~` and `==` try
// (main_kernel: its short name, then its full name); the first one is shown.
struct MetricValue {
  bool available = false;
  std::string
      why_unavailable;  // "no region matches \"forward\"", "the typical region ran no kernel"
  MetricType type = MetricType::kNumber;
  Spread number;  // medians over regions; a single value for the main kernel's properties
  std::vector<std::string> texts;
};

// An unknown `name` gives an unavailable value that says so.
MetricValue metric_value(const RegionMetrics& metrics, std::string_view name);

}  // namespace attnprof
