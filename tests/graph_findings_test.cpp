// Findings that understand CUDA graphs and Inductor's compiled code (docs/CUDA_GRAPHS.md,
// "Findings"), on the H200 traces of tests/data/graphs: attention captured in a graph and
// attention compiled by Inductor are still not fused; a region of graph replays is judged by its
// graph launches; the replays' CPU cost is set against the launches they replaced.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "analysis/findings/graph_launches.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

const Finding* find(const TraceAnalysis& t, FindingKind kind) {
  for (const auto& f : t.findings)
    if (f.kind == kind) return &f;
  return nullptr;
}

TraceAnalysis explain(const std::string& fixture, const std::string& region = {},
                      const std::string& capture = {}) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  if (!capture.empty()) options.graph_capture = testing::fixture(capture);
  auto result = analyze_file(testing::fixture(fixture), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

bool any_contains(const std::vector<std::string>& lines, std::string_view part) {
  return std::any_of(lines.begin(), lines.end(),
                     [&](const std::string& l) { return contains(l, part); });
}

// "attention runs as 5 kernels in 1 attention op(s) per region (2 GEMM, 1 softmax": what the
// finding counts, without the shares and regions.
std::string counted(const Finding& f) {
  return f.summary.substr(0, f.summary.find(", the rest"));
}

// The naive graph's replays take their ops from the capture in the trace, and the not-fused
// finding counts the same kernels, GEMMs and softmax as on the eager naive attention; it says
// that the graph does not fuse them.
TEST(GraphFindings, AttentionCapturedInAGraphIsNotFused) {
  const TraceAnalysis graph = explain("graphs/naive-graph-capture.json.gz");
  const Finding* f = find(graph, FindingKind::kNotFused);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);  // the replays; the capture's step runs nothing
  EXPECT_TRUE(contains(f->summary, "captured in a CUDA graph")) << f->summary;
  EXPECT_TRUE(any_contains(
      f->evidence,
      "aten::matmul -> aten::mul -> aten::masked_fill -> aten::softmax -> aten::matmul"));
  EXPECT_TRUE(contains(f->suggestion, "the S x S score matrix")) << f->suggestion;
  const TraceAnalysis eager_naive = explain("study_naive.json.gz", "forward");
  const Finding* eager = find(eager_naive, FindingKind::kNotFused);
  ASSERT_NE(eager, nullptr);
  EXPECT_EQ(counted(*f), counted(*eager));
  EXPECT_FALSE(contains(eager->summary, "CUDA graph"));
}

// The replays alone name no op: their kernels (GEMM, softmax, GEMM) find the attention, and the
// finding says so; given the capture trace, the same replays are matched by their kernel names,
// get their ops and the finding from them.
TEST(GraphFindings, ReplaysAloneGetTheFindingByTheirKernelsOrTheirCaptureTrace) {
  const TraceAnalysis replays = explain("graphs/naive-graph-replay.json.gz");
  const Finding* alone = find(replays, FindingKind::kNotFused);
  ASSERT_NE(alone, nullptr);
  EXPECT_TRUE(contains(alone->summary, "found by its kernels")) << alone->summary;
  const TraceAnalysis matched =
      explain("graphs/naive-graph-replay.json.gz", {}, "graphs/naive-graph-capture.json.gz");
  const Finding* f = find(matched, FindingKind::kNotFused);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_TRUE(contains(f->summary, "captured in a CUDA graph")) << f->summary;
  EXPECT_FALSE(contains(f->summary, "found by its kernels")) << f->summary;
  EXPECT_TRUE(contains(f->suggestion, "the S x S score matrix")) << f->suggestion;
}

// torch.compile fuses the scale, mask and softmax into one Triton kernel, but the two products
// stay cuBLAS GEMMs and the 1024 x 1024 scores go through memory: not fused, and said so.
TEST(GraphFindings, CompiledNaiveAttentionStillWritesTheScores) {
  const TraceAnalysis t = explain("graphs/naive-compiled.json.gz", "forward");
  const Finding* f = find(t, FindingKind::kNotFused);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_TRUE(contains(f->summary, "3 kernels in 1 attention op(s) per region (2 GEMM, 1 softmax"))
      << f->summary;
  EXPECT_TRUE(contains(f->summary, "compiled by Inductor (Torch-Compiled Region: 0/0)"))
      << f->summary;
  EXPECT_TRUE(contains(f->summary, "the S x S score matrix")) << f->summary;
  EXPECT_TRUE(
      contains(f->summary,
               "triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_0"))
      << f->summary;
  EXPECT_TRUE(any_contains(f->evidence,
                           "aten::bmm -> "
                           "triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_"
                           "sub_view_0 -> aten::bmm"));
  // Compiled SDPA (cuDNN's kernel, in the reduce-overhead decode) is fused: no finding.
  EXPECT_EQ(find(explain("graphs/hf-decode-compiled-capture.json.gz"), FindingKind::kNotFused),
            nullptr);
}

