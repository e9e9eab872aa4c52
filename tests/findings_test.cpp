// Each finding rule on real H200 traces: one where it must fire, one where it must not.

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.h"

namespace attnprof {
namespace {

const Finding* find(const TraceAnalysis& t, FindingKind kind) {
  for (const auto& f : t.findings)
    if (f.kind == kind) return &f;
  return nullptr;
}

TraceAnalysis explain(const std::string& fixture, const std::string& region = "forward") {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = true;
  auto result = analyze_file(testing::fixture(fixture), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

// A trace of the shipped examples (examples/h200-study/...), its `forward` regions explained.
TraceAnalysis explain_example(const std::string& relative) {
  AnalyzeOptions options;
  options.region_pattern = "forward";
  options.explain = true;
  auto result =
      analyze_file(std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/" + relative, options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

bool any_contains(const std::vector<std::string>& lines, std::string_view text) {
  for (const auto& l : lines)
    if (l.find(text) != std::string::npos) return true;
  return false;
}

TEST(Findings, HiddenCopyUnderOutOfPlaceMaskedFill) {
  TraceAnalysis naive = explain("study_naive.json.gz");
  const Finding* f = find(naive, FindingKind::kHiddenCopy);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_NE(f->summary.find("aten::masked_fill"), std::string::npos);
  EXPECT_TRUE(any_contains(f->evidence,
                           "aten::masked_fill -> aten::clone -> aten::copy_ -> cudaMemcpyAsync"));
  EXPECT_TRUE(any_contains(f->evidence, "512.0 MiB"));
  EXPECT_NE(f->suggestion.find("aten::masked_fill_"), std::string::npos);
  EXPECT_EQ(find(explain("study_inplace.json.gz"), FindingKind::kHiddenCopy), nullptr);
}

// aten::bmm under torch.compile's CUDA graph clones an expanded operand to a contiguous one: the
// same op -> aten::clone -> aten::copy_ chain as masked_fill's, but bmm runs no in-place form, and
// none exists to suggest (the finding once said "aten::bmm_").
TEST(Findings, HiddenCopyOfALayoutNamesNoInPlaceForm) {
  TraceAnalysis t = explain("graphs/hf-decode-compiled-capture.json.gz", "ProfilerStep#*");
  const Finding* f = find(t, FindingKind::kHiddenCopy);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 4);
  EXPECT_NE(f->summary.find("aten::bmm copies an operand into a contiguous layout"),
            std::string::npos)
      << f->summary;
  EXPECT_EQ(f->suggestion.find("bmm_"), std::string::npos) << f->suggestion;
  EXPECT_EQ(f->suggestion.find("in-place form"), std::string::npos) << f->suggestion;
  EXPECT_TRUE(any_contains(f->evidence, "aten::bmm -> aten::clone -> aten::copy_"));
  // HTA's trace: aten::index_put runs aten::index_put_ on its clone, an out-of-place write.
  TraceAnalysis hta = explain("foreign/hta_nccl_rank0.json.gz", "ProfilerStep#*");
  const Finding* index_put = find(hta, FindingKind::kHiddenCopy);
  ASSERT_NE(index_put, nullptr);
  EXPECT_NE(index_put->summary.find("aten::index_put copies its input before writing"),
            std::string::npos)
      << index_put->summary;
  EXPECT_NE(index_put->suggestion.find("(aten::index_put_)"), std::string::npos);
}

// Hugging Face's eager Llama (tests/data/models/llama-prefill-eager: 16 query heads over 4 KV
// heads) repeats K and V with repeat_kv, an expand that aten::reshape copies: 2 copies a layer, 2
// layers. The same model through SDPA repeats nothing.
TEST(Findings, KvRepeatOfHuggingFacesRepeatKv) {
  TraceAnalysis eager = explain("models/llama-prefill-eager.json.gz", "ProfilerStep#*");
  const Finding* f = find(eager, FindingKind::kKvRepeat);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 2);
  EXPECT_NE(
      f->summary.find("an expand and aten::reshape (Hugging Face's repeat_kv) makes 4 copies"),
      std::string::npos)
      << f->summary;
  EXPECT_TRUE(any_contains(f->evidence, "aten::reshape -> aten::clone -> aten::copy_"));
  EXPECT_NE(f->suggestion.find("enable_gqa=True"), std::string::npos);
  EXPECT_EQ(
      find(explain("models/llama-prefill-sdpa.json.gz", "ProfilerStep#*"), FindingKind::kKvRepeat),
      nullptr);
}

// One region (op_families/gemm.json.gz read whole): the 23.88 ms before an AccumulateGrad's first
// launch may be paid once; the finding says one region cannot tell, and calls it no median.
TEST(Findings, CpuSideCostOfOneRegionSaysItCannotTellOnceFromEveryCall) {
  TraceAnalysis t = explain("op_families/gemm.json.gz", "");
  ASSERT_EQ(t.regions.size(), 1u);
  const Finding* f = find(t, FindingKind::kCpuSideCost);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("spends 23.88 ms on the CPU before its first launch"),
            std::string::npos)
      << f->summary;
  EXPECT_EQ(f->summary.find("median over regions"), std::string::npos) << f->summary;
  EXPECT_NE(f->summary.find("with one region"), std::string::npos) << f->summary;
  EXPECT_NE(f->suggestion.find("profile several steps"), std::string::npos);
}

// HTA's rank 0: its region waits by copies to the host only, and the finding names what it saw,
// no "0 synchronizing call(s) (0.0 µs)".
TEST(Findings, SynchronizationNamesOnlyTheWaitsItSaw) {
  TraceAnalysis t = explain("foreign/hta_nccl_rank0.json.gz", "ProfilerStep#*");
  const Finding* f = find(t, FindingKind::kSynchronization);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("the CPU waits for the GPU inside the region: 4 copy(ies) to the "
                            "host in the typical region; 2 of 2 regions"),
            std::string::npos)
      << f->summary;
  EXPECT_EQ(f->summary.find("0 synchronizing"), std::string::npos);
  EXPECT_FALSE(f->evidence.empty());
}

TEST(Findings, PrecisionUpcastInTheMathBackend) {
  TraceAnalysis f_trace = explain("study_sdpa-math.json.gz");
  const Finding* f = find(f_trace, FindingKind::kPrecisionUpcast);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_TRUE(any_contains(f->evidence, "gemm_f32f32"));
  EXPECT_TRUE(any_contains(f->evidence, "aten::to -> aten::_to_copy"));
  EXPECT_EQ(find(explain("study_sdpa-flash.json.gz"), FindingKind::kPrecisionUpcast), nullptr);
  EXPECT_EQ(find(explain("study_naive.json.gz"), FindingKind::kPrecisionUpcast), nullptr);
}

// In a decode step the math backend's FP32 products are cuBLAS GEMVs (gemvx::kernel<int, int,
// float, float, float, float, ...>), not f32f32 GEMMs: the upcast went unseen.
TEST(Findings, PrecisionUpcastInTheMathBackendsDecodeStep) {
  const TraceAnalysis math = explain_example("decode/traces/sdpa-math.json.gz");
  const Finding* f = find(math, FindingKind::kPrecisionUpcast);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("2 FP32 GEMM kernel(s) on CUDA cores"), std::string::npos)
      << f->summary;
  EXPECT_TRUE(any_contains(
      f->evidence, "FP32 GEMM: std::enable_if<!(false), void>::type internal::gemvx::kernel <- "));
  EXPECT_EQ(find(explain_example("decode/traces/naive.json.gz"), FindingKind::kPrecisionUpcast),
            nullptr);
}

// In the backward, autograd runs the math backend's casts as ToCopyBackward0 nodes beside its
// BmmBackward0 and SoftmaxBackward0, under no SDPA op: the chain must take them in, or the
// upcast goes unseen (it did, after attention ops were required for it).
TEST(Findings, PrecisionUpcastInTheMathBackendsBackward) {
  const std::string study =
      std::string(ATTNPROF_SOURCE_DIR) + "/examples/h200-study/backward/traces/";
  AnalyzeOptions options;
  options.region_pattern = "backward";
  options.explain = true;
  auto math = analyze_file(study + "sdpa-math.json.gz", options);
  ASSERT_TRUE(math.ok()) << math.error().message;
  const Finding* f = find(*math, FindingKind::kPrecisionUpcast);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 5);
  EXPECT_NE(f->summary.find("4 FP32 GEMM kernel(s)"), std::string::npos) << f->summary;
  EXPECT_TRUE(any_contains(f->evidence, "ToCopyBackward0")) << f->evidence.back();
  // The unfused chain's label starts and ends with the casts it took in.
  const Finding* unfused = find(*math, FindingKind::kNotFused);
  ASSERT_NE(unfused, nullptr);
  EXPECT_TRUE(any_contains(unfused->evidence, "ToCopyBackward0 -> BmmBackward0"));
  // Flash's backward has no FP32 GEMM, and naive's no cast: neither is an upcast.
  for (const char* other : {"sdpa-flash.json.gz", "naive.json.gz"}) {
    auto t = analyze_file(study + other, options);
    ASSERT_TRUE(t.ok()) << t.error().message;
    EXPECT_EQ(find(*t, FindingKind::kPrecisionUpcast), nullptr) << other;
  }
}

