// A bench variant's trace read through the pipeline (pipeline/report_inputs.h, read_variant_trace,
// which bench/src/trace_facts.cpp calls): on the real H200 traces of the backward study
// (examples/h200-study/backward/traces), its forward and backward facts are `analyze --explain`'s
// for the same regions, read from the one trace once.

#include <gtest/gtest.h>

#include <string>

#include "attnprof/analysis.h"
#include "pipeline/report_inputs.h"

namespace attnprof {
namespace {

const std::string kBackwardTraces =
    std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/backward/traces/";

TraceAnalysis analyzed(const std::string& path, const std::string& region) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  Result<TraceAnalysis> analysis = analyze_file(path, options);
  EXPECT_TRUE(analysis.ok()) << analysis.error().message;
  return analysis.ok() ? std::move(*analysis) : TraceAnalysis{};
}

void expect_same_facts(const TraceAnalysis& got, const TraceAnalysis& want) {
  EXPECT_EQ(got.facts.regions, want.facts.regions);
  EXPECT_EQ(got.facts.kernels.median, want.facts.kernels.median);
  EXPECT_EQ(got.facts.memcpy.median, want.facts.memcpy.median);
  EXPECT_EQ(got.facts.gpu_busy_ns.median, want.facts.gpu_busy_ns.median);
  EXPECT_EQ(got.facts.cpu_ns.median, want.facts.cpu_ns.median);
  ASSERT_EQ(got.facts.main_kernel.has_value(), want.facts.main_kernel.has_value());
  if (got.facts.main_kernel) {
    EXPECT_EQ(got.facts.main_kernel->short_name, want.facts.main_kernel->short_name);
  }
  EXPECT_EQ(got.findings.size(), want.findings.size());
  EXPECT_EQ(got.diagnostics.total(), want.diagnostics.total());
}

TEST(VariantTrace, ForwardAndBackwardAreAnalyzesOwn) {
  for (const char* variant : {"naive", "sdpa-flash", "sdpa-math"}) {
    SCOPED_TRACE(variant);
    const std::string path = kBackwardTraces + variant + ".json.gz";
    Result<VariantTrace> read = read_variant_trace(path, "traces/kept.json.gz", true);
    ASSERT_TRUE(read.ok()) << read.error().message;
    ASSERT_TRUE(read->forward.analysis.has_value());
    EXPECT_EQ(read->forward.analysis->path, "traces/kept.json.gz");
    EXPECT_EQ(read->forward.trace_path, "traces/kept.json.gz");
    EXPECT_GT(read->forward.analysis->facts.regions, 0);
    expect_same_facts(*read->forward.analysis, analyzed(path, "forward"));
    EXPECT_TRUE(read->forward.timeline.has_value() || !read->forward.missing.empty());
    ASSERT_TRUE(read->backward.has_value()) << read->backward_error->message;
    EXPECT_FALSE(read->backward_error);
    EXPECT_GT(read->backward->facts.kernels.median, 0);
    expect_same_facts(*read->backward, analyzed(path, "backward"));
  }
}

// A forward-only trace has no backward: the error says so by its kind, and the forward stands.
TEST(VariantTrace, ATraceWithoutBackwardSaysWhy) {
  const std::string path =
      std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/traces/sdpa-flash.json.gz";
  Result<VariantTrace> read = read_variant_trace(path, path, true);
  ASSERT_TRUE(read.ok()) << read.error().message;
  EXPECT_FALSE(read->backward.has_value());
  ASSERT_TRUE(read->backward_error.has_value());
  EXPECT_EQ(read->backward_error->kind, ErrorKind::kUnmatched);
  EXPECT_NE(read->backward_error->message.find("backward"), std::string::npos);
  EXPECT_GT(read->forward.analysis->facts.regions, 0);

  Result<VariantTrace> without = read_variant_trace(path, path, false);
  ASSERT_TRUE(without.ok());
  EXPECT_FALSE(without->backward_error.has_value());
  EXPECT_FALSE(without->backward.has_value());
}

TEST(VariantTrace, AnUnreadableTraceFailsNamingIt) {
  const std::string path = std::string(ATTNPROF_SOURCE_DIR) + "/examples/no-such-trace.json.gz";
  Result<VariantTrace> read = read_variant_trace(path, path, false);
  ASSERT_FALSE(read.ok());
  EXPECT_NE(read.error().message.find(path), std::string::npos) << read.error().message;
  EXPECT_EQ(read.error().message.find('\n'), std::string::npos) << read.error().message;
}

}  // namespace
}  // namespace attnprof
