#include "analysis/top_tables.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>

#include "analysis/attention/attention_calls.h"
#include "analysis/duration_sum.h"
#include "analysis/gpu_datasheet.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/op_arguments.h"
#include "model/op_input_text.h"

namespace attnprof {

std::string_view module_class_name(std::string_view instance) {
  const size_t underscore = instance.rfind('_');
  if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == instance.size())
    return instance;
  if (instance.find_first_not_of("0123456789", underscore + 1) != std::string_view::npos)
    return instance;
  return instance.substr(0, underscore);
}

namespace {

// Up the parents from `e` (exclusive) to the first event that `wanted` accepts; -1 for none.
// Used only where a parent comes after its child in the table (events of equal start and
// duration), which the one pass in table order cannot answer from the parent.
template <typename Wanted>
int32_t walk_up(const Trace& trace, size_t e, Wanted&& wanted) {
  for (HostEventId p = trace.host_parent[e]; p != kNoId; p = trace.host_parent[p])
    if (wanted(p.index())) return p.value();
  return -1;
}

template <typename Row>
void sort_rows(std::vector<Row>& rows, int64_t Row::*time) {
  std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
    return std::tie(b.*time, a.name) < std::tie(a.*time, b.name);
  });
}

// Where the rate would pass the roof: the count, not the GPU, is wrong, and the row says how.
std::string above_roof_note(bool memory_bound, double pct) {
  return memory_bound
             ? fmt::format(
                   "estimate above the roof ({:.0f} %): the bytes counted (each input read once, "
                   "each output written once) are more than the kernels moved from memory; "
                   "they read part of them from cache or not at all",
                   pct)
             : fmt::format(
                   "estimate above the roof ({:.0f} %): the FLOPs counted are more than the "
                   "kernels computed; they skipped work the count includes (masked or zero "
                   "blocks) or ran in a lower precision than the operands' type",
                   pct);
}

}  // namespace

TopTablesMaker::TopTablesMaker(const Trace& trace, const RegionSet& set,
                               const RegionMembers& members, bool ops_by_shape)
    : trace_(trace), set_(set), members_(members), ops_by_shape_(ops_by_shape) {
  regions_of_set_.assign(members.sets.size(), 0);
  for (uint32_t held : members.set_of) ++regions_of_set_[held];
  const auto& host = trace.host_events;
  const size_t n = host.size();
  module_name_.assign(trace.strings.size(), false);
  std::vector<bool> name_checked(trace.strings.size(), false);
  std::vector<bool> region_op(set.from_ops ? n : 0, false);
  for (const Region& r : set.regions)
    if (r.op != kNoId) region_op[r.op.index()] = true;

  auto counts_as_op = [&](size_t e) {
    return host[e].kind == HostKind::kCpuOp && (region_op.empty() || !region_op[e]);
  };
  auto is_module = [&](size_t e) {
    const HostEvent& h = host[e];
    if (h.kind != HostKind::kPythonFunction) return false;
    if (!name_checked[h.name]) {
      name_checked[h.name] = true;
      module_name_[h.name] = trace.strings.view(h.name).starts_with(kModulePrefix);
    }
    return static_cast<bool>(module_name_[h.name]);
  };

  // One pass in table order: a parent precedes its children there (sorted by thread, then start,
  // the longer first), so each event's facts follow from its parent's.
  op_parent_.assign(n, kIsNotOp);
  module_parent_.assign(n, -1);
  std::vector<int32_t> nearest_op(n, -1);  // at or above, for the children's sake
  std::vector<int32_t> top_op(n, -1);      // per op: its top-level op
  for (size_t e = 0; e < n; ++e) {
    const HostEventId parent = trace.host_parent[e];
    int32_t op_above = -1, module_above = -1;
    if (parent != kNoId && parent.index() < e) {
      op_above = nearest_op[parent.index()];
      module_above = is_module(parent.index()) ? parent.value() : module_parent_[parent.index()];
    } else if (parent != kNoId) {
      op_above = walk_up(trace, e, counts_as_op);
      module_above = walk_up(trace, e, is_module);
    }
    module_parent_[e] = module_above;
    const bool op = counts_as_op(e);
    nearest_op[e] = op ? static_cast<int32_t>(e) : op_above;
    if (!op) continue;
    op_parent_[e] = op_above;
    if (op_above < 0)
      top_op[e] = static_cast<int32_t>(e);
    else if (static_cast<size_t>(op_above) < e)
      top_op[e] = top_op[op_above];
    else
      for (int32_t p = op_above; p >= 0; p = op_parent_[p] >= 0 ? op_parent_[p] : -1)
        top_op[e] = p;  // rare: walked up to the outermost op
  }
  nearest_op = {};

  // The ops grouped by their top-level op, in table order within each group.
  ops_under_start_.assign(n + 1, 0);
  for (size_t e = 0; e < n; ++e)
    if (top_op[e] >= 0) ++ops_under_start_[top_op[e] + 1];
  for (size_t e = 0; e < n; ++e) ops_under_start_[e + 1] += ops_under_start_[e];
  ops_under_.resize(ops_under_start_[n]);
  // Each group's start serves as its cursor, which leaves it at the group's end, the next
  // group's start: moved back by one place, the starts are whole again (no copy of them).
  for (size_t e = 0; e < n; ++e)
    if (top_op[e] >= 0) ops_under_[ops_under_start_[top_op[e]]++] = static_cast<int32_t>(e);
  for (size_t e = n; e > 0; --e) ops_under_start_[e] = ops_under_start_[e - 1];
  ops_under_start_[0] = 0;

  for (size_t e = 0; e < n; ++e)
    if (is_module(e)) modules_.push_back(static_cast<int32_t>(e));
  std::sort(modules_.begin(), modules_.end(), [&](int32_t a, int32_t b) {
    return std::tuple(host[a].pid, host[a].start_ns, a) <
           std::tuple(host[b].pid, host[b].start_ns, b);
  });
  if (!modules_.empty()) module_nesting();
}