TEST(Findings, MaskRebuiltInsideTheAttentionOp) {
  TraceAnalysis f_trace = explain("study_sdpa-math.json.gz");
  const Finding* f = find(f_trace, FindingKind::kMaskRebuilt);
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(any_contains(f->evidence, "aten::_scaled_dot_product_attention_math -> aten::tril"));
  // The naive variant builds its mask once, outside the forward.
  EXPECT_EQ(find(explain("study_naive.json.gz"), FindingKind::kMaskRebuilt), nullptr);
}

TEST(Findings, NotFusedCountsTheKernels) {
  TraceAnalysis math_trace = explain("study_sdpa-math.json.gz");
  const Finding* math = find(math_trace, FindingKind::kNotFused);
  ASSERT_NE(math, nullptr);
  EXPECT_NE(math->summary.find("20 kernels"), std::string::npos) << math->summary;
  TraceAnalysis naive_trace = explain("study_naive.json.gz");
  const Finding* naive = find(naive_trace, FindingKind::kNotFused);
  ASSERT_NE(naive, nullptr);
  EXPECT_NE(naive->summary.find("5 kernels"), std::string::npos) << naive->summary;
  for (const char* fused :
       {"study_sdpa-flash.json.gz", "study_sdpa-efficient.json.gz", "study_sdpa-cudnn.json.gz"})
    EXPECT_EQ(find(explain(fused), FindingKind::kNotFused), nullptr) << fused;
}

