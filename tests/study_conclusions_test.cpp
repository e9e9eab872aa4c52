// What a study concludes from its problem and its run (study/analysis/report_conclusions.h): the
// masked-not-skipped finding, counted against a brute-force count of the bench's masks, and the
// projection of a `bench --from-trace` run.

#include <gtest/gtest.h>

#include <string>

#include "study/analysis/masked_pairs.h"
#include "study/analysis/report_conclusions.h"
#include "study/analysis/trace_projection.h"
#include "study/render/projection_words.h"
#include "study/run/run_summary.h"
#include "test_support.h"

namespace attnprof {
namespace {

// The bench's mask, pair by pair (bench/src/libtorch/inputs.cpp): query i sits at position
// i + seq - q_seq; it sees key j when j <= its position, and with a window W when also
// j > position - W.
double brute_visible_share(const RunProblem& p) {
  const int64_t q = p.q_seq ? p.q_seq : p.seq;
  double visible = 0;
  for (int64_t i = 0; i < q; ++i) {
    const int64_t at = i + p.seq - q;
    for (int64_t j = 0; j < p.seq; ++j) {
      bool sees = true;
      if (p.mask != RunMask::kNone) sees = j <= at;
      if (p.window > 0) sees = sees && j > at - p.window;
      visible += sees;
    }
  }
  return visible / (static_cast<double>(q) * static_cast<double>(p.seq));
}

RunProblem problem(int64_t seq, int64_t q_seq, int64_t window, const std::string& mask) {
  RunProblem p;
  p.batch = 1;
  p.heads = p.kv_heads = 2;
  p.seq = seq;
  p.q_seq = q_seq;
  p.window = window;
  p.head_dim = 64;
  p.dtype = "bf16";
  p.mask = parse_name_in(kRunMaskNames, mask).value();
  return p;
}

RunVariant variant(const std::string& name, const std::string& status = "ok") {
  RunVariant v;
  v.variant = name;
  v.status = parse_name_in(kRunStatusNames, status).value();
  v.median_ms = 1.0;
  return v;
}

TEST(MaskedPairs, VisibleShareIsTheBenchsMaskCountedPairByPair) {
  for (const RunProblem& p :
       {problem(64, 64, 0, "causal"), problem(64, 64, 16, "causal"), problem(96, 17, 0, "causal"),
        problem(96, 17, 8, "causal"), problem(80, 1, 0, "causal"), problem(50, 50, 0, "none"),
        problem(70, 70, 0, "explicit"), problem(128, 32, 40, "explicit")}) {
    SCOPED_TRACE(::testing::Message() << p.q_seq << " x " << p.seq << " window " << p.window << " "
                                      << name_in(kRunMaskNames, p.mask));
    EXPECT_NEAR(visible_share(p), brute_visible_share(p), 1e-12);
  }
}

TEST(MaskedPairs, OnlyVariantsThatComputeEveryPairOfAMostlyHiddenMask) {
  // (256 x 257 / 2 + 3840 x 256) / 4096² = 6.06 % visible.
  const RunProblem window = problem(4096, 4096, 256, "causal");
  EXPECT_TRUE(masked_not_skipped(window, variant("naive")).has_value());
  EXPECT_TRUE(masked_not_skipped(window, variant("sdpa-cudnn")).has_value());  // a mask tensor
  EXPECT_FALSE(masked_not_skipped(window, variant("sdpa-flash", "unsupported")).has_value());
  EXPECT_FALSE(masked_not_skipped(window, variant("my_kernel")).has_value());  // not judged
  const auto f = masked_not_skipped(window, variant("sdpa-efficient"));
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->id, "masked-not-skipped");
  EXPECT_NE(f->summary.find("6.1 % of the 4096 x 4096"), std::string::npos) << f->summary;
  EXPECT_NE(f->summary.find("a sliding window of 256 keys"), std::string::npos);
  // The causal square: half the pairs visible, the fused backends skip the rest themselves and
  // the unfused ones waste no more than half: no finding.
  const RunProblem square = problem(2048, 2048, 0, "causal");
  EXPECT_FALSE(masked_not_skipped(square, variant("naive")).has_value());
  EXPECT_FALSE(masked_not_skipped(square, variant("sdpa-cudnn")).has_value());
  // A chunk of a prefill: 512 queries at the end of 8192 keys see almost all of them.
  EXPECT_FALSE(masked_not_skipped(problem(8192, 512, 0, "causal"), variant("naive")));
}

// A chunk of a prefill runs on flash and efficient through their bottom-right causal kernels
// (bench/src/problem.cpp, SdpaMaskForm::kLowerRight); cuDNN and math still compute every pair.
TEST(MaskedPairs, AChunkOfAPrefillIsSkippedByFlashAndEfficientOnly) {
  const RunProblem chunk = problem(8192, 512, 0, "causal");
  EXPECT_FALSE(computes_every_pair(chunk, variant("sdpa-flash")));
  EXPECT_FALSE(computes_every_pair(chunk, variant("sdpa-efficient")));
  EXPECT_TRUE(computes_every_pair(chunk, variant("sdpa-cudnn")));
  EXPECT_TRUE(computes_every_pair(chunk, variant("sdpa-math")));
  RunVariant automatic = variant("sdpa-auto");
  automatic.chosen_backend = "flash";
  EXPECT_FALSE(computes_every_pair(chunk, automatic));
  automatic.chosen_backend = "cudnn";
  EXPECT_TRUE(computes_every_pair(chunk, automatic));
  // The square and the decode step are not chunks: the fused backends skip (or need no mask).
  EXPECT_FALSE(computes_every_pair(problem(512, 512, 0, "causal"), variant("sdpa-cudnn")));
  EXPECT_FALSE(computes_every_pair(problem(512, 1, 0, "causal"), variant("sdpa-cudnn")));
  // A window is a tensor for every SDPA backend.
  EXPECT_TRUE(computes_every_pair(problem(8192, 512, 256, "causal"), variant("sdpa-flash")));
}

// The shipped window study (examples/h200-study/window: 4096 tokens, a window of 1024): every
// variant that ran with the mask as a tensor gets the finding, in the report's words.
TEST(MaskedPairs, TheShippedWindowStudySaysItsWorkIsMaskedNotSkipped) {
  const std::string folder = std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/window";
  const auto run = testing::run_command(std::string(ATTNPROF_CLI) + " report " + folder +
                                        " --format text -o - 2>&1");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("sdpa-cudnn: [masked-not-skipped] masked, not skipped: 21.9 % of the "
                            "4096 x 4096 query-key pairs"),
            std::string::npos)
      << run.output;
  EXPECT_EQ(run.output.find("sdpa-flash: [masked-not-skipped]"), std::string::npos);
}

