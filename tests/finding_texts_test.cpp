// Every finding's words on every trace of tests/data, HTA's among them (tests/data/foreign): each
// has evidence, names what it blames, and prints no placeholder. A hidden copy in a region other
// than the typical one had printed "the op copies its input" and "use the in-place form (the
// op_)" with no evidence (tests/data/foreign/hta_nccl_rank0.json.gz,
// tests/data/odd/pytorch_2_1.json).

#include <filesystem>
#include <regex>

#include <gtest/gtest.h>

#include "attnprof/analysis.h"
#include "test_support.h"

namespace attnprof {
namespace {

std::vector<std::string> every_trace() {
  std::vector<std::string> paths;
  for (const auto& e : std::filesystem::recursive_directory_iterator(ATTNPROF_TEST_DATA)) {
    const std::string p = e.path().string();
    if (e.is_regular_file() && (p.ends_with(".json.gz") || p.ends_with(".json")))
      paths.push_back(p);
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

TEST(FindingTexts, EveryFindingOnEveryFixtureHasEvidenceAndNoPlaceholder) {
  // "the op" stands for an op not found; "{}" for an argument fmt did not fill; nan and inf for a
  // share of nothing; ": ," and "<- " at the end for an empty list or chain.
  const std::regex placeholder(R"(the op_|\bthe op\b|\{\}|\bnan\b|\binf\b|: ,|<- $|: $)");
  size_t traces = 0, findings = 0;
  for (const std::string& path : every_trace()) {
    AnalyzeOptions options;
    options.explain = true;
    auto r = analyze_file(path, options);
    if (!r.ok()) continue;  // the JSON fixtures that are not traces (step_times.json, ...)
    ++traces;
    for (const Finding& f : r.value().findings) {
      ++findings;
      SCOPED_TRACE(path + ": " + std::string(finding_id(f.kind)));
      EXPECT_FALSE(f.summary.empty());
      EXPECT_FALSE(f.evidence.empty()) << f.summary;
      EXPECT_GT(f.regions_affected, 0);
      for (const std::string& text : [&] {
             std::vector<std::string> all = f.evidence;
             all.push_back(f.summary);
             all.push_back(f.suggestion);
             return all;
           }())
        EXPECT_FALSE(std::regex_search(text, placeholder)) << text;
    }
  }
  // The fixtures hold some 60 traces and 180 findings: a reading that found none proves nothing.
  EXPECT_GE(traces, 50u);
  EXPECT_GE(findings, 150u);
}

TEST(FindingTexts, AHiddenCopyOutsideTheTypicalRegionIsShownFromItsOwnRegion) {
  AnalyzeOptions options;
  options.explain = true;
  auto r = analyze_file(testing::fixture("foreign/hta_nccl_rank0.json.gz"), options);
  ASSERT_TRUE(r.ok());
  const Finding* copy = nullptr;
  for (const Finding& f : r.value().findings)
    if (f.kind == FindingKind::kHiddenCopy) copy = &f;
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(copy->regions_affected, 1);
  EXPECT_TRUE(copy->summary.starts_with("aten::index_put copies its input")) << copy->summary;
  EXPECT_NE(copy->suggestion.find("(aten::index_put_)"), std::string::npos) << copy->suggestion;
  ASSERT_EQ(copy->evidence.size(), 2u);
  for (const std::string& e : copy->evidence)
    EXPECT_NE(e.find("aten::index_put -> aten::clone -> aten::copy_"), std::string::npos) << e;
}

}  // namespace
}  // namespace attnprof