void TopTablesMaker::module_nesting() {
  const auto& host = trace_.host_events;
  const size_t n = host.size();
  auto class_of = [&](int32_t m) {
    return module_class_name(trace_.strings.view(host[m].name).substr(kModulePrefix.size()));
  };
  // Depths: each call's from its parent's, every call walked up to the first known one once.
  module_depth_.assign(n, -1);
  std::vector<int32_t> pending;
  for (int32_t m : modules_) {
    int32_t p = m;
    for (; p >= 0 && module_depth_[p] < 0; p = module_parent_[p]) pending.push_back(p);
    int32_t depth = p >= 0 ? module_depth_[p] : -1;
    for (; !pending.empty(); pending.pop_back()) module_depth_[pending.back()] = ++depth;
  }
  // A class above: a walk down the calls' tree, counting the classes on the path.
  std::vector<int32_t> position(n, -1);
  for (size_t i = 0; i < modules_.size(); ++i) position[modules_[i]] = static_cast<int32_t>(i);
  std::vector<int32_t> first_child(modules_.size() + 1, 0), children(modules_.size());
  std::vector<int32_t> roots;
  for (int32_t m : modules_) {
    if (module_parent_[m] >= 0)
      ++first_child[position[module_parent_[m]] + 1];
    else
      roots.push_back(m);
  }
  for (size_t i = 0; i < modules_.size(); ++i) first_child[i + 1] += first_child[i];
  std::vector<int32_t> cursor(first_child.begin(), first_child.end() - 1);
  for (int32_t m : modules_)
    if (module_parent_[m] >= 0) children[cursor[position[module_parent_[m]]]++] = m;
  same_class_above_.assign(n, false);
  std::unordered_map<std::string_view, int32_t> on_path;
  std::vector<std::pair<int32_t, int32_t>> stack;  // a call, its next child
  auto enter = [&](int32_t m) {
    same_class_above_[m] = on_path[class_of(m)]++ > 0;
    stack.emplace_back(m, first_child[position[m]]);
  };
  for (int32_t root : roots) {
    enter(root);
    while (!stack.empty()) {
      const auto [m, next] = stack.back();
      if (next < first_child[position[m] + 1]) {
        ++stack.back().second;
        enter(children[next]);
      } else {
        --on_path[class_of(m)];
        stack.pop_back();
      }
    }
  }
}

RegionTables TopTablesMaker::tables(size_t r) {
  // Regions that share their members (regions.h) and start the same module calls have the same
  // tables: N fully overlapping steps make them once, not N times.
  const Region& region = set_.regions[r];
  const uint32_t held = members_.set_of[r];
  std::tuple<uint32_t, size_t, size_t> key;
  const bool shared = !region.any_process && regions_of_set_[held] > 1;
  if (shared) {
    const auto [first, last] = module_calls_of(region);
    key = {held, static_cast<size_t>(first - modules_.begin()),
           static_cast<size_t>(last - modules_.begin())};
    if (auto it = made_.find(key); it != made_.end()) return it->second;
  }
  RegionTables out;
  kernels_of(r, out);
  ops_of(r, out);
  modules_of(r, out);
  if (shared) made_.emplace(key, out);
  return out;
}

