// The critical path (attnprof/critical_path.h, docs/CRITICAL_PATH.md): one tiny inline trace per
// edge rule of the dependency graph, with its path worked out by hand in the comment above it;
// bad input (a kernel before its launch, a wait whose record is missing) as counted diagnostics;
// what-if on a hand-timed graph; and every region of the real traces, whose categories must add
// up to the path's length, which is the region's wall time.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "analysis/critical_path/what_if_rules.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;
using testing::TempFile;

// Events in µs: a ProfilerStep#1 annotation on thread 1 of process 1 over [0, step_us), then
// `events` (JSON objects).
std::string trace_of(double step_us, const std::vector<std::string>& events) {
  std::string out = R"({"traceEvents": [)";
  out += R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, )"
         R"("ts": 0, "dur": )" +
         std::to_string(step_us) + "}";
  for (const std::string& e : events) out += ", " + e;
  return out + "]}";
}

std::string call(const char* name, double ts, double dur, int correlation) {
  return std::string(R"({"ph": "X", "cat": "cuda_runtime", "name": ")") + name +
         R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) +
         ", \"dur\": " + std::to_string(dur) +
         ", \"args\": {\"correlation\": " + std::to_string(correlation) + "}}";
}

std::string op(const char* name, double ts, double dur) {
  return std::string(R"({"ph": "X", "cat": "cpu_op", "name": ")") + name +
         R"(", "pid": 1, "tid": 1, "ts": )" + std::to_string(ts) +
         ", \"dur\": " + std::to_string(dur) + "}";
}

std::string gpu(const char* cat, const char* name, int stream, double ts, double dur,
                int correlation) {
  return std::string(R"({"ph": "X", "cat": ")") + cat + R"(", "name": ")" + name +
         R"(", "pid": 0, "tid": )" + std::to_string(stream) + ", \"ts\": " + std::to_string(ts) +
         ", \"dur\": " + std::to_string(dur) +
         ", \"args\": {\"correlation\": " + std::to_string(correlation) +
         ", \"device\": 0, \"stream\": " + std::to_string(stream) + "}}";
}

std::string kernel(const char* name, int stream, double ts, double dur, int correlation) {
  return gpu("kernel", name, stream, ts, dur, correlation);
}

// A cuda_sync event (enable_cuda_sync_events) that waits on the event a cudaEventRecord recorded.
std::string event_wait(const char* kind, int stream, double ts, int correlation, int wait_stream,
                       int record) {
  return std::string(R"({"ph": "X", "cat": "cuda_sync", "name": ")") + kind +
         R"(", "pid": 0, "tid": )" + std::to_string(stream) + ", \"ts\": " + std::to_string(ts) +
         ", \"dur\": 1, \"args\": {\"cuda_sync_kind\": \"" + kind +
         "\", \"stream\": " + std::to_string(stream) +
         ", \"wait_on_stream\": " + std::to_string(wait_stream) +
         ", \"wait_on_cuda_event_record_corr_id\": " + std::to_string(record) +
         ", \"correlation\": " + std::to_string(correlation) + ", \"device\": 0}}";
}

