#pragma once
// Every diagnostic kind described once, as Perfetto's stats table describes its stats: its name
// (what text and Markdown print), its snake_case id (JSON's keys and kinds), its severity, whether
// the trace or the analysis raises it, and what it means. diagnostic_name() and diagnostic_id()
// read this table.

#include <array>
#include <cstdint>
#include <string_view>

#include "attnprof/diagnostics.h"

namespace attnprof {

enum class DiagnosticSeverity : uint8_t {
  kInfo,      // an oddity the reader handled fully: no number is affected
  kDataLoss,  // something in the trace was dropped or could not be linked: counts may be short
  kError,     // the result should not be trusted
};

enum class DiagnosticSource : uint8_t {
  kTrace,     // raised while reading and linking the trace
  kAnalysis,  // raised while finding and summarizing regions
};

struct DiagnosticDescription {
  DiagnosticKind kind;
  std::string_view name;
  std::string_view id;
  DiagnosticSeverity severity;
  DiagnosticSource source;
  std::string_view description;
};

inline constexpr size_t kDiagnosticKindCount = static_cast<size_t>(DiagnosticKind::kCount);

// Indexed by DiagnosticKind.
const std::array<DiagnosticDescription, kDiagnosticKindCount>& diagnostic_table();
const DiagnosticDescription& describe(DiagnosticKind kind);
std::string_view severity_name(DiagnosticSeverity severity);  // "info", "data loss", "error"
std::string_view source_name(DiagnosticSource source);        // "trace", "analysis"

}  // namespace attnprof