TEST(Findings, LowOccupancyOfFlashIsExplainedAsADesignChoice) {
  TraceAnalysis f_trace = explain("study_sdpa-flash.json.gz");
  const Finding* f = find(f_trace, FindingKind::kLowOccupancy);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("12.5%"), std::string::npos) << f->summary;
  EXPECT_NE(f->summary.find("255 registers per thread"), std::string::npos) << f->summary;
  EXPECT_NE(f->suggestion.find("design choice"), std::string::npos);
  // The efficient backend's kernel runs at 25%: not low.
  EXPECT_EQ(find(explain("study_sdpa-efficient.json.gz"), FindingKind::kLowOccupancy), nullptr);
}

TEST(Findings, LaunchBoundSmallModel) {
  TraceAnalysis f_trace = explain("train_step.json.gz");
  const Finding* f = find(f_trace, FindingKind::kLaunchBound);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 2);
  EXPECT_EQ(find(explain("study_naive.json.gz"), FindingKind::kLaunchBound), nullptr);
}

// A rank of a 128-rank NCCL job (HTA's trace): SendRecv kernels that overlap no compute take
// 172.3 ms of its 278.7 ms busy GPU time in the first step. That is communication-bound, and not
// launch-bound, although the GPU idles 54 % of the span: a CUDA graph would not help. Rank 1 of
// the same job is communication-bound in its second step only (169.2 of 308.0 ms; 49 % in the
// first), and launch-bound in neither: its compute stream waits longer on the collectives (other,
// 281 ms in the first step) than on the host (157 ms).
TEST(Findings, CommunicationBoundIsNotLaunchBound) {
  TraceAnalysis rank0 = explain("foreign/hta_nccl_rank0.json.gz", "ProfilerStep#*");
  const Finding* f = find(rank0, FindingKind::kCommunicationBound);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 2);
  EXPECT_TRUE(any_contains({f->summary}, "61.8 % of the GPU's busy time (172.26 ms of 278.68 ms)"))
      << f->summary;
  EXPECT_EQ(find(rank0, FindingKind::kLaunchBound), nullptr);
  TraceAnalysis rank1 = explain("foreign/hta_nccl_rank1.json.gz", "ProfilerStep#*");
  const Finding* second_only = find(rank1, FindingKind::kCommunicationBound);
  ASSERT_NE(second_only, nullptr);
  EXPECT_EQ(second_only->regions_affected, 1);
  EXPECT_TRUE(any_contains(second_only->evidence, "ProfilerStep#552 #2"));
  EXPECT_EQ(find(rank1, FindingKind::kLaunchBound), nullptr);
  EXPECT_EQ(find(explain("train_step.json.gz", "ProfilerStep#*"), FindingKind::kCommunicationBound),
            nullptr);
}

