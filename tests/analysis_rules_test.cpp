// Golden tests of the analysis rules on tiny inline cases: names, occupancy, regions.

#include <gtest/gtest.h>

#include "analysis/kernels/kernel_names.h"
#include "analysis/kernels/occupancy.h"
#include "analysis/regions/regions.h"
#include "analysis/summarize.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

TEST(KernelNames, FoldTemplatesAndKeepTheFunctor) {
  EXPECT_EQ(
      short_kernel_name(
          "void at::native::vectorized_elementwise_kernel<8, "
          "at::native::AUnaryFunctor<c10::BFloat16, "
          "c10::BFloat16, c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, "
          "std::array<char*, 2ul> >(int, at::native::AUnaryFunctor<c10::BFloat16, c10::BFloat16, "
          "c10::BFloat16, at::native::binary_internal::MulFunctor<float> >, std::array<char*, "
          "2ul>)"),
      "vectorized_elementwise_kernel<...> [MulFunctor]");
  EXPECT_EQ(short_kernel_name("void (anonymous namespace)::softmax_warp_forward<c10::BFloat16, "
                              "c10::BFloat16, float, 11, false, false>(c10::BFloat16*, int)"),
            "softmax_warp_forward<...>");
  EXPECT_EQ(
      short_kernel_name("fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::"
                        "AttentionKernel<cutlass::bfloat16_t, cutlass::arch::Sm80, true>::Params)"),
      "fmha_cutlassF_bf16_aligned_64x64_rf_sm80");
  EXPECT_EQ(short_kernel_name("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT"),
            "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_TNT");
  // Mangled names are demangled first.
  EXPECT_EQ(short_kernel_name("_ZN2at6native13reduce_kernelILi512ELi1EEEvv"), "reduce_kernel<...>");
}

// CUTLASS's and cuDNN's entry points are one template each: the operator they run (its tile,
// architecture and layout) is what tells two GEMMs apart, as the ranks fixtures' sgemms show.
TEST(KernelNames, GenericEntryPointsNameTheirOperator) {
  EXPECT_EQ(short_kernel_name("void cutlass::Kernel2<cutlass_80_simt_sgemm_128x256_8x4_nt_align1>("
                              "cutlass_80_simt_sgemm_128x256_8x4_nt_align1::Params)"),
            "Kernel2<...> [cutlass_80_simt_sgemm_128x256_8x4_nt_align1]");
  EXPECT_NE(short_kernel_name("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>("
                              "cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)"),
            short_kernel_name("void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nt_align1>("
                              "cutlass_80_simt_sgemm_64x64_8x5_nt_align1::Params)"));
  EXPECT_EQ(short_kernel_name("void cutlass__5x_cudnn::Kernel<cutlass__5x_cudnn::reduction::"
                              "kernel::ReduceSplitK<cutlass__5x_cudnn::MatrixShape<4, 128>, "
                              "float> >(float::Params)"),
            "Kernel<...> [ReduceSplitK]");
  // A type argument names no operator: the functor rule applies as before.
  EXPECT_EQ(short_kernel_name("void gemvx::kernel<int, int, float, float>(float*)"), "kernel<...>");
}

TEST(KernelNames, MemcpyKinds) {
  EXPECT_EQ(memcpy_kind("Memcpy DtoD (Device -> Device)"), "DtoD");
  EXPECT_EQ(memcpy_kind("Memcpy HtoD (Pageable -> Device)"), "HtoD");
  EXPECT_EQ(memcpy_kind("Memcpy DtoH (Device -> Pinned)"), "DtoH");
  EXPECT_EQ(memcpy_kind("cudaMemcpy"), "other");
}

DeviceProperties h200() {
  DeviceProperties d;
  d.vendor = DeviceVendor::kNvidia;
  d.sm_count = 132;
  d.max_threads_per_sm = 2048;
  d.regs_per_sm = 65536;
  d.shared_memory_per_sm = 233472;
  d.warp_size = 32;
  return d;
}

GpuActivity kernel(std::array<int32_t, 3> grid, std::array<int32_t, 3> block, int regs,
                   int shared) {
  GpuActivity k;
  k.kind = GpuKind::kKernel;
  k.grid = grid;
  k.block = block;
  k.registers_per_thread = regs;
  k.shared_memory = shared;
  return k;
}

