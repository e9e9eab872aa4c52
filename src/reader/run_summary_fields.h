#pragma once
// summary.json's fields, declared once (docs/json-schema.md, "summary.json"): each key with its
// JSON type, its unit, whether every bench of schemaVersion 2 writes it, and the member of the run
// model (reader/run_summary.h) it fills. The reader (reader/run_summary.cpp) reads through these
// tables and the writer (render/run_summary_json.h, which the bench calls) writes through them, so
// that the two sides of the file cannot drift apart, as Tracy's Worker reads and writes its own
// file. A field is added here, once.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "reader/run_summary.h"

namespace attnprof {

enum class SummaryType : uint8_t { kInteger, kText, kBoolean };
enum class SummaryUnit : uint8_t { kNone, kCount, kBytes };

template <typename Owner>
struct SummaryField {
  std::string_view key;
  SummaryType type;
  SummaryUnit unit;
  // Written by every bench of schemaVersion 2. A field that is not was added later: files written
  // before lack it, and the reader gives it its fallback (kv_heads: the heads, ...).
  bool required;
  // An empty text is written as null (compute_capability on the CPU).
  bool empty_is_null;
  int64_t Owner::*integer;
  std::string Owner::*text;
  bool Owner::*boolean;
};

template <typename Owner>
constexpr SummaryField<Owner> integer_field(std::string_view key, int64_t Owner::*member,
                                            SummaryUnit unit, bool required = true) {
  return {key, SummaryType::kInteger, unit, required, false, member, nullptr, nullptr};
}
template <typename Owner>
constexpr SummaryField<Owner> text_field(std::string_view key, std::string Owner::*member,
                                         bool empty_is_null = false) {
  return {key,    SummaryType::kText, SummaryUnit::kNone, true, empty_is_null, nullptr, member,
          nullptr};
}
template <typename Owner>
constexpr SummaryField<Owner> boolean_field(std::string_view key, bool Owner::*member) {
  return {key, SummaryType::kBoolean, SummaryUnit::kNone, true, false, nullptr, nullptr, member};
}

// A point's `problem`, in the order the file has them.
inline constexpr std::array<SummaryField<RunProblem>, 11> kProblemFields = {{
    integer_field("batch", &RunProblem::batch, SummaryUnit::kCount),
    integer_field("heads", &RunProblem::heads, SummaryUnit::kCount),
    // Grouped-query attention, a decode step and the sliding window came after the first files:
    // absent, kv_heads is the heads, q_seq the seq, and window 0 (none).
    integer_field("kv_heads", &RunProblem::kv_heads, SummaryUnit::kCount, false),
    integer_field("q_seq", &RunProblem::q_seq, SummaryUnit::kCount, false),
    integer_field("seq", &RunProblem::seq, SummaryUnit::kCount),
    integer_field("head_dim", &RunProblem::head_dim, SummaryUnit::kCount),
    integer_field("window", &RunProblem::window, SummaryUnit::kCount, false),
    text_field("dtype", &RunProblem::dtype),
    text_field("mask", &RunProblem::mask),
    boolean_field("backward", &RunProblem::backward),
    text_field("device", &RunProblem::device),
}};

// The run's `environment`: what the bench ran on.
inline constexpr std::array<SummaryField<RunSummary>, 9> kEnvironmentFields = {{
    text_field("device", &RunSummary::device),
    integer_field("sm_count", &RunSummary::sm_count, SummaryUnit::kCount),
    text_field("compute_capability", &RunSummary::compute_capability, true),
    integer_field("l2_bytes", &RunSummary::l2_bytes, SummaryUnit::kBytes),
    integer_field("memory_bytes", &RunSummary::memory_bytes, SummaryUnit::kBytes),
    boolean_field("tf32_matmul", &RunSummary::tf32_matmul),
    text_field("torch", &RunSummary::torch),
    text_field("cuda_runtime", &RunSummary::cuda_runtime),
    text_field("cudnn", &RunSummary::cudnn),
}};

}  // namespace attnprof
