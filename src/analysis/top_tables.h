#pragma once
// The top tables of each region (include/attnprof/top_tables.h): kernels, ops and nn.Modules.
// The facts of the trace's tree that every region reads (each op's nearest op above, each
// event's nearest module above) are worked out once, in one pass over the host events.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "analysis/gpu_datasheet.h"
#include "analysis/op_cost.h"
#include "analysis/regions/regions.h"
#include "attnprof/top_tables.h"
#include "model/trace.h"
#include "reader/kineto_format.h"

namespace attnprof {

// python_function events of nn.Modules (with_stack=True) are named "nn.Module: Linear_3".
inline constexpr std::string_view kModulePrefix = kineto::kModuleEventPrefix;

// "Linear_3" -> "Linear"; a name without a numbered suffix is its own class.
std::string_view module_class_name(std::string_view instance);

class TopTablesMaker {
 public:
  // `ops_by_shape`: one op row per name and input shapes, as key_averages(group_by_input_shape=
  // True) groups them.
  TopTablesMaker(const Trace& trace, const RegionSet& set, const RegionMembers& members,
                 bool ops_by_shape = false);
  // The tables of region `r` (an index into set.regions), complete and sorted.
  RegionTables tables(size_t r);

 private:
  bool is_op(size_t e) const { return op_parent_[e] != kIsNotOp; }
  void kernels_of(size_t r, RegionTables& out);
  void ops_of(size_t r, RegionTables& out);
  // An activity's innermost op, the CUDA graph launch that replayed it (-1: none) and its time.
  struct OpLaunch {
    int32_t op = -1, replay = -1;
    int64_t gpu_ns = 0;
  };
  template <typename RowOf>
  void count_replays(size_t r, std::vector<std::pair<int32_t, int32_t>>& replayed, RowOf&& row);
  void op_costs_of(size_t r, std::vector<OpLaunch>& launches,
                   const std::unordered_map<uint64_t, size_t>& row_of, RegionTables& out);
  // The row of event `e`: its name, the peak precision of a compute-bound op's operands (so that
  // a row has one roof: a name whose calls ran in bf16 and in fp32 is two rows), and with
  // ops_by_shape_ its "Input Dims" text too.
  uint64_t op_row_key(size_t e) {
    const HostEvent& op = trace_.host_events[HostEventId(e)];
    return uint64_t{op.name} << 32 | uint64_t{precision_tag(e)} << kPrecisionShift |
           (ops_by_shape_ ? dims_row_id(op) : 0);
  }
  static constexpr int kPrecisionShift = 28;
  static constexpr uint32_t kDimsMask = (1u << kPrecisionShift) - 1;
  // 1 + the PeakPrecision of a costed GEMM, convolution or attention op; 0 for any other op.
  uint32_t precision_tag(size_t e);
  uint32_t dims_row_id(const HostEvent& op);
  // "bf16 dense 989.4 TFLOP/s", "memory 4800 GB/s": the same few for every row of every region.
  const std::string& roof_text(const GpuDatasheet& sheet, std::optional<PeakPrecision> precision);
  const std::optional<OpCost>& cost_of(size_t e);
  void modules_of(size_t r, RegionTables& out) const;
  // Fills module_depth_ and same_class_above_.
  void module_nesting();
  // The module calls (modules_) of the region's process that start in its span.
  std::pair<std::vector<int32_t>::const_iterator, std::vector<int32_t>::const_iterator>
  module_calls_of(const Region& region) const;

  static constexpr int32_t kIsNotOp = -2;
  const Trace& trace_;
  const RegionSet& set_;
  const RegionMembers& members_;
  // Per host event: the nearest op strictly above it (-1 for none), or kIsNotOp for an event that
  // is no op (not a cpu_op, or a region that is an op).
  std::vector<int32_t> op_parent_;
  // Per host event: the nearest nn.Module event strictly above it, -1 for none.
  std::vector<int32_t> module_parent_;
  // The ops under each top-level op, grouped by it (offsets into ops_under_).
  std::vector<int32_t> ops_under_start_;  // per host event, into ops_under_; size events + 1
  std::vector<int32_t> ops_under_;
  // Per GPU activity name: its short name and class, made once for every region.
  struct KernelName {
    std::string short_name;
    KernelClass kernel_class;
  };
  std::unordered_map<StringId, KernelName> kernel_names_;
  bool ops_by_shape_ = false;
  // The cost of each (name, inputs text) met, and the id of each distinct "Input Dims" text.
  std::unordered_map<uint64_t, std::optional<OpCost>> costs_;
  std::unordered_map<std::string_view, uint32_t> dims_ids_;
  std::vector<std::string_view> dims_texts_;                               // by dims id - 1
  std::map<std::pair<const GpuDatasheet*, int>, std::string> roof_texts_;  // -1: memory
  // nn.Module events, sorted by (pid, start).
  std::vector<int32_t> modules_;
  // Per host event that is an nn.Module call (empty when the trace has none): the module calls
  // around it, and whether one of them is of its class. Made once in one walk, so that a
  // region's table walks no chain: a nest of N modules cost N x N steps.
  std::vector<int32_t> module_depth_;
  std::vector<bool> same_class_above_;
  // Per name id: is it an nn.Module event's name.
  std::vector<bool> module_name_;
  // Per member set: the regions that hold it; the tables of those held by several, by (member
  // set, module calls): regions that hold the same work share their tables.
  std::vector<uint32_t> regions_of_set_;
  std::map<std::tuple<uint32_t, size_t, size_t>, RegionTables> made_;
};

}  // namespace attnprof