TEST(Occupancy, MatchesKinetoWhereKinetoKnows) {
  // Values Kineto wrote in the H200 fixtures: 38% softmax, 25% fmha, 13% flash (12.5 rounded).
  auto softmax = estimate_occupancy(kernel({32768, 1, 1}, {32, 4, 1}, 80, 0), h200());
  ASSERT_TRUE(softmax);
  EXPECT_NEAR(softmax->achieved_pct, 37.5, 1e-9);
  EXPECT_EQ(softmax->limiter, "registers");
  auto fmha = estimate_occupancy(kernel({32, 16, 4}, {32, 4, 1}, 128, 18944), h200());
  EXPECT_NEAR(fmha->achieved_pct, 25.0, 1e-9);
  auto flash = estimate_occupancy(kernel({16, 4, 16}, {128, 1, 1}, 255, 49152), h200());
  EXPECT_NEAR(flash->achieved_pct, 12.5, 1e-9);
}

TEST(Occupancy, SmallGridsCapTheAchievedFigure) {
  // 16 blocks of 2 warps over 132 SMs: far fewer blocks than SMs.
  auto e = estimate_occupancy(kernel({16, 1, 1}, {64, 1, 1}, 16, 0), h200());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->limiter, "grid");
  EXPECT_NEAR(e->achieved_pct, 100.0 * 16 / 132 * 2 / 64, 1e-9);
  EXPECT_GT(e->theoretical_pct, 50.0);
}

TEST(Occupancy, SharedMemoryLimit) {
  auto e = estimate_occupancy(kernel({1000, 1, 1}, {128, 1, 1}, 32, 100000), h200());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->blocks_per_sm, 2);  // 233472 / (100000 + 1024)
  EXPECT_EQ(e->limiter, "shared memory");
}

TEST(Occupancy, UnknownInputsGiveNoFigure) {
  // Once a [0,0,0] grid (a kernel without "grid") read 100 %, and a missing register count as
  // none used: without every input there is no estimate.
  EXPECT_FALSE(estimate_occupancy(kernel({0, 0, 0}, {128, 1, 1}, 32, 0), h200()));
  EXPECT_FALSE(estimate_occupancy(kernel({-1, -1, -1}, {128, 1, 1}, 32, 0), h200()));
  EXPECT_FALSE(estimate_occupancy(kernel({64, 1, 1}, {-1, -1, -1}, 32, 0), h200()));
  EXPECT_FALSE(estimate_occupancy(kernel({64, 1, 1}, {128, 1, 1}, -1, 0), h200()));
  EXPECT_FALSE(estimate_occupancy(kernel({64, 1, 1}, {128, 1, 1}, 32, -1), h200()));
  // CUDA's rules are not an AMD GPU's (wavefronts of 64, another register file).
  DeviceProperties mi250 = h200();
  mi250.vendor = DeviceVendor::kAmd;
  mi250.warp_size = 64;
  EXPECT_FALSE(estimate_occupancy(kernel({64, 1, 1}, {128, 1, 1}, 32, 0), mi250));
  EXPECT_TRUE(estimate_occupancy(kernel({64, 1, 1}, {128, 1, 1}, 32, 0), h200()));
}

TEST(Regions, GlobMatching) {
  EXPECT_TRUE(glob_match("ProfilerStep#*", "ProfilerStep#12"));
  EXPECT_FALSE(glob_match("ProfilerStep#*", "forward"));
  EXPECT_TRUE(glob_match("f?rward", "forward"));
  EXPECT_TRUE(glob_match("*", ""));
  EXPECT_FALSE(glob_match("forward", "forward2"));
}

