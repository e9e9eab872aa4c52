// Which op launched each activity of a CUDA graph replay (reader/graph_replays.h,
// reader/graph_signatures.h), on the H200 traces of tests/data/graphs (docs/CUDA_GRAPHS.md):
// paired by order with the capture in the same trace, matched by kernel names against a capture
// trace given apart (--graph-capture), or unknown when the trace holds the replays alone.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

// A trace of replays alone, with a capture trace given apart.
Result<TraceAnalysis> analyze_with_capture(const std::string& replays, const std::string& capture) {
  AnalyzeOptions options;
  options.activities_of_every_region = true;
  options.graph_capture = testing::fixture(capture);
  return analyze_file(testing::fixture(replays), options);
}

int64_t count(const RegionSummary& r, Attribution a) {
  return r.by_attribution[static_cast<size_t>(a)];
}

std::vector<const ActivityRow*> replayed(const RegionSummary& r) {
  std::vector<const ActivityRow*> out;
  for (const ActivityRow& a : r.activities)
    if (a.launch_api == "cudaGraphLaunch") out.push_back(&a);
  return out;
}

std::string leaf_op(const ActivityRow& a) {
  return a.op_chain.empty() ? "" : a.op_chain.back();
}

// The naive graph: bmm, the mask's memset and fill, softmax, the copy and the second bmm, as
// captured; every replay gets the capture's ops, the first GEMM aten::bmm.
TEST(GraphAttribution, NaiveReplaysTakeTheOpsOfTheirCapture) {
  const TraceAnalysis t = analyze_fixture("graphs/naive-graph-capture.json.gz");
  ASSERT_EQ(t.regions.size(), 4u);
  for (const ActivityRow& a : t.regions[0].activities)
    EXPECT_EQ(a.attribution, Attribution::kLaunch) << a.name;
  for (size_t i = 1; i < 4; ++i) {
    const auto rows = replayed(t.regions[i]);
    ASSERT_EQ(rows.size(), 7u) << t.regions[i].name;
    for (const ActivityRow* a : rows) {
      EXPECT_EQ(a->attribution, Attribution::kCaptureOrder) << a->name;
      EXPECT_FALSE(a->op_chain.empty()) << a->name;
    }
    EXPECT_EQ(leaf_op(*rows.front()), "aten::bmm");
    EXPECT_EQ(leaf_op(*rows.back()), "aten::bmm");
  }
}

// The launches made while capturing ran nothing: each is counted as captured into the graph,
// none as a launch whose work the trace lost.
TEST(GraphAttribution, CapturedLaunchesAreCountedAsSuchNotAsLostWork) {
  const TraceAnalysis decode = analyze_fixture("graphs/hf-decode-graph-capture.json.gz");
  EXPECT_EQ(decode.diagnostics.count(DiagnosticKind::kLaunchCaptured), 126u);
  EXPECT_EQ(decode.diagnostics.count(DiagnosticKind::kLaunchWithoutActivity), 0u);
  const TraceAnalysis naive = analyze_fixture("graphs/naive-graph-capture.json.gz");
  EXPECT_EQ(naive.diagnostics.count(DiagnosticKind::kLaunchCaptured), 5u);  // the 5 kernels
  EXPECT_EQ(naive.diagnostics.count(DiagnosticKind::kLaunchWithoutActivity), 0u);
  // The replays alone capture nothing.
  EXPECT_EQ(analyze_fixture("graphs/hf-decode-graph-replay.json.gz")
                .diagnostics.count(DiagnosticKind::kLaunchCaptured),
            0u);
}

// The hand-captured Llama decode step: all 126 activities of each replay have an op, the same
// in every replay, and the attention calls among them are cuDNN's, where the eager decode
// (tests/data/models/llama-decode-sdpa.json.gz) has them, in the same order among the GEMMs.
TEST(GraphAttribution, DecodeReplaysMatchTheEagerDecodesOrder) {
  const TraceAnalysis graph = analyze_fixture("graphs/hf-decode-graph-capture.json.gz");
  ASSERT_EQ(graph.regions.size(), 4u);
  std::vector<std::string> first;
  for (size_t i = 1; i < 4; ++i) {
    std::vector<std::string> ops;
    for (const ActivityRow* a : replayed(graph.regions[i])) {
      EXPECT_EQ(a->attribution, Attribution::kCaptureOrder) << a->name;
      ASSERT_FALSE(a->op_chain.empty()) << a->name;
      ops.push_back(leaf_op(*a));
    }
    ASSERT_EQ(ops.size(), 126u);
    if (first.empty()) first = ops;
    EXPECT_EQ(ops, first) << graph.regions[i].name;
  }
  // The order of the model's heavy ops (its GEMMs and attention) in the eager decode.
  auto heavy = [](const std::vector<std::string>& ops) {
    std::vector<std::string> out;
    for (const auto& op : ops)
      if (op == "aten::mm" || op == "aten::bmm" || op == "aten::addmm" ||
          op.find("attention") != std::string::npos)
        out.push_back(op);
    return out;
  };
  const TraceAnalysis eager = analyze_fixture("models/llama-decode-sdpa.json.gz");
  std::vector<std::string> eager_ops;
  for (const ActivityRow& a : eager.regions.back().activities) eager_ops.push_back(leaf_op(a));
  const auto graph_heavy = heavy(first), eager_heavy = heavy(eager_ops);
  EXPECT_EQ(graph_heavy, eager_heavy);
  // Two attention calls (two layers), each cuDNN's kernel and a reduction.
  EXPECT_EQ(std::count(graph_heavy.begin(), graph_heavy.end(), "aten::_cudnn_attention_forward"),
            4);
  size_t cudnn_calls = 0;
  for (const ActivityRow* a : replayed(graph.regions[1]))
    if (a->name.find("sdpa") != std::string::npos) {
      ++cudnn_calls;
      EXPECT_EQ(a->op_chain.front(), "aten::scaled_dot_product_attention");
      EXPECT_EQ(leaf_op(*a), "aten::_cudnn_attention_forward");
    }
  EXPECT_EQ(cudnn_calls, 2u);
}