std::pair<std::vector<int32_t>::const_iterator, std::vector<int32_t>::const_iterator>
TopTablesMaker::module_calls_of(const Region& region) const {
  if (region.any_process) return {modules_.begin(), modules_.end()};
  const auto& host = trace_.host_events;
  auto by_start = [&](int64_t t) {
    return std::lower_bound(modules_.begin(), modules_.end(), std::tuple(region.pid, t),
                            [&](int32_t m, const auto& key) {
                              return std::tuple(host[m].pid, host[m].start_ns) < key;
                            });
  };
  const auto first = by_start(region.start_ns);
  return {first, std::max(first, by_start(region.end_ns))};
}

void TopTablesMaker::kernels_of(size_t r, RegionTables& out) {
  std::unordered_map<StringId, size_t> row_of;
  std::array<KernelClassTotal, kKernelClassCount> classes{};
  for (GpuActivityId id : members_.activities(r)) {
    const GpuActivity& a = trace_.gpu_activities[id];
    auto [it, fresh] = row_of.try_emplace(a.name, out.kernels.size());
    if (fresh) {
      auto [known, first] = kernel_names_.try_emplace(a.name);
      std::string_view full = trace_.strings.view(a.name);
      if (first) {
        KernelName& k = known->second;
        k.short_name = a.kind == GpuKind::kKernel ? short_kernel_name(full)
                                                  : std::string(full.substr(0, full.find(" (")));
        k.kernel_class = a.kind == GpuKind::kMemcpy   ? KernelClass::kCopy
                         : a.kind == GpuKind::kMemset ? KernelClass::kMemset
                                                      : classify_kernel(k.short_name, full);
      }
      KernelTotal row;
      row.name = std::string(full);
      row.short_name = known->second.short_name;
      row.kernel_class = known->second.kernel_class;
      row.min_ns = a.dur_ns;
      row.max_ns = a.dur_ns;
      out.kernels.push_back(std::move(row));
    }
    KernelTotal& row = out.kernels[it->second];
    ++row.count;
    add_duration(row.total_ns, a.dur_ns);
    row.min_ns = std::min(row.min_ns, a.dur_ns);
    row.max_ns = std::max(row.max_ns, a.dur_ns);
  }
  for (const KernelTotal& k : out.kernels) {
    KernelClassTotal& c = classes[static_cast<size_t>(k.kernel_class)];
    c.kernel_class = k.kernel_class;
    c.count += k.count;
    add_duration(c.total_ns, k.total_ns);
  }
  sort_rows(out.kernels, &KernelTotal::total_ns);
  for (KernelClass c : kAllKernelClasses)
    if (classes[static_cast<size_t>(c)].count > 0)
      out.kernel_classes.push_back(classes[static_cast<size_t>(c)]);
  std::stable_sort(
      out.kernel_classes.begin(), out.kernel_classes.end(),
      [](const KernelClassTotal& a, const KernelClassTotal& b) { return a.total_ns > b.total_ns; });
}

uint32_t TopTablesMaker::precision_tag(size_t e) {
  const std::optional<OpCost>& cost = cost_of(e);
  if (!cost || cost->family == OpFamily::kMemory) return 0;
  const std::optional<PeakPrecision> precision = peak_precision(cost->dtype);
  return precision ? 1 + static_cast<uint32_t>(*precision) : 0;
}

uint32_t TopTablesMaker::dims_row_id(const HostEvent& op) {
  const StringId inputs = op.inputs();
  if (inputs == StringPool::kEmpty) return 0;
  const auto fields = split_op_input_fields(trace_.op_input_texts.view(inputs));
  if (!fields || fields->dims.empty()) return 0;
  auto [it, fresh] = dims_ids_.try_emplace(fields->dims, dims_texts_.size() + 1);
  if (fresh) dims_texts_.push_back(fields->dims);
  return it->second;
}

