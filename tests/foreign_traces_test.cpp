// Traces nobody on this project wrote (tests/data/foreign/README.md): each number right, and
// each finding said only where it holds.

#include <gtest/gtest.h>

#include "attnprof/render.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

TraceAnalysis explain(const std::string& fixture, const std::string& region = {}) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  auto result = analyze_file(testing::fixture(fixture), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

const Finding* find(const TraceAnalysis& t, FindingKind kind) {
  for (const auto& f : t.findings)
    if (f.kind == kind) return &f;
  return nullptr;
}

bool contains(const std::string& text, std::string_view part) {
  return text.find(part) != std::string::npos;
}

TEST(ForeignTraces, WorkLaunchedBeforeTheWindowIsInNoStep) {
  TraceAnalysis t = analyze_fixture("foreign/inflight_window.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  // Placed by its GPU time, the carried-in work made step 2 read 96 kernels, 4 copies, 55
  // memsets and 61312.7 us busy; by launch it reads as step 3 does.
  EXPECT_EQ(t.regions[0].kernels, 6);
  EXPECT_EQ(t.regions[0].memcpy, 0);
  EXPECT_EQ(t.regions[0].memset, 1);
  EXPECT_EQ(t.regions[0].gpu_busy_ns, 52000);
  EXPECT_EQ(t.regions[1].kernels, 6);
  const WorkOutsideRegions& o = t.outside_regions;
  EXPECT_EQ(o.trace_activities, 165);
  EXPECT_EQ(o.activities, 151);
  EXPECT_EQ(o.carried_in, 151);
  EXPECT_EQ(o.carried_in_busy_ns, 62819373);
  EXPECT_EQ(o.carried_in_overlaps, std::vector<std::string>{"ProfilerStep#2"});
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kCarriedIn), 1u);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kActivityWithoutLaunch), 0u);
  const std::string text = render_text({t});
  EXPECT_TRUE(contains(text,
                       "carried in from before the trace: 151 activities, 62.82 ms, "
                       "overlapping ProfilerStep#2"))
      << text;
  EXPECT_TRUE(contains(text, "151 of 165 GPU activities (62.82 ms) are in no region")) << text;
}

TEST(ForeignTraces, WorkOfAnotherProcessThanTheStepsIsSaid) {
  // ProfilerStep#1 is process 3100453's; the Triton kernel was launched by 1670242.
  TraceAnalysis t = analyze_fixture("foreign/hta_triton_step_elsewhere.json.gz");
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_EQ(t.regions[0].kernels, 0);
  EXPECT_EQ(t.outside_regions.activities, 1);
  EXPECT_EQ(t.outside_regions.carried_in, 0);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kWorkOutsideRegions), 1u);
  EXPECT_TRUE(contains(render_text({t}), "1 of 1 GPU activities (1.8 µs) are in no region"));
  // Inductor's op with its string "grid" is read, and is the kernel's op.
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kMistypedField), 0u);
  auto trace = read_trace(testing::fixture("foreign/hta_triton_step_elsewhere.json.gz"), Limits{});
  ASSERT_TRUE(trace.ok());
  const Trace& model = trace.value();
  ASSERT_EQ(model.gpu_activities.size(), 1u);
  const HostEventId op = model.activity_op[0];
  ASSERT_NE(op, kNoId);
  EXPECT_EQ(model.strings.view(model.host_events[op].name), "triton_poi_fused_add_cos_sin_0");
}

TEST(ForeignTraces, MtiaDevicesAndRuntimeAreRead) {
  TraceAnalysis t = analyze_fixture("foreign/hta_mtia_inference_cut.json.gz");
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kUnknownCategory), 0u);
  ASSERT_EQ(t.regions.size(), 1u);  // the whole trace
  EXPECT_EQ(t.regions[0].kernels, 3);
  EXPECT_EQ(t.regions[0].memcpy, 32);
  ASSERT_EQ(t.devices.size(), 1u);
  EXPECT_EQ(t.devices[0].sm_count, -1);
  EXPECT_EQ(t.devices[0].description, "unknown compute units, architecture unknown");
  TraceAnalysis stages =
      analyze_fixture("foreign/hta_mtia_inference_cut.json.gz", "Stage::runRemote");
  ASSERT_EQ(stages.regions.size(), 4u);  // the first holds the window's remote work
  EXPECT_EQ(stages.regions[0].kernels, 2);
  EXPECT_EQ(stages.regions[0].memcpy, 19);
}

TEST(ForeignTraces, AmdDeviceInItsOwnWords) {
  TraceAnalysis t = analyze_fixture("foreign/hta_rocm_mi250.json.gz");
  ASSERT_EQ(t.devices.size(), 4u);
  EXPECT_EQ(t.devices[0].vendor, "amd");
  EXPECT_EQ(t.devices[0].description, "104 compute units, HIP compute 9.0, gcnArchName unknown");
  EXPECT_FALSE(contains(render_text({t}), "sm_90"));
  for (const ActivityRow& a : t.regions[0].activities) EXPECT_FALSE(a.occupancy_pct) << a.name;
  EXPECT_EQ(t.regions[0].kernels, 14);
}

