#pragma once
// A region's totals per kernel, per op and per nn.Module: the tables a user opens first (HTA's
// kernel breakdown, PyTorch's key_averages). Made by src/analysis/top_tables.cpp; the rules
// (what is counted where, and never twice) are in docs/top-tables.md.

#include <cstdint>
#include <string>
#include <vector>

#include "attnprof/region_facts.h"  // KernelClass

namespace attnprof {

// One kernel (or copy, or memset) of a region, grouped by its full name: two kernels that fold to
// one short name stay two rows.
struct KernelTotal {
  std::string name;        // as the trace gives it
  std::string short_name;  // as attnprof folds it (kernel_names.h)
  KernelClass kernel_class = KernelClass::kOther;
  int64_t count = 0;
  int64_t total_ns = 0;  // sum of durations
  int64_t min_ns = 0, max_ns = 0;
};

struct KernelClassTotal {
  KernelClass kernel_class = KernelClass::kOther;
  int64_t count = 0;
  int64_t total_ns = 0;
};

// One op name, as key_averages groups them. CPU times are sums over its calls; self leaves out
// the time of the ops directly under each call. GPU time is the work its calls launched: `self`
// the work whose innermost op it is, `total` also the work of the ops under it, each activity
// counted once per name however deep the name recurs.
struct OpTotal {
  std::string name;
  int64_t calls = 0;
  int64_t cpu_ns = 0;
  int64_t self_cpu_ns = 0;
  int64_t gpu_ns = 0;
  int64_t self_gpu_ns = 0;
};

// One nn.Module instance ("Linear_3", from python_function events "nn.Module: Linear_3") or
// class ("Linear"). GPU time is the work launched inside its calls on their thread: an activity
// counts in every module around its launch, once per row. A class's CPU time counts only its
// outermost calls (a Sequential inside a Sequential is not counted twice).
struct ModuleTotal {
  std::string name;
  int32_t depth = 0;  // modules around its first call (0: outermost)
  int64_t calls = 0;
  int64_t cpu_ns = 0;
  int64_t gpu_ns = 0;
  int64_t activities = 0;  // GPU activities launched inside it
};

// Each list sorted by time (GPU time for kernels and modules, CPU time for ops), longest first,
// then by name. Complete: outputs cut them to their top N.
struct RegionTables {
  std::vector<KernelTotal> kernels;
  std::vector<KernelClassTotal> kernel_classes;
  std::vector<OpTotal> ops;
  std::vector<ModuleTotal> module_classes;
  std::vector<ModuleTotal> module_instances;
};

}  // namespace attnprof
