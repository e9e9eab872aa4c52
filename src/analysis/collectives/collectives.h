#pragma once
// The collectives of a set of GPU activities, by name, element type and group size, with the
// bandwidths nccl-tests reports (include/attnprof/collectives.h).

#include <string_view>
#include <vector>

#include "attnprof/collectives.h"
#include "model/collective_text.h"
#include "model/trace.h"

namespace attnprof {

class KernelShortNames;

// The collectives among `activities`: their communication kernels (class_of: per GPU activity, its
// KernelClass as uint8_t) and the kernels that carry a collective's sizes, in rows ordered by GPU
// time, largest first.
std::vector<CollectiveTotals> collective_totals(const Trace& trace,
                                                const std::vector<GpuActivityId>& activities,
                                                const std::vector<uint8_t>& class_of,
                                                KernelShortNames& kernel_names);

// nccl-tests' bus factor of a collective (its "Collective name" or its kernel's) over n ranks;
// -1 when n is unknown (below 1) and the factor depends on it.
double bus_factor(std::string_view collective, int64_t group_size);

// Bytes of one element of a collective's "dtype" (c10's names, "BFloat16"; and "float32",
// "bfloat16"); 0 for a name attnprof does not know.
int collective_element_bytes(std::string_view dtype);

// The collective a NCCL or RCCL kernel's name says: "AllReduce" of
// "ncclDevKernel_AllReduce_Sum_f32_RING_LL"; "" for another name.
std::string_view collective_of_kernel_name(std::string_view kernel);

// A collective kernel's name: its "Collective name" (`fields`), else the collective its kernel
// name says, else its short name.
std::string collective_name(const Trace& trace, const GpuActivity& kernel,
                            const CollectiveFields& fields, KernelShortNames& kernel_names);

// The link of the trace's first GPU that has a datasheet row with a link; empty when none.
GpuLink gpu_link(const Trace& trace);

}  // namespace attnprof