// Rank 0 of a 2-rank NCCL job on A100s (HTA's trace): its 5 all-reduces of 8-32 MB move 102.23
// MB in 12.26 ms of the step's 49.73 ms GPU busy time, a bus bandwidth of 8.3 GB/s where NVLink 3
// carries 300 GB/s a direction. Its two broadcasts (0.21 MB and 424 B) are as slow, but too small
// for their bandwidth to mean anything: not in the evidence. A one-rank all-reduce (comm/: 8.39
// MB, busbw 0) moves nothing over a link and takes 1 % of its step, and HTA's 128-rank SendRecv
// trace gives neither message sizes nor its GPU's name: no finding in either.
TEST(Findings, LowBusBandwidthOfTwoRankAllReduces) {
  TraceAnalysis slow = explain("foreign/hta_nccl_allreduce_cut.json.gz", "ProfilerStep#*");
  const Finding* f = find(slow, FindingKind::kLowBusBandwidth);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 1);
  EXPECT_TRUE(
      any_contains({f->summary},
                   "allreduce (Float, 2 ranks) moves 102.23 MB in 12.26 ms, a bus bandwidth "
                   "of 8.3 GB/s, 2.8 % of NVLink 3's 300 GB/s a direction; they take 24.7 % "
                   "of the GPU's busy time, in 1 of 1 regions"))
      << f->summary;
  ASSERT_EQ(f->evidence.size(), 1u);
  EXPECT_TRUE(any_contains(f->evidence, "ProfilerStep#5 #1: 5 x allreduce (Float, 2 ranks)"))
      << f->evidence[0];
  EXPECT_NEAR(f->gpu_ns, 12261.5e3, 0.1e3);
  EXPECT_EQ(
      find(explain("comm/comm-serial.json.gz", "ProfilerStep#*"), FindingKind::kLowBusBandwidth),
      nullptr);
  EXPECT_EQ(find(explain("foreign/hta_nccl_rank0.json.gz", "ProfilerStep#*"),
                 FindingKind::kLowBusBandwidth),
            nullptr);
}

TEST(Findings, SynchronizationInsideTheStepButNotTheForward) {
  // record_fixtures.py synchronizes at the end of each step, outside `forward`.
  TraceAnalysis f_trace = explain("study_naive.json.gz", "");
  const Finding* f = find(f_trace, FindingKind::kSynchronization);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 3);
  EXPECT_TRUE(any_contains(f->evidence, "cudaDeviceSynchronize"));
  EXPECT_EQ(find(explain("study_naive.json.gz"), FindingKind::kSynchronization), nullptr);
}

TEST(Findings, PersistentKernelAndCuLaunchKernelExForCudnn) {
  TraceAnalysis cudnn = explain("study_sdpa-cudnn.json.gz");
  const Finding* persistent = find(cudnn, FindingKind::kPersistentKernel);
  ASSERT_NE(persistent, nullptr);
  EXPECT_TRUE(any_contains(persistent->evidence, "132 blocks for 132 SMs"));
  const Finding* ex = find(cudnn, FindingKind::kLaunchKernelEx);
  ASSERT_NE(ex, nullptr);
  EXPECT_TRUE(any_contains(ex->evidence, "cudnn_generated_fort_native_sdpa"));
  TraceAnalysis flash = explain("study_sdpa-flash.json.gz");
  EXPECT_EQ(find(flash, FindingKind::kPersistentKernel), nullptr);
  EXPECT_EQ(find(flash, FindingKind::kLaunchKernelEx), nullptr);
}

