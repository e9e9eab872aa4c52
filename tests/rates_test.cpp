// Every rate right on real traces: CUDA graph replays counted per execution, one roof per op row
// and never above it, AMD's and MTIA's kernels classed, HTA's launch delay and queue length under
// HTA's definitions, and the model studies' switches worth making (docs/OP_COSTS.md,
// docs/CUDA_GRAPHS.md, docs/BREAKDOWN.md).

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/collectives/collectives.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/op_cost.h"
#include "render/attention/attention_call_cells.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

const OpTotal* op_row(const RegionSummary& r, const std::string& name) {
  for (const OpTotal& o : r.tables.ops)
    if (o.name == name) return &o;
  return nullptr;
}

// The row of `r` with the name, type and roof of `like` (a name is a row per type).
const OpTotal* same_row(const RegionSummary& r, const OpTotal& like) {
  for (const OpTotal& o : r.tables.ops)
    if (o.name == like.name && o.dtype == like.dtype && o.roof == like.roof) return &o;
  return nullptr;
}

TraceAnalysis explain(const std::string& fixture) {
  AnalyzeOptions options;
  options.explain = true;
  auto result = analyze_file(testing::fixture(fixture), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

int64_t executions(const AttentionCalls& calls) {
  int64_t n = 0;
  for (const AttentionCall& c : calls.calls) n += c.executions;
  return n;
}

// One region holding the three replays of the decode graph (the capture's trace, with an
// annotation around its replay steps): each captured call ran three times, and its rate is the
// rate of one replay's call, not a third of it.
TEST(Rates, GraphReplaysInOneRegionCountEachExecution) {
  const TraceAnalysis one =
      analyze_fixture("graphs/hf-decode-graph-replays-annotated.json.gz", "replays");
  const TraceAnalysis steps = analyze_fixture("graphs/hf-decode-graph-capture.json.gz");
  ASSERT_EQ(one.regions.size(), 1u);
  ASSERT_EQ(steps.regions.size(), 4u);
  const RegionSummary& all = one.regions[0];
  const RegionSummary& step = steps.regions[1];  // ProfilerStep#1: one replay
  ASSERT_EQ(all.attention.calls.size(), 2u);
  ASSERT_EQ(step.attention.calls.size(), 2u);
  EXPECT_EQ(executions(all.attention), 6);
  EXPECT_EQ(executions(step.attention), 2);
  for (size_t i = 0; i < 2; ++i) {
    const AttentionCall& a = all.attention.calls[i];
    const AttentionCall& s = step.attention.calls[i];
    EXPECT_EQ(a.executions, 3);
    EXPECT_EQ(a.kernels, s.kernels);
    ASSERT_TRUE(a.flops && s.flops && a.tflops() && s.tflops());
    EXPECT_DOUBLE_EQ(*a.flops, 3 * *s.flops);
    // The replays' times differ by a few percent; a third of the rate would be far off.
    EXPECT_NEAR(*a.tflops() / *s.tflops(), 1.0, 0.2);
  }
  // The ops table: each captured op's replays are its calls, and its cost counts each one.
  size_t rated = 0;
  int64_t step_calls = 0, all_calls = 0;
  for (const OpTotal& o : all.tables.ops)
    if (o.cpu_ns == 0) all_calls += o.calls;
  for (const OpTotal& s : step.tables.ops) {
    const OpTotal* a = same_row(all, s);
    ASSERT_NE(a, nullptr) << s.name;
    if (s.cpu_ns > 0) continue;  // launched outside the graph, each step
    EXPECT_GT(s.calls, 0) << s.name;
    step_calls += s.calls;
    if (!a->achieved_per_s() || !s.achieved_per_s() || a->cpu_ns > 0) continue;
    ++rated;
    EXPECT_DOUBLE_EQ(*a->flops + *a->bytes, 3 * (*s.flops + *s.bytes)) << s.name;
    EXPECT_NEAR(*a->achieved_per_s() / *s.achieved_per_s(), 1.0, 0.2) << s.name;
  }
  EXPECT_EQ(all_calls, 3 * step_calls);
  EXPECT_GT(rated, 5u);
  EXPECT_NE(op_row(step, "aten::scaled_dot_product_attention"), nullptr);
}

// The replays alone, their ops copied from a capture trace by signature: the copied ops are
// called once a replay, and keep their recorded shapes.
TEST(Rates, GraphCaptureBySignatureKeepsCallsAndShapes) {
  AnalyzeOptions options;
  options.graph_capture = testing::fixture("graphs/hf-decode-graph-capture.json.gz");
  auto result = analyze_file(testing::fixture("graphs/hf-decode-graph-replay.json.gz"), options);
  ASSERT_TRUE(result.ok()) << result.error().message;
  for (const RegionSummary& r : result.value().regions) {
    const OpTotal* sdpa = op_row(r, "aten::scaled_dot_product_attention");
    ASSERT_NE(sdpa, nullptr) << r.name;
    EXPECT_EQ(sdpa->calls, 2) << r.name;
    ASSERT_EQ(r.attention.calls.size(), 2u) << r.name;
    for (const AttentionCall& c : r.attention.calls) {
      EXPECT_TRUE(c.q_len && c.kv_len) << r.name;
      EXPECT_TRUE(c.tflops()) << r.name;
    }
  }
}

// A region of replays has ops with GPU time and no CPU time of theirs: its table is ordered by
// the GPU time, not by the names of rows whose CPU column is empty.
TEST(Rates, OpsWithoutCpuTimeSortByGpuTime) {
  const TraceAnalysis t = analyze_fixture("graphs/hf-decode-graph-capture.json.gz");
  const RegionSummary& r = t.regions[1];
  int64_t last_gpu = INT64_MAX;
  size_t without_cpu = 0;
  for (const OpTotal& o : r.tables.ops) {
    if (o.cpu_ns != 0) continue;
    ++without_cpu;
    EXPECT_LE(o.gpu_ns, last_gpu) << o.name;
    last_gpu = o.gpu_ns;
  }
  EXPECT_GT(without_cpu, 10u);
}

// An eager Llama prefill runs aten::bmm in bf16 and once in fp32: two rows, each on its own roof.
TEST(Rates, RowsOfSeveralPrecisionsSplitByType) {
  const TraceAnalysis t = analyze_fixture("models/llama-prefill-eager.json.gz");
  const RegionSummary& r = t.regions[static_cast<size_t>(t.typical_region)];
  std::vector<std::string> roofs;
  for (const OpTotal& o : r.tables.ops)
    if (o.name == "aten::bmm") roofs.push_back(o.roof);
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_NE(roofs[0], roofs[1]);
  for (const std::string& roof : roofs)
    EXPECT_TRUE(roof.starts_with("bf16") || roof.starts_with("fp32")) << roof;
}

// index_select reads the rows it selects, not the table it selects from.
TEST(Rates, IndexSelectCountsTheSelectedRows) {
  const std::vector<OpArgument> args = {
      {{32000, 64}, "float", ""}, {{}, "Scalar", "0"}, {{16}, "long int", ""}};
  const auto cost = op_cost("aten::index_select", args);
  ASSERT_TRUE(cost);
  EXPECT_DOUBLE_EQ(cost->bytes, 2.0 * 16 * 64 * 4 + 16 * 8);
}

std::vector<std::string> every_trace() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::recursive_directory_iterator(ATTNPROF_TEST_DATA)) {
    const std::string path = e.path().string();
    if (path.find("fuzz-regressions") != std::string::npos) continue;
    if (path.ends_with(".json.gz") || path.ends_with(".json")) out.push_back(path);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Over every trace of tests/data (HTA's among them, in foreign/): no rate passes its roof, and
// no op row has a rate without the calls that ran its work.
TEST(Rates, NoRateAboveItsRoofInAnyTrace) {
  size_t traces = 0, rated = 0;
  for (const std::string& path : every_trace()) {
    AnalyzeOptions options;
    auto result = analyze_file(path, options);
    if (!result.ok()) continue;  // not a trace (a summary.json, a side file)
    ++traces;
    for (const RegionSummary& r : result.value().regions) {
      for (const OpTotal& o : r.tables.ops) {
        if (o.roof_pct) {
          ++rated;
          EXPECT_LE(*o.roof_pct, 100.0) << path << " " << r.name << " " << o.name;
        }
        if (o.achieved_per_s()) {
          EXPECT_GT(o.calls, 0) << path << " " << r.name << " " << o.name;
        }
        EXPECT_TRUE(!o.roof_pct || o.roof_note.empty()) << path << " " << o.name;
      }
      for (const AttentionCall& c : r.attention.calls) {
        if (c.roof_pct) {
          EXPECT_LE(*c.roof_pct, 100.0) << path << " " << r.name << " " << c.op;
        }
        EXPECT_GE(c.executions, 1) << path << " " << c.op;
      }
    }
  }
  EXPECT_GT(traces, 50u);
  EXPECT_GT(rated, 100u);
}

KernelClass class_of(const RegionSummary& r, const std::string& prefix) {
  for (const KernelTotal& k : r.tables.kernels)
    if (k.name.starts_with(prefix)) return k.kernel_class;
  ADD_FAILURE() << "no kernel " << prefix;
  return KernelClass::kOther;
}

// ROCm on MI250: rocBLAS's Tensile kernels (Cijk_*) are GEMMs.
TEST(Rates, AmdTensileKernelsAreGemms) {
  const TraceAnalysis t = analyze_fixture("foreign/hta_rocm_mi250.json.gz");
  size_t tensile = 0;
  for (const RegionSummary& r : t.regions)
    for (const KernelTotal& k : r.tables.kernels)
      if (k.name.starts_with("Cijk_")) {
        ++tensile;
        EXPECT_EQ(k.kernel_class, KernelClass::kGemm) << k.name;
      }
  EXPECT_EQ(tensile, 2u);
  EXPECT_EQ(
      classify_kernel("", "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1"),
      KernelClass::kGemm);
  EXPECT_EQ(classify_kernel("", "ck_tile::FmhaFwdKernel<ck_tile::BlockFmhaPipelineQRKSVSAsync>"),
            KernelClass::kFusedAttention);
  EXPECT_EQ(classify_kernel("", "aiter::mha_fwd_kernel"), KernelClass::kFusedAttention);
}

// MTIA: fc and batch_matmul are GEMMs; FBGEMM's embedding kernels are not.
TEST(Rates, MtiaProductsAreGemmsAndEmbeddingsAreNot) {
  const TraceAnalysis t = analyze_fixture("foreign/hta_mtia_kernels_cut.json.gz");
  ASSERT_FALSE(t.regions.empty());
  const RegionSummary& r = t.regions[0];
  EXPECT_EQ(class_of(r, "fc-dtype_"), KernelClass::kGemm);
  EXPECT_EQ(class_of(r, "batch_matmul-dtype_"), KernelClass::kGemm);
  EXPECT_NE(class_of(r, "fbgemm::split_embedding_codegen_forward"), KernelClass::kGemm);
  EXPECT_NE(class_of(r, "fbgemm::split_embedding_codegen_grad"), KernelClass::kGemm);
  EXPECT_NE(class_of(r, "split_eb_bwd_rowwise_adagrad"), KernelClass::kGemm);
}

// HTA's kernel launch delay is measured from the launch call's end, clipped at 0
// (cuda_kernel_launch_stats); attnprof's start-based figure includes the call. The medians of
// ProfilerStep#551 of HTA's NCCL trace, worked out from the events by HTA's rule with Python's
// json module: 602 activities, 10246.0 µs from the end, 10251.5 µs from the start.
TEST(Rates, LaunchDelayFromTheCallsEndIsHtas) {
  const TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  const LaunchDelays& d = t.regions[0].launch_delays;
  EXPECT_EQ(d.launched, 602);
  EXPECT_NEAR(d.end_to_start_median_ns, 10246000.0, 1.0);
  EXPECT_NEAR(d.median_ns, 10251500.0, 1.0);
  for (const StreamQueue& q : t.regions[0].queues) {
    EXPECT_GE(q.point_mean_length, 0.0);
    EXPECT_LE(q.point_mean_length, q.max_length);
  }
  // The whole trace's idle time by cause, per stream, beside each region's.
  EXPECT_FALSE(t.idle_by_stream.empty());
}

// The one-rank all-reduce of comm-serial (H200): two kernels (oneRankReduce, 8.448 and 8.544 µs),
// each with "In msg nelems" 4194304 of BFloat16 and "Group size" 1, as Python's json module reads
// them. nccl-tests' bus factor for one rank is 0: nothing crosses the link.
TEST(Rates, CollectivesCarryTheirBytesAndBandwidths) {
  const TraceAnalysis t = analyze_fixture("comm/comm-serial.json.gz");
  ASSERT_EQ(t.collectives.size(), 1u);
  const CollectiveTotals& c = t.collectives[0];
  EXPECT_EQ(c.name, "allreduce");
  EXPECT_EQ(c.dtype, "BFloat16");
  EXPECT_EQ(c.group_size, 1);
  EXPECT_EQ(c.count, 2);
  EXPECT_EQ(c.sized, 2);
  EXPECT_EQ(c.bytes, 2 * 4194304 * 2);
  EXPECT_EQ(c.gpu_ns, 8448 + 8544);
  EXPECT_EQ(c.sized_gpu_ns, c.gpu_ns);
  EXPECT_NEAR(c.algbw_gbps, 16777216.0 / 16992.0, 1e-9);
  EXPECT_EQ(c.bus_factor, 0.0);
  EXPECT_EQ(c.busbw_gbps, 0.0);
  EXPECT_EQ(t.link.name, "NVLink 4");
  EXPECT_EQ(t.link.gb_per_s_per_direction, 450.0);
  // Each region's rows add up to the trace's.
  int64_t count = 0, bytes = 0;
  for (const RegionSummary& r : t.regions)
    for (const CollectiveTotals& rc : r.collectives) count += rc.count, bytes += rc.bytes;
  EXPECT_EQ(count, c.count);
  EXPECT_EQ(bytes, c.bytes);
}

// HTA's NCCL rank 0 has 10 SendRecv kernels whose args carry no size (396,199 µs in all): each
// is counted, under the collective its name says, and none gets a bandwidth.
TEST(Rates, CollectivesWithoutSizesAreCountedNotRated) {
  const TraceAnalysis t = analyze_fixture("foreign/hta_nccl_rank0.json.gz");
  ASSERT_EQ(t.collectives.size(), 1u);
  const CollectiveTotals& c = t.collectives[0];
  EXPECT_EQ(c.name, "SendRecv");
  EXPECT_EQ(c.count, 10);
  EXPECT_EQ(c.gpu_ns, 396199000);
  EXPECT_EQ(c.sized, 0);
  EXPECT_LT(c.algbw_gbps, 0);
  EXPECT_LT(c.busbw_gbps, 0);
  EXPECT_EQ(c.bus_factor, 1.0);                 // point-to-point: no factor
  EXPECT_LT(t.link.gb_per_s_per_direction, 0);  // the trace names no GPU
}

// The CSV table has the whole trace's row and each region's, with the JSON's numbers; the text
// shows the trace's table and the typical region's, against the H200's NVLink.
TEST(Rates, CollectivesTableAndTextSayTheSame) {
  const std::string trace = testing::fixture("comm/comm-overlap.json.gz");
  const TraceAnalysis t = analyze_fixture("comm/comm-overlap.json.gz");
  auto csv = testing::run_cli("analyze --format csv --table collectives " + trace);
  ASSERT_EQ(csv.exit_code, 0) << csv.output;
  std::istringstream lines(csv.output);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line.rfind("trace,rank,region,region_index,region_pid,typical,collective,", 0), 0u);
  size_t rows = 0, whole = 0;
  while (std::getline(lines, line)) {
    ++rows;
    whole += line.find(",(whole trace),,") != std::string::npos;
    EXPECT_NE(line.find(",allreduce,BFloat16,1,"), std::string::npos) << line;
    EXPECT_NE(line.find(",NVLink 4,450"), std::string::npos) << line;
  }
  size_t region_rows = 0;
  for (const RegionSummary& r : t.regions) region_rows += r.collectives.size();
  EXPECT_EQ(whole, t.collectives.size());
  EXPECT_EQ(rows, t.collectives.size() + region_rows);
  auto text = testing::run_cli("analyze " + trace);
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_NE(text.output.find("Collectives of the whole trace"), std::string::npos);
  EXPECT_NE(text.output.find("of NVLink 4's 450 GB/s a direction"), std::string::npos);
  EXPECT_NE(text.output.find("Collectives of the typical region"), std::string::npos);
}

TEST(Rates, BusFactorsAreNcclTests) {
  EXPECT_DOUBLE_EQ(bus_factor("allreduce", 8), 1.75);
  EXPECT_DOUBLE_EQ(bus_factor("AllReduce", 2), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor("allgather_into_tensor_coalesced", 4), 0.75);
  EXPECT_DOUBLE_EQ(bus_factor("reduce_scatter_tensor", 2), 0.5);
  EXPECT_DOUBLE_EQ(bus_factor("all_to_all", 8), 0.875);
  EXPECT_DOUBLE_EQ(bus_factor("broadcast", 8), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor("send", -1), 1.0);
  EXPECT_DOUBLE_EQ(bus_factor("allreduce", -1), -1.0);
  EXPECT_EQ(collective_of_kernel_name("ncclDevKernel_AllGather_RING_LL"), "AllGather");
  EXPECT_EQ(collective_of_kernel_name("ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*)"),
            "SendRecv");
  EXPECT_EQ(collective_of_kernel_name("void at::native::reduce_kernel<512>"), "");
  EXPECT_EQ(collective_element_bytes("BFloat16"), 2);
  EXPECT_EQ(collective_element_bytes("Float"), 4);
  EXPECT_EQ(collective_element_bytes("Float8_e4m3fn"), 1);
  EXPECT_EQ(collective_element_bytes("c10::BFloat16"), 0);
}

// A decode's calls differ in their key length only (one token more each step): the calls of
// the Llama decode's two steps together, as a generate under one annotation holds them, are one
// row with the range, the count and the median per call; each call keeps its own numbers.
TEST(Rates, DecodeCallsFoldIntoOneRowPerKind) {
  const TraceAnalysis t = analyze_fixture("models/llama-decode-sdpa.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  std::vector<AttentionCall> calls = t.regions[0].attention.calls;
  for (const AttentionCall& c : t.regions[1].attention.calls) calls.push_back(c);
  ASSERT_EQ(calls.size(), 4u);
  ASSERT_NE(calls.front().kv_len, calls.back().kv_len);
  std::vector<size_t> group_of;
  const auto groups = attention_call_groups(calls, &group_of);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(group_of, (std::vector<size_t>{0, 0, 0, 0}));
  const AttentionCallGroup& g = groups[0];
  EXPECT_EQ(g.count, 4);
  EXPECT_EQ(attention_lengths_cell(g), fmt::format("1x{}..{}", *g.kv_min, *g.kv_max));
  EXPECT_EQ(*g.kv_max, *g.kv_min + 1);
  EXPECT_EQ(g.execution_ns.size(), 4u);
}

const Finding* not_fused(const TraceAnalysis& t) {
  for (const Finding& f : t.findings)
    if (f.kind == FindingKind::kNotFused) return &f;
  return nullptr;
}

// Naive attention replayed from a CUDA graph whose capture is not in the trace: no op says what
// ran, and its kernels (GEMM, softmax, GEMM) say it is attention, not fused.
TEST(Rates, AttentionFoundByItsKernelsWhereNoOpSaysIt) {
  const TraceAnalysis replay = explain("graphs/naive-graph-replay.json.gz");
  const Finding* f = not_fused(replay);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("found by its kernels"), std::string::npos) << f->summary;
  EXPECT_EQ(f->regions_affected, 3);
  // Inductor's reduction that fuses the softmax, between two GEMMs: found by its ops.
  ASSERT_NE(not_fused(explain("graphs/naive-compiled.json.gz")), nullptr);
  // The SDPA graph's one fused kernel is no such chain.
  EXPECT_EQ(not_fused(explain("graphs/sdpa-graph-replay.json.gz")), nullptr);
}

// A model study's headline never recommends "none", a switch that saves under 5 % of the step,
// or a variant slower in the step.
TEST(Rates, ModelHeadlinesRecommendOnlySwitchesWorthMaking) {
  const std::string root = ATTNPROF_SOURCE_DIR;
  const auto out = testing::run_cli("report " + root + "/examples/h200-study " + root +
                                    "/examples/models/* --format headline -o -");
  ASSERT_EQ(out.exit_code, 0) << out.output;
  EXPECT_EQ(out.output.find("switch to none"), std::string::npos) << out.output;
  const std::regex saving(R"(switch to [^:]+: -[0-9.]+ [µm]?s \(([0-9.]+) %\))");
  size_t lines = 0;
  for (auto it = std::sregex_iterator(out.output.begin(), out.output.end(), saving);
       it != std::sregex_iterator(); ++it) {
    ++lines;
    EXPECT_GE(std::stod((*it)[1].str()), 5.0) << it->str();
  }
  EXPECT_NE(out.output.find("switch to"), std::string::npos) << out.output;
  (void)lines;
}

}  // namespace
}  // namespace attnprof
