// The one table of diagnostic kinds (include/attnprof/diagnostic_table.h): complete, in the order
// of DiagnosticKind, and the names the outputs print unchanged.

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "attnprof/diagnostic_table.h"

namespace attnprof {
namespace {

TEST(DiagnosticTable, DescribesEveryKindOnceInOrder) {
  std::set<std::string_view> names;
  for (size_t k = 0; k < kDiagnosticKindCount; ++k) {
    const DiagnosticDescription& d = diagnostic_table()[k];
    EXPECT_EQ(static_cast<size_t>(d.kind), k);
    EXPECT_FALSE(d.name.empty()) << k;
    EXPECT_FALSE(d.description.empty()) << d.name;
    EXPECT_TRUE(names.insert(d.name).second) << "two kinds named " << d.name;
    EXPECT_EQ(diagnostic_name(d.kind), d.name);
    EXPECT_EQ(&describe(d.kind), &d);
  }
}

TEST(DiagnosticTable, NamesAreWhatTheOutputsPrint) {
  // The JSON output uses these as keys (docs/json-schema.md): renaming one is a schema change.
  EXPECT_EQ(diagnostic_name(DiagnosticKind::kUnknownCategory), "unknown category");
  EXPECT_EQ(diagnostic_name(DiagnosticKind::kDuplicateCorrelation), "duplicate correlation id");
  EXPECT_EQ(diagnostic_name(DiagnosticKind::kGpuBeforeLaunch), "GPU activity before its launch");
  EXPECT_EQ(diagnostic_name(DiagnosticKind::kScopesAsOps), "scopes written as ops");
}

// JSON's keys (warnings.by_kind, first[].kind) are the ids: snake_case, unique, stable.
TEST(DiagnosticTable, IdsAreSnakeCaseKeys) {
  std::set<std::string_view> ids;
  for (const DiagnosticDescription& d : diagnostic_table()) {
    EXPECT_TRUE(ids.insert(d.id).second) << "two kinds with id " << d.id;
    EXPECT_FALSE(d.id.empty()) << d.name;
    for (char c : d.id) EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '_') << d.id;
    EXPECT_EQ(diagnostic_id(d.kind), d.id);
  }
  EXPECT_EQ(diagnostic_id(DiagnosticKind::kUnknownCategory), "unknown_category");
  EXPECT_EQ(diagnostic_id(DiagnosticKind::kGpuBeforeLaunch), "gpu_before_launch");
}

TEST(DiagnosticTable, SeverityAndSource) {
  EXPECT_EQ(describe(DiagnosticKind::kNegativeDuration).severity, DiagnosticSeverity::kDataLoss);
  EXPECT_EQ(describe(DiagnosticKind::kGpuBeforeLaunch).severity, DiagnosticSeverity::kInfo);
  EXPECT_EQ(describe(DiagnosticKind::kSeveralProcesses).source, DiagnosticSource::kAnalysis);
  EXPECT_EQ(describe(DiagnosticKind::kMissingField).source, DiagnosticSource::kTrace);
  EXPECT_EQ(severity_name(DiagnosticSeverity::kDataLoss), "data loss");
  EXPECT_EQ(source_name(DiagnosticSource::kAnalysis), "analysis");
}

}  // namespace
}  // namespace attnprof