// A decode step (examples/h200-study/decode: one query against 16384 keys): flash splits the keys
// across blocks and combines them; cuDNN and the square study's flash kernel do not.
TEST(Findings, SplitKvKernelsOfFlashInADecodeStep) {
  TraceAnalysis flash = explain_example("decode/traces/sdpa-flash.json.gz");
  const Finding* f = find(flash, FindingKind::kSplitKv);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("flash_fwd_splitkv_kernel<...> splits the keys"), std::string::npos)
      << f->summary;
  EXPECT_NE(f->summary.find("flash_fwd_splitkv_combine_kernel<...> combines"), std::string::npos)
      << f->summary;
  EXPECT_TRUE(any_contains(f->evidence, "1 x flash_fwd_splitkv_combine_kernel<...>"));
  EXPECT_EQ(find(explain_example("decode/traces/sdpa-cudnn.json.gz"), FindingKind::kSplitKv),
            nullptr);
  EXPECT_EQ(find(explain("study_sdpa-flash.json.gz"), FindingKind::kSplitKv), nullptr);
}

// GQA written out (examples/h200-study/decode and gqa): the repeat of K and V is named, with its
// share of the region's GPU time, and the suggestion fits who repeats: the user's code
// (enable_gqa) or SDPA's math backend (a fused backend). Attention without GQA has none.
TEST(Findings, KvRepeatOfGqaWrittenOut) {
  TraceAnalysis naive = explain_example("decode/traces/naive.json.gz");
  const Finding* f = find(naive, FindingKind::kKvRepeat);
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->regions_affected, 5);
  EXPECT_NE(f->summary.find("aten::repeat_interleave makes 2 copies"), std::string::npos)
      << f->summary;
  EXPECT_NE(f->suggestion.find("enable_gqa=True"), std::string::npos) << f->suggestion;
  EXPECT_TRUE(any_contains(f->evidence, "aten::repeat_interleave"));
  // In this decode step the copies are most of the GPU time (the share is in the summary).
  const size_t of = f->summary.find("% of the region's GPU time");
  ASSERT_NE(of, std::string::npos) << f->summary;
  const size_t start = f->summary.rfind(", ", of) + 2;
  EXPECT_GT(std::stod(f->summary.substr(start, of - start)), 50.0) << f->summary;

  const TraceAnalysis math_analysis = explain_example("decode/traces/sdpa-math.json.gz");
  const Finding* math = find(math_analysis, FindingKind::kKvRepeat);
  ASSERT_NE(math, nullptr);
  EXPECT_NE(math->suggestion.find("fused backend"), std::string::npos) << math->suggestion;

  ASSERT_NE(find(explain_example("gqa/traces/naive.json.gz"), FindingKind::kKvRepeat), nullptr);
  EXPECT_EQ(find(explain_example("decode/traces/sdpa-cudnn.json.gz"), FindingKind::kKvRepeat),
            nullptr);
  EXPECT_EQ(find(explain("study_naive.json.gz"), FindingKind::kKvRepeat), nullptr);
}

// GQA written out: repeat_interleave's copy is its output, not a copy before an in-place write
// (there is no repeat_interleave_ to suggest); masked_fill's clone still is one.
TEST(Findings, RepeatInterleaveOfGqaIsNoHiddenCopy) {
  EXPECT_EQ(find(explain_example("decode/traces/naive.json.gz"), FindingKind::kHiddenCopy),
            nullptr);
  EXPECT_EQ(find(explain_example("decode/traces/sdpa-math.json.gz"), FindingKind::kHiddenCopy),
            nullptr);
  const TraceAnalysis gqa = explain_example("gqa/traces/naive.json.gz");
  const Finding* f = find(gqa, FindingKind::kHiddenCopy);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("aten::masked_fill copies"), std::string::npos) << f->summary;
  EXPECT_FALSE(any_contains(f->evidence, "repeat_interleave"));
}

TEST(Findings, NoCpuSideCostWhereTheGpuWorkDominates) {
  for (const char* fixture :
       {"study_sdpa-flash.json.gz", "study_naive.json.gz", "study_sdpa-cudnn.json.gz"})
    EXPECT_EQ(find(explain(fixture), FindingKind::kCpuSideCost), nullptr) << fixture;
}