const std::string& TopTablesMaker::roof_text(const GpuDatasheet& sheet,
                                             std::optional<PeakPrecision> precision) {
  const int key = precision ? static_cast<int>(*precision) : -1;
  auto [it, fresh] = roof_texts_.try_emplace({&sheet, key});
  if (fresh) {
    it->second = precision ? fmt::format("{} dense {:g} TFLOP/s", precision_name(*precision),
                                         sheet.tflops(*precision))
                           : fmt::format("memory {:.0f} GB/s", sheet.memory_gb_per_s);
  }
  return it->second;
}

const std::optional<OpCost>& TopTablesMaker::cost_of(size_t e) {
  static const std::optional<OpCost> kNone;
  const HostEvent& op = trace_.host_events[HostEventId(e)];
  if (op.inputs() == StringPool::kEmpty) return kNone;
  const StringId name = op.name;
  const uint64_t key = uint64_t{name} << 32 | op.inputs();
  auto [it, fresh] = costs_.try_emplace(key);
  if (fresh) {
    if (auto args = op_arguments_of_text(trace_.op_input_texts.view(op.inputs())))
      it->second = op_cost(trace_.strings.view(name), *args);
  }
  return it->second;
}

void TopTablesMaker::ops_of(size_t r, RegionTables& out) {
  const auto& host = trace_.host_events;
  std::unordered_map<uint64_t, size_t> row_of;
  auto row = [&](size_t e) -> OpTotal& {
    const uint64_t key = op_row_key(e);
    auto [it, fresh] = row_of.try_emplace(key, out.ops.size());
    if (fresh) {
      out.ops.push_back(OpTotal{std::string(trace_.strings.view(host[HostEventId(e)].name))});
      if (const uint32_t dims = static_cast<uint32_t>(key) & kDimsMask)
        out.ops.back().input_shapes = dims_texts_[dims - 1];
    }
    return out.ops[it->second];
  };
  for (HostEventId top : members_.top_level_ops(r)) {
    for (int32_t i = ops_under_start_[top.index()]; i < ops_under_start_[top.index() + 1]; ++i) {
      const size_t e = static_cast<size_t>(ops_under_[i]);
      OpTotal& self = row(e);
      ++self.calls;
      add_duration(self.cpu_ns, host[e].dur_ns);
      add_duration(self.self_cpu_ns, host[e].dur_ns);
      const int32_t parent = op_parent_[ops_under_[i]];
      if (parent >= 0) add_duration(row(static_cast<size_t>(parent)).self_cpu_ns, -host[e].dur_ns);
    }
  }
  std::vector<OpLaunch> launches;  // per activity with an op
  // (op, graph launch): each CUDA graph replay of a captured op, and of every op above it.
  std::vector<std::pair<int32_t, int32_t>> replayed;
  // An activity's time counts once in each row its op chain passes through. As for modules
  // (modules_of), it is kept at its innermost op and summed up the tree of the ops above the
  // region's activities, and a row takes the sum at its outermost op on each path: a walk of
  // each activity's chain cost activities x depth (N nested ops each launching a kernel: N x N).
  struct Call {
    int32_t parent = -1;
    int64_t gpu_ns = 0;
    int32_t first_child = -1, next_sibling = -1;
  };
  std::vector<Call> calls;
  std::unordered_map<int32_t, int32_t> call_of;  // op event -> index into calls
  for (GpuActivityId id : members_.activities(r)) {
    HostEventId op = trace_.activity_op[id];
    if (op == kNoId) continue;
    int32_t at = is_op(op.index()) ? op.value() : op_parent_[op.index()];
    if (at == kIsNotOp) at = -1;
    if (at < 0) continue;
    const int64_t dur = trace_.gpu_activities[id].dur_ns;
    const Attribution how = trace_.activity_attribution[id];
    const int32_t replay = how == Attribution::kCaptureOrder || how == Attribution::kSignature
                               ? trace_.activity_launch[id].value()
                               : -1;
    add_duration(row(static_cast<size_t>(at)).self_gpu_ns, dur);
    launches.push_back({at, replay, dur});
    if (replay >= 0)
      for (int32_t x = at; x >= 0; x = op_parent_[x]) replayed.emplace_back(x, replay);
    const auto [it, fresh] = call_of.try_emplace(at, static_cast<int32_t>(calls.size()));
    const int32_t innermost = it->second;
    if (fresh) {
      calls.emplace_back();
      for (int32_t child = innermost, p = op_parent_[at]; p >= 0; p = op_parent_[p]) {
        auto [above, new_above] = call_of.try_emplace(p, static_cast<int32_t>(calls.size()));
        if (new_above) calls.emplace_back();
        calls[child].parent = above->second;
        if (!new_above) break;
        child = above->second;
      }
    }
    add_duration(calls[innermost].gpu_ns, dur);
  }
  std::vector<int32_t> op_at(calls.size());
  for (const auto& [e, i] : call_of) op_at[i] = e;
  std::vector<int32_t> roots;
  for (size_t i = 0; i < calls.size(); ++i) {
    Call& c = calls[i];
    if (c.parent < 0) {
      roots.push_back(static_cast<int32_t>(i));
    } else {
      c.next_sibling = calls[c.parent].first_child;
      calls[c.parent].first_child = static_cast<int32_t>(i);
    }
  }
  std::unordered_map<uint64_t, int32_t> keys_on_path;
  std::vector<std::pair<int32_t, int32_t>> stack;  // a call, its next child to enter
  for (int32_t root : roots) {
    stack.emplace_back(root, calls[root].first_child);
    ++keys_on_path[op_row_key(static_cast<size_t>(op_at[root]))];
    while (!stack.empty()) {
      const auto [i, next] = stack.back();
      if (next >= 0) {
        stack.back().second = calls[next].next_sibling;
        stack.emplace_back(next, calls[next].first_child);
        ++keys_on_path[op_row_key(static_cast<size_t>(op_at[next]))];
        continue;
      }
      stack.pop_back();
      const size_t e = static_cast<size_t>(op_at[i]);
      const Call& c = calls[i];
      if (--keys_on_path[op_row_key(e)] == 0) add_duration(row(e).gpu_ns, c.gpu_ns);
      if (c.parent >= 0) add_duration(calls[c.parent].gpu_ns, c.gpu_ns);
    }
  }
  count_replays(r, replayed, row);
  op_costs_of(r, launches, row_of, out);
  // By CPU time, then GPU time: a region of graph replays runs its ops' work with no CPU call
  // of theirs, and its rows are ordered by the work they replayed.
  std::sort(out.ops.begin(), out.ops.end(), [](const OpTotal& a, const OpTotal& b) {
    return std::tie(b.cpu_ns, b.gpu_ns, a.name) < std::tie(a.cpu_ns, a.gpu_ns, b.name);
  });
}

