// The costs in the ops table (attnprof/top_tables.h, docs/OP_COSTS.md): an inline trace for the
// rules (the FLOPs sit on the op that launched the kernel, never on the op above it; the rate and
// % of roof against the datasheet; null without shapes; grouping by input shape), and the real
// H200 recordings, where each GEMM row's FLOPs and GPU time are counted again here, call by call,
// from the shapes the trace recorded and the kernels each call launched.

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "analysis/gpu_datasheet.h"
#include "analysis/op_arguments.h"
#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

const OpTotal* row(const std::vector<OpTotal>& rows, const std::string& name,
                   const std::string& shapes = {}) {
  auto it = std::find_if(rows.begin(), rows.end(), [&](const OpTotal& o) {
    return o.name == name && (shapes.empty() || o.input_shapes == shapes);
  });
  return it == rows.end() ? nullptr : &*it;
}

// aten::linear -> aten::addmm launches k1 (10 µs); two aten::mm of different shapes launch k2
// (4 µs) and k3 (6 µs); aten::mul launches k4 (2 µs); aten::empty launches nothing.
std::string trace_on(const std::string& device) {
  return R"json({"deviceProperties": [{"id": 0, "name": ")json" + device +
         R"json(", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 1, "tid": 1, "ts": 40, "dur": 80,
   "args": {"Input Dims": [[8, 64], [32, 64], [32]], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"], "Concrete Inputs": ["", "", ""]}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 1, "tid": 1, "ts": 50, "dur": 60,
   "args": {"Input Dims": [[32], [8, 64], [64, 32], [], []], "Input type": ["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"], "Concrete Inputs": ["", "", "", "1", "1"]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 60, "dur": 5, "args": {"correlation": 1}},
  {"ph": "X", "cat": "kernel", "name": "k1", "pid": 0, "tid": 7, "ts": 100, "dur": 10, "args": {"correlation": 1, "device": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 200, "dur": 20,
   "args": {"Input Dims": [[128, 256], [256, 512]], "Input type": ["c10::BFloat16", "c10::BFloat16"], "Concrete Inputs": ["", ""]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 205, "dur": 5, "args": {"correlation": 2}},
  {"ph": "X", "cat": "kernel", "name": "k2", "pid": 0, "tid": 7, "ts": 230, "dur": 4, "args": {"correlation": 2, "device": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 300, "dur": 20,
   "args": {"Input Dims": [[64, 64], [64, 64]], "Input type": ["float", "float"], "Concrete Inputs": ["", ""]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 305, "dur": 5, "args": {"correlation": 3}},
  {"ph": "X", "cat": "kernel", "name": "k3", "pid": 0, "tid": 7, "ts": 330, "dur": 6, "args": {"correlation": 3, "device": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::mul", "pid": 1, "tid": 1, "ts": 400, "dur": 20,
   "args": {"Input Dims": [[1024, 1024], [1024, 1024]], "Input type": ["c10::BFloat16", "c10::BFloat16"], "Concrete Inputs": ["", ""]}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 405, "dur": 5, "args": {"correlation": 4}},
  {"ph": "X", "cat": "kernel", "name": "k4", "pid": 0, "tid": 7, "ts": 430, "dur": 2, "args": {"correlation": 4, "device": 0}},
  {"ph": "X", "cat": "cpu_op", "name": "aten::empty", "pid": 1, "tid": 1, "ts": 500, "dur": 5,
   "args": {"Input Dims": [[], []], "Input type": ["ScalarList", "Scalar"], "Concrete Inputs": ["[4]", "6"]}}
]})json";
}

RegionTables tables_of(const std::string& json, bool by_shape = false) {
  testing::TempFile file("t.json", json);
  AnalyzeOptions options;
  options.ops_by_shape = by_shape;
  auto t = analyze_file(file.path(), options);
  EXPECT_TRUE(t.ok()) << t.error().message;
  return t->regions.at(0).tables;
}

TEST(OpCostsTable, FlopsSitOnTheLaunchingOpOnly) {
  const RegionTables t = tables_of(trace_on("NVIDIA H200"));
  const OpTotal* addmm = row(t.ops, "aten::addmm");
  const OpTotal* linear = row(t.ops, "aten::linear");
  ASSERT_TRUE(addmm && linear);
  ASSERT_TRUE(addmm->flops);
  EXPECT_EQ(*addmm->flops, 2.0 * 8 * 64 * 32);
  EXPECT_EQ(addmm->costed_gpu_ns, 10'000);
  // aten::linear launched nothing itself: its addmm's FLOPs are not counted again on it.
  EXPECT_FALSE(linear->flops);
  EXPECT_EQ(linear->gpu_ns, 10'000);
  // The two aten::mm calls, each with its own shapes and type: a row per type, each held to its
  // type's peak (docs/OP_COSTS.md); together they hold both calls' FLOPs and time.
  double flops = 0;
  int64_t costed = 0;
  std::vector<std::string> roofs;
  for (const OpTotal& o : t.ops) {
    if (o.name != "aten::mm") continue;
    ASSERT_TRUE(o.flops);
    flops += *o.flops;
    costed += o.costed_gpu_ns;
    roofs.push_back(o.roof);
    EXPECT_TRUE(!o.roof_pct || *o.roof_pct <= 100.0);
  }
  EXPECT_EQ(flops, 2.0 * 128 * 256 * 512 + 2.0 * 64 * 64 * 64);
  EXPECT_EQ(costed, 10'000);
  ASSERT_EQ(roofs.size(), 2u);
  EXPECT_NE(roofs[0], roofs[1]);
  EXPECT_TRUE(roofs[0] == "bf16 dense 989.4 TFLOP/s" || roofs[1] == "bf16 dense 989.4 TFLOP/s");
  // A memory-bound op: bytes (two inputs read, one output written) against the HBM bandwidth.
  const OpTotal* mul = row(t.ops, "aten::mul");
  ASSERT_TRUE(mul && mul->bytes);
  EXPECT_TRUE(mul->memory_bound);
  EXPECT_EQ(*mul->bytes, 3.0 * 1024 * 1024 * 2);
  EXPECT_DOUBLE_EQ(*mul->roof_pct, 100.0 * (*mul->bytes / 2e-6) / 4800e9);
  // A copy writes its destination without reading it: a DtoD copy of 512 MiB moves 1 GiB.
  const std::optional<OpCost> copy = op_cost("aten::copy_", {{{1024, 1024, 128}, "float", ""},
                                                             {{1024, 1024, 128}, "float", ""},
                                                             {{}, "Scalar", "False"}});
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->bytes, 2.0 * 512 * 1024 * 1024);
  const std::optional<OpCost> fill =
      op_cost("aten::fill_", {{{1024}, "float", ""}, {{}, "Scalar", "0"}});
  ASSERT_TRUE(fill);
  EXPECT_EQ(fill->bytes, 4096.0);
  EXPECT_EQ(t.roof_gpu, "H200");
  // An op that launched nothing has no cost, not a cost of 0.
  const OpTotal* empty = row(t.ops, "aten::empty");
  ASSERT_TRUE(empty);
  EXPECT_FALSE(empty->flops);
  EXPECT_FALSE(empty->bytes);
}

TEST(OpCostsTable, GroupedByInputShape) {
  const RegionTables t = tables_of(trace_on("NVIDIA H200"), true);
  const OpTotal* big = row(t.ops, "aten::mm", "[[128, 256], [256, 512]]");
  const OpTotal* small = row(t.ops, "aten::mm", "[[64, 64], [64, 64]]");
  ASSERT_TRUE(big && small);
  EXPECT_EQ(big->calls, 1);
  EXPECT_EQ(*big->flops, 2.0 * 128 * 256 * 512);
  EXPECT_EQ(big->gpu_ns, 4'000);
  EXPECT_EQ(*small->flops, 2.0 * 64 * 64 * 64);
  // fp32 operands: the CUDA-core fp32 peak (TF32 is off for matmuls by default).
  EXPECT_EQ(small->roof, "fp32 dense 66.9 TFLOP/s");
  testing::TempFile file("t.json", trace_on("NVIDIA H200"));
  auto text = testing::run_cli("analyze --group-by shape " + file.path());
  EXPECT_NE(text.output.find("input shapes [[128, 256], [256, 512]]"), std::string::npos)
      << text.output;
}

TEST(OpCostsTable, AnUnknownGpuGetsNoPercentagesAndSaysWhy) {
  const RegionTables t = tables_of(trace_on("NVIDIA GeForce RTX 4090"));
  const OpTotal* mm = row(t.ops, "aten::mm");
  ASSERT_TRUE(mm && mm->flops);
  EXPECT_TRUE(mm->achieved_per_s());  // the rate is still known
  EXPECT_FALSE(mm->roof_pct);
  EXPECT_TRUE(t.roof_gpu.empty());
  EXPECT_EQ(t.no_roof_reason, "attnprof has no datasheet for \"NVIDIA GeForce RTX 4090\"");
  testing::TempFile file("t.json", trace_on("NVIDIA GeForce RTX 4090"));
  auto text = testing::run_cli("analyze " + file.path());
  EXPECT_NE(text.output.find("% roof: none, attnprof has no datasheet for \"NVIDIA GeForce RTX "
                             "4090\""),
            std::string::npos)
      << text.output;
}

TEST(OpCostsTable, NullWithoutShapes) {
  // HTA's trace was recorded without record_shapes: JSON says null, never 0, and the text has no
  // rate column.
  const std::string path = testing::fixture("foreign/hta_cuda_sync.json.gz");
  auto json = testing::run_cli("analyze --format json " + path);
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"flops\": null,"), std::string::npos) << json.output.substr(0, 2000);
  EXPECT_EQ(json.output.find("\"flops\": 0"), std::string::npos);
  EXPECT_EQ(json.output.find("\"bytes\": 0"), std::string::npos);
  auto text = testing::run_cli("analyze " + path);
  EXPECT_EQ(text.output.find("% roof"), std::string::npos);
}

TEST(OpCostsTable, DatasheetMatchesKinetoNames) {
  auto name = [](std::string_view device) {
    const GpuDatasheet* d = find_gpu_datasheet(device);
    return d ? std::string(d->name) : std::string("none");
  };
  EXPECT_EQ(name("NVIDIA H200"), "H200");
  EXPECT_EQ(name("NVIDIA H100 80GB HBM3"), "H100 SXM");
  EXPECT_EQ(name("NVIDIA H100 PCIe"), "H100 PCIe");
  EXPECT_EQ(name("NVIDIA H100 NVL"), "none");
  EXPECT_EQ(name("NVIDIA A100-SXM4-80GB"), "A100 SXM 80GB");
  EXPECT_EQ(name("NVIDIA A100-SXM4-40GB"), "A100 SXM 40GB");
  EXPECT_EQ(name("NVIDIA A100-PCIE-40GB"), "A100 PCIe 40GB");
  EXPECT_EQ(name("NVIDIA A100 80GB PCIe"), "A100 PCIe 80GB");
  EXPECT_EQ(name("NVIDIA B200"), "B200");
  EXPECT_EQ(name("NVIDIA L4"), "L4");
  EXPECT_EQ(name("NVIDIA L40"), "none");
  EXPECT_EQ(name("NVIDIA L40S"), "L40S");
  EXPECT_EQ(name("AMD Instinct MI300X"), "MI300X");
  EXPECT_EQ(name("AMD Instinct MI250X / MI250"), "MI250X");
  EXPECT_EQ(name("AMD Instinct MI210"), "none");
  // The hidden command the project's Python scripts read the table through
  // (scripts/gpu/record_flex.py), with --format given as they give it.
  auto json = testing::run_cli("datasheet --format json --device 'NVIDIA H100 80GB HBM3'");
  EXPECT_EQ(json.exit_code, 0);
  EXPECT_NE(json.output.find("\"name\": \"H100 SXM\""), std::string::npos) << json.output;
  EXPECT_NE(json.output.find("\"memory_gb_per_s\": 3350"), std::string::npos) << json.output;
  EXPECT_EQ(testing::run_cli("datasheet --device 'NVIDIA T4'").output, "null\n");
  // Every row has the rates its GPU has: dense Tensor Core rates above the fp32 rate.
  for (const GpuDatasheet& d : gpu_datasheets()) {
    EXPECT_GT(d.bf16, d.fp32) << d.name;
    EXPECT_GT(d.memory_gb_per_s, 0) << d.name;
    EXPECT_FALSE(d.source.empty()) << d.name;
  }
}

// The GEMMs' multiply-adds, from the shapes each call recorded: mm [M,K]x[K,N], addmm (bias,
// [M,K], [K,N]), bmm [B,M,K]x[B,K,N].
std::optional<double> gemm_flops(std::string_view op, const std::vector<OpArgument>& a) {
  auto d = [&](size_t i) { return a.at(i).dims; };
  if (op == "aten::mm") return 2.0 * d(0)[0] * d(0)[1] * d(1)[1];
  if (op == "aten::addmm") return 2.0 * d(1)[0] * d(1)[1] * d(2)[1];
  if (op == "aten::bmm") return 2.0 * d(0)[0] * d(0)[1] * d(0)[2] * d(1)[2];
  return std::nullopt;
}

// Over the whole trace, each GEMM's FLOPs and GPU time counted call by call from the kernels
// each call launched, against the ops table summed over the regions (every kernel of these
// traces is in a step).
TEST(OpCostsTable, RealGemmsAddUpCallByCall) {
  for (const char* name : {"models/llama-train-sdpa.json.gz", "train_step.json.gz",
                           "models/llama-prefill-sdpa.json.gz", "study_sdpa-math.json.gz"}) {
    SCOPED_TRACE(name);
    auto trace = read_trace(testing::fixture(name), Limits{});
    ASSERT_TRUE(trace.ok());
    std::map<std::string, double> flops, ns;
    std::map<HostEventId, bool> counted;
    for (size_t i = 0; i < trace->gpu_activities.size(); ++i) {
      const HostEventId op = trace->activity_op[GpuActivityId(i)];
      if (op == kNoId) continue;
      const std::string op_name(trace->strings.view(trace->host_events[op].name));
      auto args = op_arguments(*trace, op);
      if (!args) continue;
      auto f = gemm_flops(op_name, *args);
      if (!f) continue;
      ns[op_name] += static_cast<double>(trace->gpu_activities[GpuActivityId(i)].dur_ns);
      if (!counted[op]) flops[op_name] += *f;
      counted[op] = true;
    }
    ASSERT_FALSE(flops.empty());
    const TraceAnalysis t = summarize_trace(*trace, AnalyzeOptions{});
    std::map<std::string, double> table_flops, table_ns;
    for (const RegionSummary& r : t.regions)
      for (const OpTotal& o : r.tables.ops)
        if (flops.count(o.name) && o.flops) {
          table_flops[o.name] += *o.flops;
          table_ns[o.name] += static_cast<double>(o.costed_gpu_ns);
        }
    for (const auto& [op, f] : flops) {
      SCOPED_TRACE(op);
      EXPECT_EQ(table_flops[op], f);
      EXPECT_EQ(table_ns[op], ns[op]);
    }
  }
}

}  // namespace
}  // namespace attnprof