TEST(Findings, ColdStartPlanBuildingOnTheFirstCall) {
  // The pattern of cuDNN's first call on a new shape: the op waits long before its launch once.
  testing::TempFile file("cold.json", R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1, "ts": 1, "dur": 900},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernelEx", "pid": 1, "tid": 1, "ts": 850, "dur": 5, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 860, "dur": 100, "args": {"correlation": 1}},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 2000, "dur": 200},
    {"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1, "ts": 2001, "dur": 100},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernelEx", "pid": 1, "tid": 1, "ts": 2030, "dur": 5, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 2040, "dur": 100, "args": {"correlation": 2}},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 3000, "dur": 200},
    {"ph": "X", "cat": "cpu_op", "name": "aten::scaled_dot_product_attention", "pid": 1, "tid": 1, "ts": 3001, "dur": 100},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernelEx", "pid": 1, "tid": 1, "ts": 3031, "dur": 5, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 3040, "dur": 100, "args": {"correlation": 3}}
  ]})json");
  AnalyzeOptions options;
  options.region_pattern = "forward";
  options.explain = true;
  auto t = analyze_file(file.path(), options);
  ASSERT_TRUE(t.ok()) << t.error().message;
  const Finding* f = find(*t, FindingKind::kCpuSideCost);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("849.0 µs on the CPU before its first launch on the first call"),
            std::string::npos)
      << f->summary;
  EXPECT_NE(f->summary.find("30.0 µs in the steady state"), std::string::npos) << f->summary;
}

TEST(Findings, CliExplainPrintsThem) {
  auto r = testing::run_cli("analyze --explain --region forward " +
                            testing::fixture("study_naive.json.gz"));
  EXPECT_EQ(r.exit_code, 0);
  // Each with the time it explains, listed by it: the unfused passes before the copy among them.
  EXPECT_NE(r.output.find("[hidden-copy, explains "), std::string::npos) << r.output;
  EXPECT_LT(r.output.find("[not-fused, explains "), r.output.find("[hidden-copy, explains "));
  auto json = testing::run_cli("analyze --explain --format json " +
                               testing::fixture("study_naive.json.gz"));
  EXPECT_NE(json.output.find("\"id\": \"hidden-copy\""), std::string::npos);
}

}  // namespace
}  // namespace attnprof

