#pragma once
// A region's totals per kernel, per op and per nn.Module: the tables a user opens first (HTA's
// kernel breakdown, PyTorch's key_averages). Made by src/analysis/top_tables.cpp; the rules
// (what is counted where, and never twice) are in docs/top-tables.md.

#include <cstdint>
#include <optional>
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
//
// Costs (docs/OP_COSTS.md) sit on the calls that launched GPU work themselves (the innermost op
// of a kernel's launch): aten::linear's FLOPs are its aten::addmm's, never counted in both. None
// where no such call had recorded shapes (record_shapes=True) or the op is outside the cost model.
struct OpTotal {
  std::string name;
  // Its calls in the region, and each CUDA graph replay of a captured call (a replay runs the
  // captured op's work again, with no call of its own).
  int64_t calls = 0;
  int64_t cpu_ns = 0;
  int64_t self_cpu_ns = 0;
  int64_t gpu_ns = 0;
  int64_t self_gpu_ns = 0;
  // The inputs' sizes as the trace records them ("[[4096, 1024], [1024, 1024]]"), when the table
  // is grouped by input shape (key_averages(group_by_input_shape=True)); empty otherwise, and
  // for the calls whose shapes were not recorded.
  std::string input_shapes;
  std::optional<double> flops;  // summed over the costed calls
  std::optional<double> bytes;  // the fewest bytes those calls must move
  int64_t costed_gpu_ns = 0;    // the costed calls' own GPU time (self_gpu_ns of those calls)
  // Judged by bytes/s against the memory bandwidth (elementwise, reductions, copies) rather than
  // by FLOP/s against a compute peak (GEMMs, convolutions, attention).
  bool memory_bound = false;
  // A matrix product (mm, addmm, bmm, baddbmm, mv, _scaled_mm), and the element type of the costed
  // calls' operands ("bf16", "fp32", "fp8_e4m3fn"; the first seen), empty without a cost: what
  // precision the region's GEMMs ran in (diff says when two sides differ, workload_mismatch.h).
  bool gemm = false;
  std::string dtype;
  // The peak the op is held to ("bf16 dense 989.4 TFLOP/s", "HBM 4800 GB/s") and the share of it
  // reached: FLOP/s or bytes/s over costed_gpu_ns. None without a datasheet row for the GPU or a
  // peak for the operands' type.
  // Never above 100: where the estimate would be, roof_pct is none and `roof_note` says why
  // ("estimate above the roof: ...").
  std::string roof;
  std::optional<double> roof_pct;
  std::string roof_note;
  // flops (or bytes) per second over costed_gpu_ns; none without a cost or GPU time.
  std::optional<double> achieved_per_s() const {
    const std::optional<double>& work = memory_bound ? bytes : flops;
    if (!work || costed_gpu_ns <= 0) return std::nullopt;
    return *work / (static_cast<double>(costed_gpu_ns) * 1e-9);
  }
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
  // The datasheet row the ops' % of roof used ("H200"), or why there is none ("no datasheet for
  // the GPU \"NVIDIA GeForce RTX 4090\"", "the trace names no GPU"); one of the two is set when
  // some op has a cost.
  std::string roof_gpu;
  std::string no_roof_reason;
  std::vector<ModuleTotal> module_classes;
  std::vector<ModuleTotal> module_instances;
};

}  // namespace attnprof