TEST(Regions, KernelsLaunchedFromAnotherThreadBelongToTheStepByTime) {
  // The step is annotated on thread 1; backward's kernel is launched on thread 2 (autograd);
  // a kernel launched after the step ends belongs to no step; another process's is not ours.
  testing::TempFile file("step.json", R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#0", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 10, "dur": 1, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 50, "dur": 1, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 120, "dur": 1, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 2, "tid": 5, "ts": 20, "dur": 1, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 20, "dur": 10, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 110, "dur": 10, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "c", "pid": 0, "tid": 7, "ts": 130, "dur": 10, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "d", "pid": 1, "tid": 7, "ts": 25, "dur": 10, "args": {"correlation": 4}}
  ]})json");
  auto trace = read_trace(file.path(), Limits{});
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  TraceAnalysis t = summarize_trace(*trace, AnalyzeOptions{});
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_EQ(t.regions[0].kernels, 2);  // a and b: b ran on the GPU after the step, yet is its work
  EXPECT_EQ(t.regions[0].gpu_busy_ns, 20000);
  ASSERT_EQ(t.regions[0].activities.size(), 2u);
  EXPECT_EQ(t.regions[0].activities[1].name, "b");
  EXPECT_EQ(t.regions[0].activities[1].start_ns, 110000);
}

TEST(Regions, NestedRegionsOfOneNameEachHoldTheirMembers) {
  // One long `forward` around two short ones (modules that each annotate "forward"), a second
  // process's launch inside them, and a kernel without a launch, placed by its own time. The
  // sweep that replaced the walk back over earlier regions (docs/SECURITY.md) must place each the
  // same.
  testing::TempFile file("nested.json", R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 1000},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 10, "dur": 90},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "aten::a", "pid": 1, "tid": 1, "ts": 40, "dur": 20},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 50, "dur": 1, "args": {"correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 2, "ts": 250, "dur": 1, "args": {"correlation": 2}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 500, "dur": 1, "args": {"correlation": 3}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 2, "tid": 5, "ts": 60, "dur": 1, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "a", "pid": 0, "tid": 7, "ts": 900, "dur": 10, "args": {"correlation": 1}},
    {"ph": "X", "cat": "kernel", "name": "b", "pid": 0, "tid": 7, "ts": 260, "dur": 10, "args": {"correlation": 2}},
    {"ph": "X", "cat": "kernel", "name": "c", "pid": 0, "tid": 7, "ts": 510, "dur": 10, "args": {"correlation": 3}},
    {"ph": "X", "cat": "kernel", "name": "d", "pid": 1, "tid": 7, "ts": 70, "dur": 10, "args": {"correlation": 4}},
    {"ph": "X", "cat": "kernel", "name": "e", "pid": 0, "tid": 7, "ts": 20, "dur": 5, "args": {"correlation": 99}}
  ]})json");
  auto trace = read_trace(file.path(), Limits{});
  ASSERT_TRUE(trace.ok()) << trace.error().message;
  RegionSet set = find_regions(*trace, "forward");
  ASSERT_EQ(set.regions.size(), 3u);
  RegionMembers members = assign_to_regions(*trace, set);
  auto names = [&](size_t r) {
    std::string out;
    for (GpuActivityId g : members.activities(r))
      out += trace->strings.view(trace->gpu_activities[g].name);
    return out;
  };
  // In GPU start order; d is process 2's. e has no launch in the trace (correlation 99), so it
  // is in no region (placing it by its start time put work of before the trace into
  // the first step).
  EXPECT_EQ(names(0), "bca");
  EXPECT_EQ(names(1), "a");
  EXPECT_EQ(names(2), "b");
  ASSERT_EQ(members.top_level_ops(0).size(), 1u);
  ASSERT_EQ(members.top_level_ops(1).size(), 1u);
  EXPECT_TRUE(members.top_level_ops(2).empty());
}

TEST(Regions, MediansOverAnEvenNumberOfRegionsAndTheTypicalOne) {
  testing::TempFile file("steps.json", R"json({"traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 0, "dur": 10},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 20, "dur": 20},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 50, "dur": 30},
    {"ph": "X", "cat": "user_annotation", "name": "forward", "pid": 1, "tid": 1, "ts": 90, "dur": 1000}
  ]})json");
  auto trace = read_trace(file.path(), Limits{});
  ASSERT_TRUE(trace.ok());
  AnalyzeOptions options;
  options.region_pattern = "forward";
  TraceAnalysis t = summarize_trace(*trace, options);
  ASSERT_EQ(t.regions.size(), 4u);
  EXPECT_EQ(t.facts.wall_ns.median, 25000);  // (20 + 30) / 2 us: the outlier does not move it
}

}  // namespace
}  // namespace attnprof