// A run made --from-trace: two calls of the trace, one where the bench finds a faster backend.
RunSummary from_trace_run() {
  RunSummary run;
  RunPoint slow;
  slow.problem = problem(512, 512, 0, "causal");
  RunVariant math = variant("sdpa-math");
  math.median_ms = 0.50;
  RunVariant cudnn = variant("sdpa-cudnn");
  cudnn.median_ms = 0.05;  // CUDA events, launch gaps and all
  RunRegionFacts traced;   // its own trace: 40 µs of kernels a call
  traced.facts.regions = 2;
  traced.facts.gpu_busy_ns.median = 40000;
  cudnn.forward = traced;
  RunVariant flash = variant("sdpa-flash", "failed");  // faster, but wrong: never recommended
  flash.median_ms = 0.01;
  slow.variants = {math, cudnn, flash};
  RunPoint fast;
  fast.problem = problem(513, 1, 0, "none");
  RunVariant cudnn_decode = variant("sdpa-cudnn");
  cudnn_decode.median_ms = 0.030;
  fast.variants = {cudnn_decode};
  run.points = {slow, fast};
  RunFromTrace t;
  t.trace = "step.json.gz";
  t.region = "ProfilerStep#2";
  t.regions = 2;
  t.region_gpu_ns = 10e6;
  t.calls = {{0, 12, 0.55e6, "math", "aten::_scaled_dot_product_attention_math", ""},
             {1, 2, 0.020e6, "cudnn", "aten::_cudnn_attention_forward", ""}};
  run.from_trace = t;
  return run;
}