TraceAnalysis analyze_text(const std::string& json, std::vector<WhatIfRule> rules = {}) {
  TempFile file("trace.json", json);
  AnalyzeOptions options;
  options.what_if = std::move(rules);
  auto result = analyze_file(file.path(), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

const CriticalPath& path_of(const TraceAnalysis& t) {
  EXPECT_EQ(t.regions.size(), 1u);
  EXPECT_TRUE(t.regions[0].critical_path.present);
  return t.regions[0].critical_path;
}

void expect_adds_up(const CriticalPath& p) {
  EXPECT_EQ(p.categories.total_ns(), p.length_ns);
}

// No GPU work: the thread's time is the path, ops and the time between them alike.
TEST(CriticalPath, CpuOnlyStepIsCpu) {
  const TraceAnalysis t = analyze_text(trace_of(100, {op("aten::add", 10, 40)}));
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 100'000);
  EXPECT_EQ(p.categories.cpu_ns, 100'000);
  expect_adds_up(p);
  EXPECT_EQ(p.bound_by, "CPU");
  ASSERT_FALSE(p.top.empty());
  EXPECT_EQ(p.top[0].kind, CriticalPathItemKind::kOp);
  EXPECT_EQ(p.top[0].name, "aten::add");
  EXPECT_EQ(p.top[0].ns, 40'000);
}

// Launch, then a host wait: the step [0, 1000) launches a kernel at 10 that runs [30, 900), and
// waits in cudaDeviceSynchronize [25, 910). Back from the end: 90 of CPU after the wait, 10 of
// return from it (sync), the kernel's 870 (compute), 20 from its launch to its start (launch
// overhead), and the 10 of CPU before the launch.
TEST(CriticalPath, LaunchThenHostWait) {
  const TraceAnalysis t = analyze_text(
      trace_of(1000, {call("cudaLaunchKernel", 10, 10, 1), kernel("gemm_kernel", 7, 30, 870, 1),
                      call("cudaDeviceSynchronize", 25, 885, 2)}));
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 1'000'000);
  EXPECT_EQ(p.categories.cpu_ns, 100'000);
  EXPECT_EQ(p.categories.sync_ns, 10'000);
  EXPECT_EQ(p.categories.compute_ns, 870'000);
  EXPECT_EQ(p.categories.launch_overhead_ns, 20'000);
  expect_adds_up(p);
  EXPECT_EQ(p.bound_by, "GPU compute");
  ASSERT_FALSE(p.top.empty());
  EXPECT_EQ(p.top[0].kind, CriticalPathItemKind::kKernel);
  EXPECT_EQ(p.top[0].name, "gemm_kernel");
}

// What-if on the same step: the kernel twice as fast ends at 465; the wait returns 10 later and
// the CPU's 90 follow: 565 µs. Gone (0), it ends where it starts, at 30: the wait's own start (25)
// is earlier, so the step is 30 + 10 + 90 = 130 µs.
TEST(CriticalPath, WhatIfRetimesTheGraph) {
  const std::vector<std::string> events = {call("cudaLaunchKernel", 10, 10, 1),
                                           kernel("gemm_kernel", 7, 30, 870, 1),
                                           call("cudaDeviceSynchronize", 25, 885, 2)};
  auto half = parse_what_if("kernel:gemm*=0.5");
  ASSERT_TRUE(half.ok());
  TraceAnalysis t = analyze_text(trace_of(1000, events), {half.value()});
  ASSERT_TRUE(t.regions[0].what_if);
  EXPECT_EQ(t.regions[0].what_if->length_before_ns, 1'000'000);
  EXPECT_EQ(t.regions[0].what_if->length_after_ns, 565'000);
  EXPECT_EQ(t.regions[0].what_if->selected_ns, 870'000);
  auto gone = parse_what_if("class:gemm=0");
  ASSERT_TRUE(gone.ok());
  t = analyze_text(trace_of(1000, events), {gone.value()});
  EXPECT_EQ(t.regions[0].what_if->length_after_ns, 130'000);
  // Selecting nothing changes nothing.
  auto none = parse_what_if("kernel:no_such_kernel=0");
  ASSERT_TRUE(none.ok());
  t = analyze_text(trace_of(1000, events), {none.value()});
  EXPECT_EQ(t.regions[0].what_if->length_after_ns, 1'000'000);
  EXPECT_EQ(t.regions[0].what_if->selected_ns, 0);
}

// CPU time selected by cpu:GLOB: an op of 400 µs before the launch, halved, moves everything after
// it 200 µs earlier.
TEST(CriticalPath, WhatIfOnCpuOps) {
  auto half = parse_what_if("cpu:aten::slow*=0.5");
  ASSERT_TRUE(half.ok());
  const TraceAnalysis t = analyze_text(
      trace_of(1000, {op("aten::slow_op", 0, 400), call("cudaLaunchKernel", 410, 10, 1),
                      kernel("k", 7, 420, 500, 1), call("cudaDeviceSynchronize", 425, 500, 2)}),
      {half.value()});
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 1'000'000);
  expect_adds_up(p);
  EXPECT_EQ(t.regions[0].what_if->length_after_ns, 800'000);
  EXPECT_EQ(t.regions[0].what_if->selected_ns, 400'000);
}

// attention-cpu selects the outermost op whose launches are all attention's: SDPA [10, 300) with
// what runs under it (an op that launches nothing, the launch call), not the op around it that
// also launches a GEMM. Halved, its 290 µs of CPU move the rest of the step 145 µs earlier.
TEST(CriticalPath, WhatIfOnAttentionCpuSelectsTheOpsThatLaunchedAttentionOnly) {
  auto half = parse_what_if("attention-cpu=0.5");
  ASSERT_TRUE(half.ok());
  const TraceAnalysis t = analyze_text(
      trace_of(1000, {op("aten::outer", 5, 595), op("aten::scaled_dot_product_attention", 10, 290),
                      op("aten::empty", 20, 10), call("cudaLaunchKernel", 200, 10, 1),
                      kernel("flash_fwd_kernel", 7, 220, 100, 1), op("aten::mm", 400, 100),
                      call("cudaLaunchKernel", 450, 10, 2), kernel("gemm_kernel", 7, 470, 100, 2)}),
      {half.value()});
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 1'000'000);
  EXPECT_EQ(p.attention_cpu_ns, 290'000);
  EXPECT_EQ(t.regions[0].what_if->selected_ns, 290'000);
  EXPECT_EQ(t.regions[0].what_if->length_after_ns, 855'000);
}

// Stream order: two kernels launched back to back run one after the other, 5 µs apart; the
// second's start waits for the first's end (kernel gap), not for its launch.
TEST(CriticalPath, StreamOrderAndKernelGap) {
  const TraceAnalysis t = analyze_text(
      trace_of(1000, {call("cudaLaunchKernel", 10, 5, 1), call("cudaLaunchKernel", 16, 5, 2),
                      kernel("first", 7, 20, 400, 1), kernel("second", 7, 425, 450, 2),
                      call("cudaDeviceSynchronize", 30, 900, 3)}));
  const CriticalPath& p = path_of(t);
  // 10 cpu + 10 launch (10 -> 20) + 400 + 5 gap + 450 + 55 sync (875 -> 930) + 70 cpu.
  EXPECT_EQ(p.categories.compute_ns, 850'000);
  EXPECT_EQ(p.categories.kernel_gap_ns, 5'000);
  EXPECT_EQ(p.categories.launch_overhead_ns, 10'000);
  EXPECT_EQ(p.categories.sync_ns, 55'000);
  EXPECT_EQ(p.categories.cpu_ns, 80'000);
  expect_adds_up(p);
}

// A cross-stream wait (cuda_sync "Stream Wait Event"): kernel A on stream 7 runs [100, 500);
// cudaEventRecord (correlation 2) after its launch, cudaStreamWaitEvent (3) makes stream 20 wait;
// kernel B on stream 20, launched at 50, starts at 505, 5 µs after A ends. The path runs through A:
// 10 cpu, 90 launch, A 400, 5 gap, B 95, 10 sync, 90 cpu. Without the wait event, B would seem to
// wait on its launch.
TEST(CriticalPath, StreamWaitEventLinksStreams) {
  const std::vector<std::string> events = {call("cudaLaunchKernel", 10, 5, 1),
                                           kernel("a_kernel", 7, 100, 400, 1),
                                           call("cudaEventRecord", 30, 2, 2),
                                           call("cudaStreamWaitEvent", 40, 2, 3),
                                           event_wait("Stream Wait Event", 20, 41, 3, 7, 2),
                                           call("cudaLaunchKernel", 50, 5, 4),
                                           kernel("b_kernel", 20, 505, 95, 4),
                                           call("cudaDeviceSynchronize", 60, 550, 5)};
  const TraceAnalysis t = analyze_text(trace_of(700, events));
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 700'000);
  EXPECT_EQ(p.categories.compute_ns, 495'000);
  EXPECT_EQ(p.categories.kernel_gap_ns, 5'000);
  EXPECT_EQ(p.categories.launch_overhead_ns, 90'000);
  EXPECT_EQ(p.categories.sync_ns, 10'000);
  EXPECT_EQ(p.categories.cpu_ns, 100'000);
  expect_adds_up(p);
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kWaitWithoutRecord), 0u);
}

// The same wait naming a record the trace does not hold: counted, and no edge.
TEST(CriticalPath, WaitWithoutItsRecordIsCounted) {
  const TraceAnalysis t = analyze_text(trace_of(
      700, {call("cudaLaunchKernel", 10, 5, 1), kernel("a_kernel", 7, 100, 400, 1),
            call("cudaStreamWaitEvent", 40, 2, 3),
            event_wait("Stream Wait Event", 20, 41, 3, 7, 99), call("cudaLaunchKernel", 50, 5, 4),
            kernel("b_kernel", 20, 505, 95, 4), call("cudaDeviceSynchronize", 60, 550, 5)}));
  EXPECT_EQ(t.diagnostics.count(DiagnosticKind::kWaitWithoutRecord), 1u);
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.length_ns, 700'000);
  expect_adds_up(p);
  // B now waits on nothing but its launch: A is off the path.
  EXPECT_EQ(p.categories.compute_ns, 95'000);
}

// A CUDA graph replay: the three kernels of one cudaGraphLaunch share its correlation and hang
// off it in their stream's order: 10 cpu, 10 launch, 10 + 1 gap + 19 + 2 gap + 28, 5 sync, 15 cpu.
TEST(CriticalPath, GraphReplayKernelsHangOffTheirLaunch) {
  const TraceAnalysis t =
      analyze_text(trace_of(100, {call("cudaGraphLaunch", 10, 4, 5), kernel("g1", 7, 20, 10, 5),
                                  kernel("g2", 7, 31, 19, 5), kernel("g3", 7, 52, 28, 5),
                                  call("cudaDeviceSynchronize", 15, 70, 6)}));
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.categories.compute_ns, 57'000);
  EXPECT_EQ(p.categories.kernel_gap_ns, 3'000);
  EXPECT_EQ(p.categories.launch_overhead_ns, 10'000);
  EXPECT_EQ(p.categories.sync_ns, 5'000);
  EXPECT_EQ(p.categories.cpu_ns, 25'000);
  expect_adds_up(p);
}

// A copy to pageable host memory blocks its cudaMemcpyAsync: the call returns after the copy.
// 10 cpu, 140 launch (10 -> 150), 40 copy, 10 sync, 800 cpu.
TEST(CriticalPath, BlockingCopyToHost) {
  const TraceAnalysis t = analyze_text(
      trace_of(1000, {call("cudaMemcpyAsync", 10, 190, 1),
                      gpu("gpu_memcpy", "Memcpy DtoH (Device -> Pageable)", 7, 150, 40, 1)}));
  const CriticalPath& p = path_of(t);
  EXPECT_EQ(p.categories.memory_ns, 40'000);
  EXPECT_EQ(p.categories.sync_ns, 10'000);
  EXPECT_EQ(p.categories.launch_overhead_ns, 140'000);
  EXPECT_EQ(p.categories.cpu_ns, 810'000);
  expect_adds_up(p);
}

// Clocks out of order: a kernel that starts before its launch. Counted, kept at the later time,
// and the path still ends.
TEST(CriticalPath, KernelBeforeItsLaunchIsCountedNotAHang) {
  const TraceAnalysis t =
      analyze_text(trace_of(100, {call("cudaLaunchKernel", 50, 5, 1), kernel("early", 7, 40, 20, 1),
                                  call("cudaDeviceSynchronize", 56, 10, 2)}));
  EXPECT_GE(t.diagnostics.count(DiagnosticKind::kDependencyAgainstClock), 1u);
  const CriticalPath& p = path_of(t);
  EXPECT_GE(p.length_ns, 100'000);
  expect_adds_up(p);
}

TEST(CriticalPath, WhatIfRulesParse) {
  EXPECT_TRUE(parse_what_if("attention=0.5").ok());
  ASSERT_TRUE(parse_what_if("attention-cpu=0.25").ok());
  EXPECT_EQ(parse_what_if("attention-cpu=0.25")->kind, WhatIfSelectorKind::kAttentionCpu);
  EXPECT_EQ(parse_what_if("attention-cpu=0.25")->factor, 0.25);
  EXPECT_TRUE(parse_what_if("op:aten::*=2").ok());
  EXPECT_TRUE(parse_what_if("module:Linear*=0").ok());
  for (const char* bad :
       {"attention", "attention=-1", "attention=x", "class:nope=0.5", "kernel:=0.5", "flops:x=1",
        "attention=nan", "attention-cpu", "attention-cpu=-0.5", "attention-cpu:x=1"}) {
    auto r = parse_what_if(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.error().kind, ErrorKind::kUsage) << bad;
  }
}

// Every region of the real traces: the categories tile the path, and the path is the region.
TEST(CriticalPath, RealRegionsAddUp) {
  for (const char* name :
       {"train_step.json.gz", "models/llama-prefill-sdpa.json.gz",
        "models/llama-decode-sdpa.json.gz", "comm/comm-overlap.json.gz", "cuda_graph.json.gz",
        "foreign/hta_cuda_sync.json.gz", "graphs/kineto-enable_cuda_sync_events.json.gz"}) {
    const TraceAnalysis t = analyze_fixture(name);
    for (const RegionSummary& r : t.regions) {
      ASSERT_TRUE(r.critical_path.present) << name;
      EXPECT_EQ(r.critical_path.categories.total_ns(), r.critical_path.length_ns) << name;
      EXPECT_GE(r.critical_path.length_ns, r.wall_ns) << name << " " << r.name;
      EXPECT_LE(r.critical_path.attention_ns, r.critical_path.length_ns) << name;
    }
  }
}

// What-if against a real change, on recorded pairs (docs/CRITICAL_PATH.md, "What-if against
// recorded pairs"): one trace's attention kernels scaled by the other's attention GPU time over
// its own, and the CPU time of the ops that launched them by the other's over its own (medians
// over the steps), its steps' paths timed again, and set beside the other trace's paths.
int64_t median_of(std::vector<int64_t> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}
int64_t median_attention_cpu_ns(const TraceAnalysis& t) {
  std::vector<int64_t> cpu;
  for (const RegionSummary& r : t.regions) cpu.push_back(r.critical_path.attention_cpu_ns);
  return median_of(cpu);
}
int64_t median_length_ns(const TraceAnalysis& t) {
  std::vector<int64_t> lengths;
  for (const RegionSummary& r : t.regions) lengths.push_back(r.critical_path.length_ns);
  return median_of(lengths);
}
struct Projection {
  double cpu_factor = 0;
  TraceAnalysis projected;     // both factors: each region's what_if
  TraceAnalysis kernels_only;  // the kernels' factor alone
  int64_t other_ns = 0;        // the other trace's median path
  int64_t median_after_ns(const TraceAnalysis& t) const {
    std::vector<int64_t> after;
    for (const RegionSummary& r : t.regions) after.push_back(r.what_if->length_after_ns);
    return median_of(after);
  }
};
Projection project_attention(const char* from, const char* to) {
  const TraceAnalysis target = analyze_fixture(to);
  const TraceAnalysis plain = analyze_fixture(from);
  EXPECT_GT(plain.attention.gpu_ns, 0);
  EXPECT_GT(median_attention_cpu_ns(plain), 0);
  Projection p;
  const double gpu_factor =
      static_cast<double>(target.attention.gpu_ns) / static_cast<double>(plain.attention.gpu_ns);
  p.cpu_factor = static_cast<double>(median_attention_cpu_ns(target)) /
                 static_cast<double>(median_attention_cpu_ns(plain));
  auto gpu = parse_what_if("attention=" + std::to_string(gpu_factor));
  auto cpu = parse_what_if("attention-cpu=" + std::to_string(p.cpu_factor));
  EXPECT_TRUE(gpu.ok() && cpu.ok());
  auto projected_with = [&](std::vector<WhatIfRule> rules) {
    AnalyzeOptions options;
    options.what_if = std::move(rules);
    auto projected = analyze_file(testing::fixture(from), options);
    EXPECT_TRUE(projected.ok());
    return std::move(projected).value();
  };
  p.projected = projected_with({gpu.value(), cpu.value()});
  p.kernels_only = projected_with({gpu.value()});
  p.other_ns = median_length_ns(target);
  return p;
}

// The study's naive attention is GPU-bound: its step is its kernels. The kernels' factor alone
// leaves naive's CPU work (five ops and a copy to launch) on the path once they are fast: 43 %
// above the cuDNN trace's steps. With the CPU time of cuDNN's SDPA op in place of those ops', the
// projected steps are within 10 % of the measured ones (medians over the steps), below them:
// naive's five kernels run beside the CPU that launches the next, where cuDNN's one kernel starts
// after its op.
TEST(CriticalPath, WhatIfNaiveToCudnnProjectsTheMeasuredStep) {
  const Projection p = project_attention("study_naive.json.gz", "study_sdpa-cudnn.json.gz");
  const double projected = static_cast<double>(p.median_after_ns(p.projected));
  const double measured = static_cast<double>(p.other_ns);
  EXPECT_NEAR(projected, measured, 0.10 * measured);
  EXPECT_GT(static_cast<double>(p.median_after_ns(p.kernels_only)), 1.10 * measured);
}

// Llama's prefill, profiled, is CPU-bound: SDPA's kernels in place of eager attention's save
// nothing (under the 5 % a recommendation needs). With both factors, each step saves the CPU
// time of the ops that launched attention that the factor removes, and no more: the path is the
// CPU's.
TEST(CriticalPath, WhatIfEagerToSdpaOnACpuBoundPrefillSavesOnlyItsOpsCpu) {
  const Projection p =
      project_attention("models/llama-prefill-eager.json.gz", "models/llama-prefill-sdpa.json.gz");
  ASSERT_EQ(p.projected.regions.size(), p.kernels_only.regions.size());
  for (size_t r = 0; r < p.projected.regions.size(); ++r) {
    const WhatIf& kernels = *p.kernels_only.regions[r].what_if;
    EXPECT_LT(kernels.length_before_ns - kernels.length_after_ns, kernels.length_before_ns / 20);
    const RegionSummary& step = p.projected.regions[r];
    EXPECT_EQ(step.critical_path.bound_by, "CPU");
    const double cpu_saved =
        static_cast<double>(step.critical_path.attention_cpu_ns) * (1 - p.cpu_factor);
    EXPECT_GT(cpu_saved, 0);
    EXPECT_NEAR(static_cast<double>(step.what_if->length_before_ns - step.what_if->length_after_ns),
                cpu_saved, 0.02 * cpu_saved);
  }
}

// Llama's decode is held by the CPU (94 % idle GPU): attention twice as fast saves nothing.
TEST(CriticalPath, WhatIfOnACpuBoundDecodeSavesNothing) {
  auto rule = parse_what_if("attention=0.5");
  ASSERT_TRUE(rule.ok());
  AnalyzeOptions options;
  options.what_if = {rule.value()};
  auto t = analyze_file(testing::fixture("models/llama-decode-sdpa.json.gz"), options);
  ASSERT_TRUE(t.ok());
  for (const RegionSummary& r : t->regions) {
    EXPECT_EQ(r.critical_path.bound_by, "CPU") << r.name;
    EXPECT_LT(r.what_if->length_before_ns - r.what_if->length_after_ns,
              r.what_if->length_before_ns / 100)
        << r.name;
  }
}

}  // namespace
}  // namespace attnprof
