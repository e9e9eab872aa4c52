#include "analysis/collectives/collectives.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <map>
#include <tuple>

#include "analysis/duration_sum.h"
#include "analysis/gpu_datasheet.h"
#include "analysis/kernels/kernel_names.h"
#include "attnprof/region_facts.h"
#include "model/collective_text.h"

namespace attnprof {

namespace {

constexpr int64_t kLargestMessageBytes = int64_t{1} << 50;

// Lower case, without underscores: "all_gather_into_tensor" and "AllGather" alike.
std::string folded(std::string_view name) {
  std::string out;
  for (char c : name)
    if (c != '_') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace

double bus_factor(std::string_view collective, int64_t group_size) {
  const std::string name = folded(collective);
  const double n = static_cast<double>(group_size);
  // Checked in this order: "reducescatter" also holds "reduce".
  if (name.find("allreduce") != std::string::npos) return group_size >= 1 ? 2 * (n - 1) / n : -1;
  if (name.find("reducescatter") != std::string::npos ||
      name.find("allgather") != std::string::npos || name.find("alltoall") != std::string::npos)
    return group_size >= 1 ? (n - 1) / n : -1;
  return 1;
}

int collective_element_bytes(std::string_view dtype) {
  static constexpr std::array<std::pair<std::string_view, int>, 32> kSizes{{
      {"Byte", 1},
      {"Char", 1},
      {"Bool", 1},
      {"QInt8", 1},
      {"QUInt8", 1},
      {"Float8_e5m2", 1},
      {"Float8_e4m3fn", 1},
      {"Float8_e5m2fnuz", 1},
      {"Float8_e4m3fnuz", 1},
      {"Float8_e8m0fnu", 1},
      {"Short", 2},
      {"Half", 2},
      {"BFloat16", 2},
      {"UInt16", 2},
      {"Int", 4},
      {"Float", 4},
      {"QInt32", 4},
      {"UInt32", 4},
      {"ComplexHalf", 4},
      {"Long", 8},
      {"Double", 8},
      {"UInt64", 8},
      {"ComplexFloat", 8},
      {"ComplexDouble", 16},
      {"float32", 4},
      {"float16", 2},
      {"bfloat16", 2},
      {"float64", 8},
      {"int8", 1},
      {"uint8", 1},
      {"int32", 4},
      {"int64", 8},
  }};
  for (const auto& [name, bytes] : kSizes)
    if (name == dtype) return bytes;
  return 0;
}

std::string_view collective_of_kernel_name(std::string_view kernel) {
  for (std::string_view prefix : {"ncclDevKernel_", "ncclKernel_"}) {
    if (!kernel.starts_with(prefix)) continue;
    kernel.remove_prefix(prefix.size());
    const size_t end = kernel.find_first_of("_(<");
    return kernel.substr(0, end);
  }
  return {};
}

std::string collective_name(const Trace& trace, const GpuActivity& kernel,
                            const CollectiveFields& fields, KernelShortNames& kernel_names) {
  std::string name(fields.name);
  if (name.empty()) name = collective_of_kernel_name(trace.strings.view(kernel.name));
  if (name.empty()) name = kernel_names.of(trace.strings, kernel.name);
  return name;
}

std::vector<CollectiveTotals> collective_totals(const Trace& trace,
                                                const std::vector<GpuActivityId>& activities,
                                                const std::vector<uint8_t>& class_of,
                                                KernelShortNames& kernel_names) {
  // Keyed by name, dtype and group size, in that order, for a stable order of equal times.
  std::map<std::tuple<std::string, std::string, int64_t>, CollectiveTotals> rows;
  for (GpuActivityId id : activities) {
    // A kernel that carries a collective's sizes is one, whatever its name: NCCL's one-rank
    // reduction (oneRankReduce) has no "nccl" in it.
    const GpuActivity& a = trace.gpu_activities[id];
    if (a.kind != GpuKind::kKernel ||
        (class_of[id.index()] != static_cast<uint8_t>(KernelClass::kCommunication) &&
         a.collective() == StringPool::kEmpty))
      continue;
    CollectiveFields f;
    if (a.collective() != StringPool::kEmpty)
      if (auto given = split_collective_fields(trace.strings.view(a.collective()))) f = *given;
    std::string name = collective_name(trace, a, f, kernel_names);
    auto [it, added] = rows.try_emplace({name, std::string(f.dtype), f.group_size});
    CollectiveTotals& row = it->second;
    if (added) {
      row.name = name;
      row.dtype = f.dtype;
      row.group_size = f.group_size;
      row.bus_factor = bus_factor(name, f.group_size);
    }
    ++row.count;
    row.starts_ns.push_back(a.start_ns);
    add_duration(row.gpu_ns, a.dur_ns);
    const int element = collective_element_bytes(f.dtype);
    const int64_t elements = std::max(f.in_nelems, f.out_nelems);
    // A message beyond a petabyte is a mistyped field, not a size.
    if (element > 0 && elements >= 0 && elements <= kLargestMessageBytes / element) {
      ++row.sized;
      add_duration(row.bytes, elements * element);  // saturating, as a duration's sum
      add_duration(row.sized_gpu_ns, a.dur_ns);
    }
  }
  std::vector<CollectiveTotals> out;
  for (auto& [key, row] : rows) {
    if (row.sized > 0 && row.sized_gpu_ns > 0)
      // A byte per ns is a GB/s of 1e9 bytes.
      row.algbw_gbps = static_cast<double>(row.bytes) / static_cast<double>(row.sized_gpu_ns);
    if (row.algbw_gbps >= 0 && row.bus_factor >= 0)
      row.busbw_gbps = row.algbw_gbps * row.bus_factor;
    out.push_back(std::move(row));
  }
  std::stable_sort(
      out.begin(), out.end(),
      [](const CollectiveTotals& a, const CollectiveTotals& b) { return a.gpu_ns > b.gpu_ns; });
  return out;
}

GpuLink gpu_link(const Trace& trace) {
  for (const DeviceProperties& d : trace.devices) {
    const GpuDatasheet* sheet = find_gpu_datasheet(d.name);
    if (sheet && sheet->link_gb_per_s > 0)
      return {std::string(sheet->link), sheet->link_gb_per_s / 2};
  }
  return {};
}

}  // namespace attnprof
