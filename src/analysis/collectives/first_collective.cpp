#include "analysis/collectives/first_collective.h"

#include "analysis/kernels/kernel_class.h"
#include "analysis/text_match.h"

namespace attnprof {

bool is_collective_op_name(std::string_view name) {
  return name == "record_param_comms" || name.starts_with("c10d::") || name.starts_with("nccl:") ||
         name.starts_with("gloo:");
}

FirstCollectives first_collectives(const Trace& trace) {
  FirstCollectives out;
  for (const GpuActivity& a : trace.gpu_activities) {
    if (a.kind != GpuKind::kKernel || (out.kernel && out.kernel->start_ns <= a.start_ns)) continue;
    const std::string_view name = trace.strings.view(a.name);
    if (is_communication_kernel(to_lower(name))) out.kernel = {a.start_ns, std::string(name)};
  }
  for (const HostEvent& e : trace.host_events) {
    if (e.kind != HostKind::kCpuOp || (out.op && out.op->start_ns <= e.start_ns)) continue;
    const std::string_view name = trace.strings.view(e.name);
    if (is_collective_op_name(name)) out.op = {e.start_ns, std::string(name)};
  }
  return out;
}

}  // namespace attnprof
