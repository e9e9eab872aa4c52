#pragma once
// The report's plots, each one self-contained <svg> element (no script, no external resource):
// a region's timeline, GPU time by kernel class per variant, and a log-log line chart.

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/kernel_class.h"
#include "analysis/region_timeline.h"
#include "attnprof/region_memory.h"
#include "attnprof/time_breakdown.h"

namespace attnprof::svg {

// CPU thread lanes above GPU stream lanes on one time axis, launch -> GPU work links; hover text
// (<title>) gives each span's name, duration and, for GPU work, grid, block, registers, shared
// memory, occupancy and the op chain that launched it. `id` must be unique in the page (it names
// the arrow marker); `variant` goes into the element's data-variant attribute. With `window_ns`,
// a zoomed view of the first `window_ns` of the region (class timeline-zoom): what starts later is
// left out, and launches of it point out of the right edge.
std::string timeline(const RegionTimeline& t, const std::string& id, const std::string& variant,
                     int64_t window_ns = 0);

// A device's allocated memory over a region (its [memory] events' "Total Allocated", a step line)
// on the time axis of the region's timeline (`end_ns`: the timeline's, so that the two line up),
// with the peak and its op marked (docs/MEMORY.md, docs/REPORT.md).
std::string memory_chart(const RegionMemory& m, int64_t end_ns, const std::string& id,
                         const std::string& variant);

struct ClassBar {
  std::string label;
  bool has_data = false;  // false: drawn as "no trace"
  std::array<int64_t, kKernelClassCount> ns{};
};

// One row per bar: GPU time stacked by kernel class on the left (with the total), the same as
// shares of 100 % on the right, a legend of the classes present above.
std::string class_bars(const std::vector<ClassBar>& bars);

struct BreakdownBar {
  std::string label;
  TimeBreakdown breakdown;  // span 0: drawn as "no GPU work"
};

// One row per bar: its GPU span as shares of compute, communication, memory and idle
// (docs/BREAKDOWN.md), the span and the communication overlap on the right.
std::string breakdown_bars(const std::vector<BreakdownBar>& bars);

struct Series {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), both > 0
};

struct LogLogChart {
  std::string id;  // element id, unique in the page
  std::string title;
  std::string x_label;
  std::vector<Series> series;
  std::function<std::string(double)> format_y;     // hover
  std::function<std::string(double)> format_tick;  // y tick labels
  bool binary_ticks = false;  // y ticks at powers of two (bytes), else at 1, 2, 5 per decade
};

// Both axes logarithmic; a line with markers per series and a legend on the right.
std::string loglog_chart(const LogLogChart& chart);

struct RooflineRoof {
  std::string name;  // "bf16/fp16 tensor"
  double flop_per_s = 0;
};

struct RooflineMark {
  std::string label;      // "sdpa-flash", or a kernel's short name
  std::string detail;     // hover text after the numbers
  double intensity = 0;   // FLOP per DRAM byte, > 0
  double flop_per_s = 0;  // > 0
  bool kernel = false;    // a main kernel (hollow) rather than a variant (filled)
  size_t color = 0;       // the variant's index: its kernel has its color
};

struct RooflineChart {
  std::string id;
  std::vector<RooflineRoof> roofs;  // highest first
  double bandwidth_bytes_per_s = 0;
  std::vector<RooflineMark> marks;
};

// The roofline, both axes logarithmic: the memory roof (intensity x bandwidth) rising to each
// compute roof, a dot per variant and a ring per main kernel, a legend on the right.
std::string roofline_chart(const RooflineChart& chart);

}  // namespace attnprof::svg