// The capture's step records launches into the graph and runs nothing: its idle GPU is not a
// launch-bound region (a rule on GPU busy time alone claims it: 1 of 4 regions).
TEST(GraphFindings, TheCapturesStepIsNotLaunchBound) {
  EXPECT_EQ(find(explain("graphs/naive-graph-capture.json.gz"), FindingKind::kLaunchBound),
            nullptr);
  EXPECT_EQ(find(explain("graphs/hf-decode-graph-capture.json.gz"), FindingKind::kLaunchBound),
            nullptr);
}

// Under reduce-overhead the GPU still waits for the host, but 45 of the 49 activities replay
// from one graph launch: the finding says so, and does not advise a CUDA graph.
TEST(GraphFindings, LaunchBoundJudgesReplaysByTheirGraphLaunches) {
  const TraceAnalysis compiled = explain("graphs/hf-decode-compiled-replay.json.gz");
  const Finding* f = find(compiled, FindingKind::kLaunchBound);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->summary, "45 of its 49 GPU activities replay from a CUDA graph"))
      << f->summary;
  EXPECT_TRUE(any_contains(f->evidence, "1 graph launch(es) replay 45 of its 49 GPU activities"));
  EXPECT_FALSE(contains(f->suggestion, "capture the region in a CUDA graph")) << f->suggestion;
  EXPECT_TRUE(contains(f->suggestion, "already replay from 1 graph launch(es)")) << f->suggestion;
  // An eager decode keeps the old advice.
  const TraceAnalysis eager_decode = explain("models/llama-decode-sdpa.json.gz");
  const Finding* eager = find(eager_decode, FindingKind::kLaunchBound);
  ASSERT_NE(eager, nullptr);
  EXPECT_TRUE(contains(eager->suggestion, "capture the region in a CUDA graph"));
}

// The hand-captured decode: one cudaGraphLaunch runs the 126 captured launches' work; priced at
// the median of the trace's own kernel launches made one by one (the argmax and the token's
// update between replays), they would cost several times the graph launch's CPU time.
TEST(GraphFindings, ReplaysCpuCostAgainstTheLaunchesTheyReplaced) {
  const TraceAnalysis t = explain("graphs/hf-decode-graph-capture.json.gz");
  const Finding* f = find(t, FindingKind::kGraphReplay);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_TRUE(contains(f->summary, "1 graph launch(es) run 126 GPU activities")) << f->summary;
  EXPECT_TRUE(contains(f->summary, "126 x ")) << f->summary;
  EXPECT_TRUE(contains(f->summary, "kernel launches made one by one")) << f->summary;
  EXPECT_TRUE(contains(f->summary, "the graph saves about")) << f->summary;
  EXPECT_TRUE(any_contains(f->evidence, "the 126 launches recorded in the graph's capture"));
  // Without the capture the count is the replayed activities', and says so.
  const TraceAnalysis replays = explain("graphs/hf-decode-graph-replay.json.gz");
  const Finding* alone = find(replays, FindingKind::kGraphReplay);
  ASSERT_NE(alone, nullptr);
  EXPECT_TRUE(any_contains(alone->evidence, "0 of 1 replays were matched to a capture"));
  // A graph of two nodes, in a trace without a launch of its own: a typical H200 launch.
  const TraceAnalysis sdpa = explain("graphs/sdpa-graph-replay.json.gz");
  const Finding* small = find(sdpa, FindingKind::kGraphReplay);
  ASSERT_NE(small, nullptr);
  EXPECT_TRUE(contains(small->summary, "2 x 7.5 µs, a typical launch on the H200"))
      << small->summary;
  // Two launches of its own (the generator's graph state, 78 µs each) price nothing.
  const TraceAnalysis naive = explain("graphs/naive-graph-capture.json.gz");
  const Finding* few = find(naive, FindingKind::kGraphReplay);
  ASSERT_NE(few, nullptr);
  EXPECT_TRUE(contains(few->summary, "7 x 7.5 µs, a typical launch on the H200")) << small->summary;
  // No graph, no finding.
  EXPECT_EQ(find(explain("models/llama-decode-sdpa.json.gz"), FindingKind::kGraphReplay), nullptr);
}

// kTypicalLaunchNs is what it says: the median of the kernel launch calls in the eager Llama
// decode, measured here from the trace's events.
TEST(GraphFindings, TheTypicalLaunchIsTheEagerDecodesMedian) {
  auto trace = read_trace(testing::fixture("models/llama-decode-sdpa.json.gz"), Limits{});
  ASSERT_TRUE(trace.ok());
  std::vector<bool> ran(trace->host_events.size(), false);
  std::vector<int64_t> durations;
  for (size_t g = 0; g < trace->gpu_activities.size(); ++g) {
    const HostEventId launch = trace->activity_launch[g];
    if (launch == kNoId || ran[launch.index()] ||
        trace->gpu_activities[GpuActivityId(g)].kind != GpuKind::kKernel)
      continue;
    ran[launch.index()] = true;
    durations.push_back(trace->host_events[launch].dur_ns);
  }
  ASSERT_EQ(durations.size(), 212u);
  std::sort(durations.begin(), durations.end());
  EXPECT_NEAR(static_cast<double>(durations[durations.size() / 2]),
              static_cast<double>(kTypicalLaunchNs), 100.0);
}

}  // namespace
}  // namespace attnprof