// The replays alone: nothing to pair with, so every replayed activity is unknown, counted,
// and each step still holds all 128 kernels and the copy.
TEST(GraphAttribution, WithoutTheCaptureReplaysAreUnknownAndStillCounted) {
  const TraceAnalysis t = analyze_fixture("graphs/hf-decode-graph-replay.json.gz");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const RegionSummary& r : t.regions) {
    size_t unknown = 0, launch = 0;
    for (const ActivityRow& a : r.activities)
      (a.attribution == Attribution::kUnknown ? unknown : launch) += 1;
    EXPECT_EQ(unknown, 126u) << r.name;
    EXPECT_EQ(launch, 3u) << r.name;
    EXPECT_EQ(r.kernels + r.memcpy + r.memset, int64_t(unknown + launch)) << r.name;
    EXPECT_EQ(r.by_attribution[static_cast<size_t>(Attribution::kUnknown)], 126) << r.name;
    EXPECT_EQ(r.by_attribution[static_cast<size_t>(Attribution::kLaunch)], 3) << r.name;
    EXPECT_EQ(r.by_attribution[static_cast<size_t>(Attribution::kCaptureOrder)], 0) << r.name;
  }
}

// Inductor's graph under reduce-overhead: the capture names each Triton kernel's launcher,
// deeper than the Torch-Compiled Region every replayed activity carries by its External id.
TEST(GraphAttribution, ReduceOverheadReplaysNameInductorsKernels) {
  const TraceAnalysis t = analyze_fixture("graphs/hf-decode-compiled-capture.json.gz");
  for (const RegionSummary& r : t.regions) {
    const auto rows = replayed(r);
    ASSERT_EQ(rows.size(), 45u) << r.name;
    for (const ActivityRow* a : rows) EXPECT_EQ(a->attribution, Attribution::kCaptureOrder);
    EXPECT_EQ(leaf_op(*rows.front()).rfind("triton_red_fused_", 0), 0u) << leaf_op(*rows.front());
  }
}

// The decode's replays alone, with the capture trace given apart: each replay's 126 kernel names
// are those of the capture trace's replays, so each activity takes the op that the capture trace
// paired it with; the op chains equal those of the replays in the capture trace.
TEST(GraphAttribution, SignatureGivesReplaysAloneTheCaptureTracesOps) {
  auto matched = analyze_with_capture("graphs/hf-decode-graph-replay.json.gz",
                                      "graphs/hf-decode-graph-capture.json.gz");
  ASSERT_TRUE(matched.ok()) << matched.error().message;
  const TraceAnalysis capture = analyze_fixture("graphs/hf-decode-graph-capture.json.gz");
  std::vector<std::vector<std::string>> expected;
  for (const ActivityRow* a : replayed(capture.regions[1])) expected.push_back(a->op_chain);
  ASSERT_EQ(expected.size(), 126u);
  ASSERT_EQ(matched->regions.size(), 3u);
  for (const RegionSummary& r : matched->regions) {
    EXPECT_EQ(count(r, Attribution::kSignature), 126) << r.name;
    EXPECT_EQ(count(r, Attribution::kUnknown), 0) << r.name;
    EXPECT_EQ(count(r, Attribution::kLaunch), 3) << r.name;
    EXPECT_EQ(r.kernels + r.memcpy + r.memset, 129) << r.name;
    std::vector<std::vector<std::string>> chains;
    for (const ActivityRow* a : replayed(r)) {
      EXPECT_EQ(a->attribution, Attribution::kSignature) << a->name;
      chains.push_back(a->op_chain);
    }
    EXPECT_EQ(chains, expected) << r.name;
  }
  // The copied ops are in no region: the region's own ops and times are those of the trace.
  const TraceAnalysis alone = analyze_fixture("graphs/hf-decode-graph-replay.json.gz");
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(matched->regions[i].wall_ns, alone.regions[i].wall_ns);
    EXPECT_EQ(matched->regions[i].cpu_ns, alone.regions[i].cpu_ns);
    EXPECT_EQ(matched->regions[i].gpu_busy_ns, alone.regions[i].gpu_busy_ns);
  }
}