// Each replay of a captured op is an execution of it: a call of its row, unless the region made
// the op's call itself (it captured the graph: the call and its replays are one op's work).
template <typename RowOf>
void TopTablesMaker::count_replays(size_t r, std::vector<std::pair<int32_t, int32_t>>& replayed,
                                   RowOf&& row) {
  if (replayed.empty()) return;
  std::sort(replayed.begin(), replayed.end());
  replayed.erase(std::unique(replayed.begin(), replayed.end()), replayed.end());
  const std::vector<HostEventId>& tops = members_.top_level_ops(r);
  for (const auto& [op, launch] : replayed) {
    int32_t top = op;
    while (op_parent_[top] >= 0) top = op_parent_[top];
    if (!std::binary_search(tops.begin(), tops.end(), HostEventId(static_cast<size_t>(top))))
      ++row(static_cast<size_t>(op)).calls;
  }
}

// The cost of each call that launched GPU work, once per call however many kernels it launched,
// on its own row; then each row's rate against the peak of its operands' type.
void TopTablesMaker::op_costs_of(size_t r, std::vector<OpLaunch>& launches,
                                 const std::unordered_map<uint64_t, size_t>& row_of,
                                 RegionTables& out) {
  if (trace_.op_input_texts.size() <= 1 || launches.empty()) return;
  std::sort(launches.begin(), launches.end(), [](const OpLaunch& a, const OpLaunch& b) {
    return std::tie(a.op, a.replay) < std::tie(b.op, b.replay);
  });
  std::vector<std::optional<PeakPrecision>> precision(out.ops.size());
  // One execution a call, or a call's replay: its cost counts once per execution.
  for (size_t i = 0; i < launches.size();) {
    const int32_t call = launches[i].op, replay = launches[i].replay;
    int64_t gpu_ns = 0;
    for (; i < launches.size() && launches[i].op == call && launches[i].replay == replay; ++i)
      add_duration(gpu_ns, launches[i].gpu_ns);
    const std::optional<OpCost>& cost = cost_of(static_cast<size_t>(call));
    if (!cost) continue;
    const size_t index = row_of.at(op_row_key(static_cast<size_t>(call)));
    OpTotal& row = out.ops[index];
    row.flops = row.flops.value_or(0) + cost->flops;
    row.bytes = row.bytes.value_or(0) + cost->bytes;
    add_duration(row.costed_gpu_ns, gpu_ns);
    row.memory_bound = cost->family == OpFamily::kMemory;
    row.gemm = row.gemm || cost->family == OpFamily::kGemm;
    if (row.dtype.empty()) row.dtype = dtype_label(cost->dtype);
    if (!precision[index]) precision[index] = peak_precision(cost->dtype);
  }
  // The GPU of the region's work (the first activity's device; a region's work runs on one).
  const GpuActivity& first = trace_.gpu_activities[members_.activities(r).front()];
  const DeviceProperties* device = trace_.device(first.device);
  const GpuDatasheet* sheet = device ? find_gpu_datasheet(device->name) : nullptr;
  if (!device)
    out.no_roof_reason = "the trace's deviceProperties do not name its GPU";
  else if (!sheet)
    out.no_roof_reason = "attnprof has no datasheet for \"" + device->name + "\"";
  else
    out.roof_gpu = std::string(sheet->name);
  if (!sheet) return;
  for (size_t i = 0; i < out.ops.size(); ++i) {
    OpTotal& row = out.ops[i];
    const std::optional<double> rate = row.achieved_per_s();
    if (!rate) continue;
    if (row.memory_bound) {
      row.roof = roof_text(*sheet, std::nullopt);
      row.roof_pct = 100.0 * *rate / (sheet->memory_gb_per_s * 1e9);
    } else if (precision[i] && sheet->tflops(*precision[i]) > 0) {
      row.roof = roof_text(*sheet, precision[i]);
      row.roof_pct = 100.0 * *rate / (sheet->tflops(*precision[i]) * 1e12);
    }
    if (row.roof_pct && *row.roof_pct > 100.0) {
      row.roof_note = above_roof_note(row.memory_bound, *row.roof_pct);
      row.roof_pct.reset();
    }
  }
}