namespace attnprof {
namespace {

TEST(Findings, CudnnPlanIsBuiltOnTheFirstCallOfARealTrace) {
  // cudnn_cold_start.json.gz profiles cuDNN SDPA from its very first call on a new shape.
  TraceAnalysis t = explain("cudnn_cold_start.json.gz");
  ASSERT_EQ(t.regions.size(), 4u);
  const Finding* f = find(t, FindingKind::kCpuSideCost);
  ASSERT_NE(f, nullptr);
  EXPECT_NE(f->summary.find("on the first call"), std::string::npos) << f->summary;
  EXPECT_NE(f->summary.find("aten::scaled_dot_product_attention"), std::string::npos);
  // The first forward waits over 100 ms for its plan (read off the trace: 111.8 ms).
  EXPECT_GT(t.regions[0].wall_ns, 100'000'000);
  EXPECT_LT(t.regions[1].wall_ns, 1'000'000);
}

TEST(Findings, TinyProblemIsLaunchBoundSynchronizesAndUnderfillsTheGpu) {
  TraceAnalysis t = explain("small_launch_bound.json.gz");
  const Finding* launch = find(t, FindingKind::kLaunchBound);
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->regions_affected, 3);
  const Finding* sync = find(t, FindingKind::kSynchronization);
  ASSERT_NE(sync, nullptr);
  // out.sum().item() inside the forward: a copy to the host and a stream synchronize.
  EXPECT_TRUE(any_contains(sync->evidence, "aten::item"));
  EXPECT_TRUE(any_contains(sync->evidence, "copy to host"));
  const Finding* small = nullptr;
  for (const auto& f : t.findings)
    if (f.kind == FindingKind::kLowOccupancy &&
        f.summary.find("too few blocks to fill") != std::string::npos)
      small = &f;
  ASSERT_NE(small, nullptr);
  EXPECT_NE(small->summary.find("132 SMs, so some SMs idle"), std::string::npos) << small->summary;
  EXPECT_TRUE(
      any_contains(small->evidence, "16 blocks of 128 threads for 132 SMs (116 SMs get none)"));
  // Kernels of 2 µs: the launch's fixed cost is the story.
  EXPECT_NE(small->suggestion.find("each takes under 10 µs"), std::string::npos)
      << small->suggestion;
}

// Low occupancy in a decode step. Flash's split-KV kernel gives every SM nearly the 2 blocks its
// 255 registers per thread allow (256 blocks, 132 SMs): that was "fewer blocks than the GPU's 132
// SMs ... most SMs idle ... launch overhead dominates", though every SM had work and the kernel
// ran 136 µs; it is the registers' occupancy, by design. The combine kernel (8 blocks, 3 µs) is
// split-KV's small reduction, said so.
TEST(Findings, LowOccupancyInADecodeStepSaysWhatIsTrue) {
  for (const char* trace :
       {"decode/traces/sdpa-flash.json.gz", "decode/default-shape/traces/sdpa-flash.json.gz"}) {
    SCOPED_TRACE(trace);
    TraceAnalysis flash = explain_example(trace);
    const Finding* splitkv = nullptr;
    for (const auto& f : flash.findings) {
      if (f.kind != FindingKind::kLowOccupancy) continue;
      EXPECT_EQ(f.summary.find("fewer blocks than"), std::string::npos) << f.summary;
      EXPECT_EQ(f.suggestion.find("launch overhead dominates"), std::string::npos) << f.suggestion;
      if (f.summary.starts_with("flash_fwd_splitkv_kernel<...>")) splitkv = &f;
    }
    ASSERT_NE(splitkv, nullptr);
    EXPECT_NE(splitkv->summary.find("leave room for 2 block(s) per SM"), std::string::npos)
        << splitkv->summary;
    EXPECT_NE(splitkv->suggestion.find("a design choice"), std::string::npos);
    // A decode step is judged by its bytes per second, not its TFLOP/s.
    EXPECT_NE(splitkv->suggestion.find("judge it by its time and its bytes per second"),
              std::string::npos)
        << splitkv->suggestion;
  }
  // With 2048 keys the combine is a fifth of the step's GPU time.
  TraceAnalysis small = explain_example("decode/default-shape/traces/sdpa-flash.json.gz");
  const Finding* combine = nullptr;
  for (const auto& f : small.findings)
    if (f.kind == FindingKind::kLowOccupancy &&
        any_contains(f.evidence, "flash_fwd_splitkv_combine_kernel<...>: 8 blocks"))
      combine = &f;
  ASSERT_NE(combine, nullptr);
  EXPECT_TRUE(any_contains(combine->evidence, "(124 SMs get none)"));
  EXPECT_NE(combine->suggestion.find("split-KV's combine kernel is a small reduction"),
            std::string::npos)
      << combine->suggestion;
}

// Unfused attention in a decode step (one query against 16384 or 2048 keys): the softmax kernel
// (cunn_SoftMaxForwardSmem, cunn_SoftMaxForward: rows longer than 1024) was not counted as one
// ("0 softmax"), math's GEMV products not as GEMMs ("0 GEMM"), and the text spoke of an S x S
// score matrix. The square study keeps its words.
TEST(Findings, NotFusedInADecodeStepCountsItsKernelsAndNamesTheScoreRows) {
  for (const char* trace : {"decode/traces/naive.json.gz", "decode/traces/sdpa-math.json.gz"}) {
    SCOPED_TRACE(trace);
    TraceAnalysis t = explain_example(trace);
    const Finding* f = find(t, FindingKind::kNotFused);
    ASSERT_NE(f, nullptr);
    EXPECT_NE(f->summary.find("(2 GEMM, 1 softmax,"), std::string::npos) << f->summary;
    EXPECT_NE(f->suggestion.find("the score rows (1 x 16384 per head: a decode step's single "
                                 "query against 16384 keys)"),
              std::string::npos)
        << f->suggestion;
    EXPECT_EQ(f->suggestion.find("S x S"), std::string::npos) << f->suggestion;
  }
  // Math's GEMV (kernel<...>, cuBLAS's gemvx) keeps no tiles on chip: its low occupancy is no
  // design choice, though GEMV now counts among the GEMMs.
  const TraceAnalysis math = explain_example("decode/traces/sdpa-math.json.gz");
  for (const Finding& f : math.findings) {
    if (f.kind == FindingKind::kLowOccupancy && f.summary.starts_with("kernel<...>")) {
      EXPECT_EQ(f.suggestion.find("design choice"), std::string::npos) << f.suggestion;
    }
  }
  const TraceAnalysis shorter_analysis =
      explain_example("decode/default-shape/traces/naive.json.gz");
  const Finding* shorter = find(shorter_analysis, FindingKind::kNotFused);
  ASSERT_NE(shorter, nullptr);
  EXPECT_NE(shorter->suggestion.find("1 x 2048 per head"), std::string::npos);
  for (const char* square : {"study_naive.json.gz", "study_sdpa-math.json.gz"}) {
    const TraceAnalysis analysis = explain(square);
    const Finding* f = find(analysis, FindingKind::kNotFused);
    ASSERT_NE(f, nullptr) << square;
    EXPECT_NE(f->suggestion.find("without writing the S x S score matrix"), std::string::npos)
        << f->suggestion;
    EXPECT_NE(f->summary.find("(2 GEMM, 1 softmax,"), std::string::npos) << f->summary;
  }
}

// Findings are listed by the time they account for in the typical region, the largest first.
void expect_listed_by_explained_time(const TraceAnalysis& t) {
  for (size_t i = 1; i < t.findings.size(); ++i)
    EXPECT_GE(t.findings[i - 1].explains_ns, t.findings[i].explains_ns)
        << finding_id(t.findings[i - 1].kind) << " before " << finding_id(t.findings[i].kind);
}

// Llama's decode step is 94 % idle, held by the CPU: the findings about the CPU come first, each
// weighed by the CPU and launch time on the path; the wait by the host's waits on it; findings
// that say how work runs explain none and come last.
TEST(Findings, ADecodeStepHeldByTheCpuListsTheCpuFirst) {
  const TraceAnalysis t = explain("models/llama-decode-sdpa.json.gz", "ProfilerStep*");
  ASSERT_FALSE(t.findings.empty());
  expect_listed_by_explained_time(t);
  const CriticalPath& path = t.regions[static_cast<size_t>(t.typical_region)].critical_path;
  ASSERT_EQ(path.bound_by, "CPU");
  const double cpu_ns = static_cast<double>(path.categories.cpu_ns) +
                        static_cast<double>(path.categories.launch_overhead_ns);
  EXPECT_EQ(t.findings[0].kind, FindingKind::kCpuSideCost);
  EXPECT_EQ(t.findings[0].explains_ns, cpu_ns);
  EXPECT_GT(t.findings[0].explains_ns, 0.9 * static_cast<double>(path.length_ns));
  const Finding* launch = find(t, FindingKind::kLaunchBound);
  ASSERT_NE(launch, nullptr);
  EXPECT_EQ(launch->explains_ns, cpu_ns);
  const Finding* wait = find(t, FindingKind::kSynchronization);
  ASSERT_NE(wait, nullptr);
  EXPECT_EQ(wait->explains_ns, static_cast<double>(path.categories.sync_ns));
  EXPECT_EQ(find(t, FindingKind::kLaunchKernelEx)->explains_ns, -1);
  EXPECT_EQ(t.findings.back().kind, FindingKind::kLaunchKernelEx);
}

// GPT-2's train step is CPU-bound too: launch-bound leads; the hidden copy under masked_fill,
// whose weight is its copies' GPU time, comes after it, and that time is the typical region's
// device-to-device copies under aten::masked_fill.
TEST(Findings, ATrainStepListsLaunchBoundBeforeItsHiddenCopy) {
  const TraceAnalysis t = explain("train_step.json.gz", "ProfilerStep*");
  expect_listed_by_explained_time(t);
  const RegionSummary& typical = t.regions[static_cast<size_t>(t.typical_region)];
  const CriticalPath& path = typical.critical_path;
  const Finding* launch = find(t, FindingKind::kLaunchBound);
  const Finding* copy = find(t, FindingKind::kHiddenCopy);
  ASSERT_NE(launch, nullptr);
  ASSERT_NE(copy, nullptr);
  EXPECT_EQ(launch->explains_ns,
            static_cast<double>(path.categories.cpu_ns + path.categories.launch_overhead_ns));
  EXPECT_LT(launch - t.findings.data(), copy - t.findings.data());
  double copies_ns = 0;
  for (const ActivityRow& a : typical.activities)
    if (a.memcpy_kind == "DtoD" &&
        std::find(a.op_chain.begin(), a.op_chain.end(), "aten::masked_fill") != a.op_chain.end())
      copies_ns += static_cast<double>(a.duration_ns);
  EXPECT_GT(copies_ns, 0);
  EXPECT_EQ(copy->explains_ns, copies_ns);
}

}  // namespace
}  // namespace attnprof