// Replays of another graph match nothing: the SDPA graph's two activities are not the naive
// graph's seven, so they stay unknown and counted.
TEST(GraphAttribution, SignatureOfAnotherGraphMatchesNothing) {
  auto t = analyze_with_capture("graphs/sdpa-graph-replay.json.gz",
                                "graphs/naive-graph-capture.json.gz");
  ASSERT_TRUE(t.ok()) << t.error().message;
  for (const RegionSummary& r : t->regions) {
    EXPECT_EQ(count(r, Attribution::kSignature), 0) << r.name;
    EXPECT_EQ(count(r, Attribution::kUnknown), 2) << r.name;
  }
  // Each of the three replays is a warning that says why.
  EXPECT_EQ(t->diagnostics.count(DiagnosticKind::kReplayNotMatched), 3u);
  bool said = false;
  for (const Diagnostic& d : t->diagnostics.first())
    said |= d.kind == DiagnosticKind::kReplayNotMatched &&
            d.detail.find("2 activities): no graph of ") != std::string::npos &&
            d.detail.find("naive-graph-capture.json.gz has its kernel names") != std::string::npos;
  EXPECT_TRUE(said);
  // The right capture matches both.
  auto right =
      analyze_with_capture("graphs/sdpa-graph-replay.json.gz", "graphs/sdpa-graph-capture.json.gz");
  ASSERT_TRUE(right.ok()) << right.error().message;
  EXPECT_EQ(right->diagnostics.count(DiagnosticKind::kReplayNotMatched), 0u);
  for (const RegionSummary& r : right->regions) {
    EXPECT_EQ(count(r, Attribution::kSignature), 2) << r.name;
    for (const ActivityRow* a : replayed(r)) {
      if (a->kind == ActivityKind::kKernel) {
        EXPECT_EQ(leaf_op(*a), "aten::_cudnn_attention_forward") << a->name;
      }
    }
  }
}

// Under reduce-overhead the replays alone carry the Torch-Compiled Region's op by their launch's
// External id, and still count as unknown; the compiled capture trace names each Triton kernel's
// launcher by signature.
TEST(GraphAttribution, SignatureNamesInductorsKernelsInCompiledReplays) {
  const TraceAnalysis alone = analyze_fixture("graphs/hf-decode-compiled-replay.json.gz");
  for (const RegionSummary& r : alone.regions) EXPECT_EQ(count(r, Attribution::kUnknown), 45);
  auto t = analyze_with_capture("graphs/hf-decode-compiled-replay.json.gz",
                                "graphs/hf-decode-compiled-capture.json.gz");
  ASSERT_TRUE(t.ok()) << t.error().message;
  for (const RegionSummary& r : t->regions) {
    EXPECT_EQ(count(r, Attribution::kSignature), 45) << r.name;
    EXPECT_EQ(count(r, Attribution::kUnknown), 0) << r.name;
    const auto rows = replayed(r);
    ASSERT_EQ(rows.size(), 45u);
    EXPECT_EQ(leaf_op(*rows.front()).rfind("triton_red_fused_", 0), 0u) << leaf_op(*rows.front());
    EXPECT_EQ(rows.front()->op_chain.front(), "Torch-Compiled Region: 0/0");
  }
}

// A capture trace must hold a capture and a replay after it: an eager trace has nothing to match,
// and is one line of bad input naming it.
TEST(GraphAttribution, ACaptureTraceWithoutReplaysIsBadInput) {
  auto t =
      analyze_with_capture("graphs/naive-graph-replay.json.gz", "models/llama-decode-sdpa.json.gz");
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::kUsage);
  EXPECT_NE(t.error().message.find("llama-decode-sdpa.json.gz: --graph-capture needs"),
            std::string::npos)
      << t.error().message;
  const auto cli =
      testing::run_cli("analyze " + testing::fixture("graphs/naive-graph-replay.json.gz") +
                       " --graph-capture " + testing::fixture("models/llama-decode-sdpa.json.gz"));
  EXPECT_EQ(cli.exit_code, 2);
  EXPECT_NE(cli.output.find("--graph-capture needs"), std::string::npos) << cli.output;
  // A capture trace that cannot be read says which input it was.
  auto missing =
      analyze_with_capture("graphs/naive-graph-replay.json.gz", "graphs/no-such.json.gz");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::kIo);
  EXPECT_EQ(missing.error().message.rfind("--graph-capture: ", 0), 0u) << missing.error().message;
}

}  // namespace
}  // namespace attnprof
