#pragma once
// `attnprof bench --counters`: Nsight Compute (ncu) run over a child run of the bench itself, one
// child per variant, each profiling exactly one typical call between cuProfilerStart and Stop
// (docs/counters.md says why ncu and not CUPTI's range profiler). Study half: plain C++, no
// LibTorch.

#include <filesystem>
#include <string>
#include <vector>

#include "attnprof/hardware_counters.h"
#include "attnprof/result.h"
#include "problem.h"

namespace attnprof::bench {

struct NcuTool {
  std::string path;
  std::string version;  // "2025.3.1.0", from `ncu --version`
};

// $ATTNPROF_NCU when set (a path to ncu, or "none" to say there is none), else `ncu` on PATH,
// else /usr/local/cuda/bin/ncu. Fails with the one line the study prints when there is none.
Result<NcuTool> find_ncu();

struct CounterMeasurement {
  std::vector<KernelCounters> kernels;
  std::string error;           // empty when measured
  bool stops_the_run = false;  // the tool or the machine failed, not this variant: skip the rest
  double seconds = 0;          // the child's wall time, ncu's passes included
};

// What the child runs: a variant, a --custom kernel, or the copy kernel.
struct CounterChild {
  std::string target;  // a variant's or custom kernel's name, or "copy"
  Problem problem;
  uint64_t seed = 0;
  std::string custom;  // a custom kernel's `NAME=PATH`, handed on as --custom; else empty
};

// The child's command line after `attnprof bench` (also what bench_command parses back).
std::vector<std::string> child_arguments(const CounterChild& child);

// Runs ncu over the child, exports its report into `scratch`, imports it as CSV, gzipped into
// `csv_path` (kept: the raw numbers behind the table, a few KB each), and reads it. ncu keeps the
// clocks as it finds them
// (--clock-control none) and flushes the caches before each kernel (its default), so each
// kernel's DRAM bytes are those of a cold L2, as the study's rotating inputs make them.
CounterMeasurement measure_counters(const NcuTool& ncu, const CounterChild& child,
                                    const std::filesystem::path& csv_path,
                                    const std::filesystem::path& scratch);

// What ncu's log says went wrong, as one line, and whether it is the machine's (permissions, an
// unsupported GPU, a profiler that cannot start) rather than the profiled program's. Exposed for
// its tests.
struct NcuFailure {
  std::string reason;
  bool machine = false;
};
NcuFailure explain_ncu_log(const std::string& log, int exit_code);

}  // namespace attnprof::bench