TEST(ForeignTraces, SyncsAndRangesAreNotUnknownNorWork) {
  TraceAnalysis sync = analyze_fixture("foreign/hta_cuda_sync.json.gz");
  EXPECT_EQ(sync.diagnostics.count(DiagnosticKind::kUnknownCategory), 0u);
  ASSERT_EQ(sync.regions.size(), 1u);
  EXPECT_EQ(sync.regions[0].kernels, 4);
  EXPECT_EQ(sync.regions[0].memcpy, 1);
  EXPECT_EQ(sync.regions[0].gpu_busy_ns, 51000);
  EXPECT_EQ(sync.regions[0].gpu_syncs, 4);  // cuda_sync: Event Sync and Stream Sync
  TraceAnalysis range = analyze_fixture("foreign/hta_cupti_range_profiler_cut.json.gz");
  EXPECT_EQ(range.diagnostics.count(DiagnosticKind::kUnknownCategory), 0u);
  EXPECT_EQ(range.regions[0].kernels, 0);
}

TEST(ForeignTraces, RanksAreWhatTheTraceSays) {
  TraceAnalysis unranked = analyze_fixture("foreign/hta_rank_unavailable_cut.json.gz");
  EXPECT_EQ(unranked.rank, -1);
  EXPECT_EQ(unranked.world_size, -1);
  EXPECT_TRUE(contains(render_text({unranked}), "; rank unknown (nccl)"));
  EXPECT_TRUE(contains(render_json({unranked}), "\"rank\": null"));
  TraceAnalysis rank_only = analyze_fixture("foreign/hta_cuda_sync.json.gz");
  EXPECT_EQ(rank_only.rank, 0);
  EXPECT_EQ(rank_only.world_size, -1);
  const std::string text = render_text({rank_only});
  EXPECT_TRUE(contains(text, "; rank 0 (unknown)")) << text;
  EXPECT_FALSE(contains(text, "rank 0 of 1"));
}

TEST(ForeignTraces, UnknownIsNotZero) {
  // MTIA's kernels give no grid, block, registers or shared memory.
  TraceAnalysis t = analyze_fixture("foreign/hta_mtia_inference_cut.json.gz");
  const ActivityRow* kernel = nullptr;
  for (const ActivityRow& a : t.regions[0].activities)
    if (a.kind == ActivityKind::kKernel) kernel = &a;
  ASSERT_NE(kernel, nullptr);
  EXPECT_EQ(kernel->grid[0], -1);
  EXPECT_EQ(kernel->registers_per_thread, -1);
  EXPECT_EQ(kernel->shared_memory_bytes, -1);
  EXPECT_FALSE(kernel->occupancy_pct);
  const std::string json = render_json({t});
  EXPECT_TRUE(contains(json, "\"grid\": null")) << json.substr(0, 2000);
  EXPECT_TRUE(contains(json, "\"registers_per_thread\": null"));
  EXPECT_FALSE(contains(json, "[0, 0, 0]"));
  const std::string text = render_text({t});
  EXPECT_FALSE(contains(text, "[0,0,0]"));
  EXPECT_FALSE(contains(text, "nan"));
}

TEST(ForeignTraces, WholeTraceWallIsTheSpan) {
  // The MTIA cut: its first event starts at the window's start, its last ends 45849.895 us later.
  TraceAnalysis t = analyze_fixture("foreign/hta_mtia_inference_cut.json.gz");
  EXPECT_EQ(t.regions[0].wall_ns, 45849895);
}

TEST(ForeignTraces, NoAttentionFindingOnACnn) {
  TraceAnalysis cnn = explain("foreign/cnn_train.json.gz");
  ASSERT_EQ(cnn.regions.size(), 2u);
  EXPECT_EQ(cnn.regions[0].kernels, 150);
  for (FindingKind kind :
       {FindingKind::kNotFused, FindingKind::kPrecisionUpcast, FindingKind::kMaskRebuilt})
    EXPECT_EQ(find(cnn, kind), nullptr) << finding_id(kind);
}

TEST(ForeignTraces, AttentionFindingsNameTheAttentionOps) {
  // A transformer's training steps: the naive attention's forward chain and its backward.
  TraceAnalysis train = explain("train_step.json.gz");
  const Finding* f = find(train, FindingKind::kNotFused);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(contains(f->summary, "2 attention op(s)")) << f->summary;
  ASSERT_EQ(f->evidence.size(), 2u);
  EXPECT_TRUE(contains(f->evidence[0],
                       "aten::matmul -> aten::mul -> aten::masked_fill -> "
                       "aten::softmax -> aten::matmul under forward"))
      << f->evidence[0];
  EXPECT_TRUE(contains(f->evidence[1], "BmmBackward0")) << f->evidence[1];
  EXPECT_TRUE(contains(f->evidence[0], "of the region's GPU time")) << f->evidence[0];
  // Compiled with cuDNN's fused SDPA: attention is there, and fused.
  EXPECT_EQ(find(explain("foreign/compiled_transformer.json.gz"), FindingKind::kNotFused), nullptr);
}

}  // namespace
}  // namespace attnprof
