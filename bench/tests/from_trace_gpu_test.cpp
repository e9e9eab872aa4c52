// `attnprof bench --from-trace` on the shipped recordings of a Hugging Face Llama (GQA 16/4,
// 2 layers, bf16, batch 2 x 512 tokens; tests/data/models): every distinct attention call of the
// typical step runs through the study's variants, summary.json keeps the trace's calls, and the
// projection compares the trace's time with what the bench measures here.

#include <gtest/gtest.h>

#include <string>

#include "cli_run.h"
#include "gpu_test_support.h"
#include "study/analysis/trace_projection.h"
#include "study/run/run_summary.h"

namespace attnprof::bench {
namespace {

using testing::run_cli;
using testing::test_folder;

std::string model_trace(const std::string& name) {
  return std::string(ATTNPROF_SOURCE_DIR) + "/tests/data/models/" + name + ".json.gz";
}

TEST(FromTrace, ATrainingStepsAttentionIsMeasuredWithItsBackwardAndProjected) {
  const auto folder = test_folder();
  const auto run = run_cli("bench --from-trace " + model_trace("llama-train-sdpa") +
                           " --time-budget 0.2 --trace-regions 2 --quiet --out " + folder.string());
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("What switching attention would save in"), std::string::npos)
      << run.output;
  // The bench's table says what holds the trace's step before any kernel: the trace's critical
  // path timed again with each variant measured here (study/analysis/step_projection.h). The
  // training step is held by the CPU, and its own backend, measured here, reproduces it within 5 %.
  EXPECT_NE(run.output.find("The trace's step is "), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("on its critical path, bound by CPU"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("the trace's own backend, gives the step"), std::string::npos)
      << run.output;
  Result<RunSummary> summary = read_run_summary((folder / "summary.json").string());
  ASSERT_TRUE(summary.ok()) << summary.error().message;
  ASSERT_TRUE(summary->from_trace.has_value());
  const RunFromTrace& t = *summary->from_trace;
  // Both layers make the same call: one problem, made twice a step, forward and backward.
  ASSERT_EQ(t.calls.size(), 1u) << run.output;
  EXPECT_EQ(t.calls[0].calls, 2);
  EXPECT_GT(t.calls[0].trace_ns, 0);
  ASSERT_EQ(summary->points.size(), 1u);
  const RunProblem& p = summary->points[0].problem;
  EXPECT_EQ(p.batch, 2);
  EXPECT_EQ(p.heads, 16);
  EXPECT_EQ(p.kv_heads, 4);
  EXPECT_EQ(p.seq, 512);
  EXPECT_EQ(p.head_dim, 64);
  EXPECT_TRUE(p.backward);
  EXPECT_EQ(p.dtype, "bf16");
  // The trace's own backend measured here takes what it took in the model's step: the GPU time
  // of its kernels in its own trace, the trace's measure (study/analysis/trace_projection.h; the
  // shipped examples/models agree within 7 %).
  const auto projection = project_trace(*summary);
  ASSERT_TRUE(projection.has_value());
  ASSERT_EQ(projection->calls.size(), 1u);
  const CallProjection& call = projection->calls[0];
  EXPECT_FALSE(call.by_events);
  ASSERT_TRUE(call.same_ns.has_value()) << call.same_variant << ": " << run.output;
  EXPECT_NEAR(*call.same_ns / call.trace_ns, 1.0, 0.15) << call.same_variant;
  // The report reads the folder like any run, with the projection.
  const auto report = run_cli("report " + folder.string() + " --format text -o -");
  EXPECT_EQ(report.exit_code, 0) << report.output;
  EXPECT_NE(report.output.find("What switching attention would save in"), std::string::npos);
  testing::remove_tree(folder);
}

TEST(FromTrace, ATraceWithoutShapesOrAttentionExitsTwoSayingWhy) {
  const auto folder = test_folder();
  const auto flags = " --time-budget 0.1 --quiet --out " + folder.string();
  // tests/data/cuda_graph.json.gz: naive attention captured in a graph, recorded without shapes.
  const auto no_shapes = run_cli("bench --from-trace " + std::string(ATTNPROF_SOURCE_DIR) +
                                 "/tests/data/cuda_graph.json.gz" + flags);
  EXPECT_EQ(no_shapes.exit_code, 2) << no_shapes.output;
  const auto with_seq =
      run_cli("bench --from-trace " + model_trace("llama-decode-sdpa") + " --seq 1024" + flags);
  EXPECT_EQ(with_seq.exit_code, 2);
  EXPECT_NE(with_seq.output.find("--seq cannot be given with it"), std::string::npos)
      << with_seq.output;
  testing::remove_tree(folder);
}

}  // namespace
}  // namespace attnprof::bench
