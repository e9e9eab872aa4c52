#pragma once
// The study's per-variant facts, read from the variant's own trace by the core library.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/findings.h"
#include "attnprof/result.h"

namespace attnprof::bench {

// Medians over the trace's regions of one name (`forward` or `backward`), and the main kernel
// of the typical region (the core's region closest to the medians).
struct RegionFacts {
  int regions = 0;
  double kernels = 0, memcpy = 0, memset = 0;
  std::map<std::string, double> memcpy_by_kind;  // "DtoD" -> 1
  double gpu_busy_us = 0;                        // union of the region's GPU activity
  double wall_us = 0;                            // the annotation's length on the CPU
  double cpu_us = 0;                             // time in the region's top-level CPU ops
  // The longest kernel of the typical region: where its GPU time goes.
  std::string main_kernel;  // short name
  double main_kernel_us = 0;
  std::string launch_api;                      // cudaLaunchKernel, cuLaunchKernelEx, ...
  std::optional<double> occupancy_pct;         // attnprof's estimate
  std::string occupancy_limiter;               // what bounds it: "registers", ...
  std::optional<double> kineto_occupancy_pct;  // Kineto's own, where it gave one
  uint64_t diagnostics = 0;                    // oddities the reader counted in the trace
  std::vector<Finding> findings;               // what the trace means (analyze --explain)
  std::vector<ExpectationResult> expectations;  // --expectations, checked on these regions
};

// Reads the trace at `path` (.json or .json.gz) and summarizes its regions named `region`.
// Fails (one line naming the file) when the core cannot read the trace, or when it holds no such
// region.
// `expectations` are checked against the same analysis (bench --expectations).
Result<RegionFacts> read_region_facts(const std::string& path, const std::string& region,
                                      const std::vector<Expectation>& expectations = {});

}  // namespace attnprof::bench
