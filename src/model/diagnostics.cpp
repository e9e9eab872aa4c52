#include "attnprof/diagnostics.h"

#include <numeric>

namespace attnprof {

std::string_view diagnostic_name(DiagnosticKind kind) {
  switch (kind) {
    case DiagnosticKind::kUnknownCategory:
      return "unknown category";
    case DiagnosticKind::kUnknownPhase:
      return "unknown phase";
    case DiagnosticKind::kMissingField:
      return "missing field";
    case DiagnosticKind::kMistypedField:
      return "mistyped field";
    case DiagnosticKind::kNegativeDuration:
      return "negative duration";
    case DiagnosticKind::kFlowWithoutPartner:
      return "flow without partner";
    case DiagnosticKind::kLaunchWithoutActivity:
      return "launch without GPU activity";
    case DiagnosticKind::kActivityWithoutLaunch:
      return "GPU activity without launch";
    case DiagnosticKind::kDuplicateCorrelation:
      return "duplicate correlation id";
    case DiagnosticKind::kGpuBeforeLaunch:
      return "GPU activity before its launch";
    case DiagnosticKind::kExternalIdIsCorrelation:
      return "External id is a correlation id";
    case DiagnosticKind::kSeveralProcesses:
      return "regions of several processes";
    case DiagnosticKind::kScopesAsOps:
      return "scopes written as ops";
    case DiagnosticKind::kCount:
      break;
  }
  return "diagnostic";
}

void Diagnostics::add(DiagnosticKind kind, uint64_t byte_offset, std::string detail) {
  auto& count = counts_[static_cast<size_t>(kind)];
  if (count++ < kKeptPerKind) first_.push_back({kind, byte_offset, std::move(detail)});
}

void Diagnostics::add_many(DiagnosticKind kind, uint64_t count, uint64_t byte_offset,
                           std::string detail) {
  if (count == 0) return;
  auto& n = counts_[static_cast<size_t>(kind)];
  if (n < kKeptPerKind) first_.push_back({kind, byte_offset, std::move(detail)});
  n += count;
}

uint64_t Diagnostics::total() const {
  return std::accumulate(counts_.begin(), counts_.end(), uint64_t{0});
}

}  // namespace attnprof
