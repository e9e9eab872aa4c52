#pragma once
// Where a rank's first collective starts, to line ranks up on one clock (annotate's merged
// ranks, docs/CRITICAL_PATH.md "In Perfetto"): the first communication kernel (NCCL, RCCL, HCCL:
// kernel_class.h's rule), and the first collective op on the CPU (PyTorch's record_param_comms,
// the process group's c10d:: ops, and the nccl: and gloo: ops the backends record). Gloo's
// collectives run on the CPU and make no kernel, so a trace of them has the op only.

#include <cstdint>
#include <optional>
#include <string>

#include "model/trace.h"

namespace attnprof {

struct CollectiveStart {
  int64_t start_ns = 0;
  std::string name;
};

struct FirstCollectives {
  std::optional<CollectiveStart> kernel;
  std::optional<CollectiveStart> op;
};

FirstCollectives first_collectives(const Trace& trace);

// True for the name of a CPU op that runs a collective (above).
bool is_collective_op_name(std::string_view name);

}  // namespace attnprof
