#pragma once
// A collective kernel's sizes, as its args give them (reader/kineto_format.h), kept as one text
// in the trace's strings so that a GPU activity holds them in the bytes its layout leaves free
// (GpuActivity::collective()). Collectives repeat a few sizes, so each distinct text is kept once.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace attnprof {

struct CollectiveFields {
  std::string_view name;           // "Collective name": "allreduce", "send"; empty when absent
  std::string_view dtype;          // "BFloat16", "Float"; empty when absent
  std::string_view process_group;  // "Process Group Name"; empty when absent
  int64_t in_nelems = -1;          // -1 where absent
  int64_t out_nelems = -1;
  int64_t group_size = -1;
};

// Writes the joined text of `fields` into `out` (cleared first).
void join_collective_fields(const CollectiveFields& fields, std::string& out);

// The fields of a text join_collective_fields made; none for any other text.
std::optional<CollectiveFields> split_collective_fields(std::string_view text);

}  // namespace attnprof