void TopTablesMaker::modules_of(size_t r, RegionTables& out) const {
  const auto& host = trace_.host_events;
  const Region& region = set_.regions[r];
  std::unordered_map<std::string_view, size_t> instance_of, class_of;
  auto instance_row = [&](int32_t m) -> ModuleTotal& {
    std::string_view name = trace_.strings.view(host[m].name).substr(kModulePrefix.size());
    auto [it, fresh] = instance_of.try_emplace(name, out.module_instances.size());
    if (fresh) out.module_instances.push_back(ModuleTotal{std::string(name), -1});
    return out.module_instances[it->second];
  };
  auto class_row = [&](int32_t m) -> ModuleTotal& {
    std::string_view name =
        module_class_name(trace_.strings.view(host[m].name).substr(kModulePrefix.size()));
    auto [it, fresh] = class_of.try_emplace(name, out.module_classes.size());
    if (fresh) out.module_classes.push_back(ModuleTotal{std::string(name), -1});
    return out.module_classes[it->second];
  };
  auto class_id = [&](int32_t m) {
    return module_class_name(trace_.strings.view(host[m].name).substr(kModulePrefix.size()));
  };
  // A module is the region's when its call starts inside the region's span, in its process.
  auto in_region = [&](int32_t m) {
    const HostEvent& e = host[m];
    return (region.any_process || e.pid == region.pid) && e.start_ns >= region.start_ns &&
           e.start_ns < region.end_ns;
  };

  // The region's module calls: those of its process (or of all) that start inside its span.
  auto by_start = [&](int32_t pid, int64_t t) {
    return std::lower_bound(modules_.begin(), modules_.end(), std::tuple(pid, t),
                            [&](int32_t m, const auto& key) {
                              return std::tuple(host[m].pid, host[m].start_ns) < key;
                            });
  };
  auto first = region.any_process ? modules_.begin() : by_start(region.pid, region.start_ns);
  for (auto it = first; it != modules_.end() && in_region(*it); ++it) {
    const int32_t m = *it;
    const int32_t depth = module_depth_[m];
    const bool same_class_above = same_class_above_[m];
    ModuleTotal& instance = instance_row(m);
    ++instance.calls;
    add_duration(instance.cpu_ns, host[m].dur_ns);
    if (instance.depth < 0 || depth < instance.depth) instance.depth = depth;
    ModuleTotal& cls = class_row(m);
    ++cls.calls;
    if (!same_class_above) add_duration(cls.cpu_ns, host[m].dur_ns);
    if (cls.depth < 0 || depth < cls.depth) cls.depth = depth;
  }
  if (out.module_instances.empty()) return;

  // Each activity counts once in each module (instance) and each class around its launch in the
  // region. The region's calls around a launch are the innermost ones of its chain (a call
  // starts before those inside it), so each activity's time is kept at its innermost call and
  // summed up the tree of the region's calls, and a name or class takes the sum of its
  // outermost call on each path: no activity walks its chain (N nested calls cost N x N).
  struct Call {
    int32_t parent = -1;  // in the region's tree, -1 for a root
    int64_t gpu_ns = 0, activities = 0;
    int32_t first_child = -1, next_sibling = -1;
  };
  std::vector<Call> calls;
  std::unordered_map<int32_t, int32_t> call_of;  // module event -> index into calls
  for (GpuActivityId id : members_.activities(r)) {
    const HostEventId launch = trace_.activity_launch[id];
    if (launch == kNoId) continue;
    int32_t m = module_parent_[launch.index()];
    if (m < 0 || !in_region(m)) continue;
    const auto [it, fresh] = call_of.try_emplace(m, static_cast<int32_t>(calls.size()));
    const int32_t innermost = it->second;
    if (fresh) {
      calls.emplace_back();
      // Its calls above, up to one already met or the region's edge.
      for (int32_t child = innermost, p = module_parent_[m]; p >= 0 && in_region(p);
           p = module_parent_[p]) {
        auto [above, new_above] = call_of.try_emplace(p, static_cast<int32_t>(calls.size()));
        if (new_above) calls.emplace_back();
        calls[child].parent = above->second;
        if (!new_above) break;
        child = above->second;
      }
    }
    Call& own = calls[innermost];
    add_duration(own.gpu_ns, trace_.gpu_activities[id].dur_ns);
    ++own.activities;
  }
  if (calls.empty()) {
    sort_rows(out.module_instances, &ModuleTotal::gpu_ns);
    sort_rows(out.module_classes, &ModuleTotal::gpu_ns);
    return;
  }
  std::vector<int32_t> module_at(calls.size());
  for (const auto& [m, i] : call_of) module_at[i] = m;
  std::vector<int32_t> roots;
  for (size_t i = 0; i < calls.size(); ++i) {
    Call& c = calls[i];
    if (c.parent < 0) {
      roots.push_back(static_cast<int32_t>(i));
    } else {
      c.next_sibling = calls[c.parent].first_child;
      calls[c.parent].first_child = static_cast<int32_t>(i);
    }
  }
  std::unordered_map<StringId, int32_t> names_on_path;
  std::unordered_map<std::string_view, int32_t> classes_on_path;
  std::vector<std::pair<int32_t, int32_t>> stack;  // a call, its next child to enter
  for (int32_t root : roots) {
    stack.emplace_back(root, calls[root].first_child);
    ++names_on_path[host[module_at[root]].name];
    ++classes_on_path[class_id(module_at[root])];
    while (!stack.empty()) {
      const auto [i, next] = stack.back();
      if (next >= 0) {
        stack.back().second = calls[next].next_sibling;
        stack.emplace_back(next, calls[next].first_child);
        ++names_on_path[host[module_at[next]].name];
        ++classes_on_path[class_id(module_at[next])];
        continue;
      }
      stack.pop_back();
      const int32_t m = module_at[i];
      const Call& c = calls[i];
      // Outermost of its name or class on the path: it alone counts the activities below it.
      if (--names_on_path[host[m].name] == 0) {
        ModuleTotal& instance = instance_row(m);
        add_duration(instance.gpu_ns, c.gpu_ns);
        instance.activities += c.activities;
      }
      if (--classes_on_path[class_id(m)] == 0) {
        ModuleTotal& row = class_row(m);
        add_duration(row.gpu_ns, c.gpu_ns);
        row.activities += c.activities;
      }
      if (c.parent >= 0) {
        add_duration(calls[c.parent].gpu_ns, c.gpu_ns);
        calls[c.parent].activities += c.activities;
      }
    }
  }
  sort_rows(out.module_instances, &ModuleTotal::gpu_ns);
  sort_rows(out.module_classes, &ModuleTotal::gpu_ns);
}

}  // namespace attnprof