TEST(TraceProjection, SavesTheTracesTimeOverTheFastestCorrectVariantTimesItsCalls) {
  const auto p = project_trace(from_trace_run());
  ASSERT_TRUE(p.has_value());
  ASSERT_EQ(p->calls.size(), 2u);
  const CallProjection& math = p->calls[0];
  EXPECT_EQ(math.same_variant, "sdpa-math");
  EXPECT_DOUBLE_EQ(*math.same_ns, 0.50e6);
  EXPECT_EQ(math.best_variant, "sdpa-cudnn");  // not the failed flash
  EXPECT_DOUBLE_EQ(*math.best_ns, 40e3);       // its trace's kernels, not its events
  EXPECT_TRUE(math.by_events);                 // math had no trace
  EXPECT_DOUBLE_EQ(math.saving_ns, 12 * (0.55e6 - 0.04e6));
  // The trace's cuDNN decode (20 µs) is faster than anything measured here: nothing saved.
  EXPECT_DOUBLE_EQ(p->calls[1].saving_ns, 0);
  EXPECT_DOUBLE_EQ(p->saving_ns, 6.12e6);
  EXPECT_FALSE(project_trace(RunSummary{}).has_value());

  StudyConclusions c;
  c.projection = p;
  const auto words = projection_words(from_trace_run(), c);
  ASSERT_TRUE(words.has_value());
  ASSERT_EQ(words->lines.size(), 4u);  // the calls, all of them, the switch
  EXPECT_NE(words->lines[0].find("12 call(s) of math"), std::string::npos) << words->lines[0];
  EXPECT_NE(words->lines[0].find("-> sdpa-cudnn at 40.0 µs: -6.12 ms per region (61.2 % of its "
                                 "10.00 ms of GPU time)"),
            std::string::npos)
      << words->lines[0];
  EXPECT_NE(words->lines[1].find("no measured backend is more than 5 % faster"), std::string::npos)
      << words->lines[1];
  EXPECT_NE(words->lines[2].find("all of them: -6.12 ms per region"), std::string::npos);
}

}  // namespace
}  // namespace attnprof

namespace attnprof {
namespace {

// examples/models: bench --from-trace on each shipped model recording (an H200, 2026-12-03).
// Where the trace's backend is one of the study's variants, that variant's kernels take here what
// they took in the model's step (measured: 0 to 7 %, docs/MODELS.md).
TEST(TraceProjection, TheShippedModelStudiesReproduceTheirTracesCalls) {
  int checked = 0;
  for (const char* name : {"llama-train-sdpa", "llama-prefill-sdpa", "llama-decode-sdpa",
                           "mistral-prefill-sdpa", "mistral-decode-sdpa"}) {
    SCOPED_TRACE(name);
    const std::string dir = std::string(ATTNPROF_SOURCE_DIR) + "/examples/models/" + name;
    Result<RunSummary> run = read_run_summary(dir + "/summary.json");
    ASSERT_TRUE(run.ok()) << run.error().message;
    ASSERT_TRUE(run->from_trace.has_value());
    const auto p = project_trace(*run);
    ASSERT_TRUE(p.has_value());
    ASSERT_FALSE(p->calls.empty());
    for (const CallProjection& c : p->calls) {
      EXPECT_FALSE(c.by_events);  // every variant that ran has its trace
      ASSERT_TRUE(c.same_ns.has_value()) << c.backend;
      EXPECT_NEAR(*c.same_ns / c.trace_ns, 1.0, 0.10) << c.same_variant;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 5);
}

}  // namespace
}  // namespace attnprof
