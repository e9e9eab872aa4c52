// End-to-end facts of the study, asserted on real traces recorded on an H200 with
// scripts/gpu/record_fixtures.py (tests/data/README.md). Every expected number here was read off
// the trace by hand (python3 -m json.tool and a count), not from attnprof's own output.

#include <gtest/gtest.h>

#include <algorithm>

#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

const ActivityRow* find_activity(const RegionSummary& r, std::string_view needle) {
  for (const auto& a : r.activities)
    if (a.name.find(needle) != std::string::npos) return &a;
  return nullptr;
}

TEST(StudyFixtures, NaiveHasOneHiddenDeviceCopyPerForwardFromMaskedFill) {
  TraceAnalysis t = analyze_fixture("study_naive.json.gz", "forward");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 5);  // bmm, mul, masked_fill, softmax, bmm
    EXPECT_EQ(r.memcpy, 1);
    EXPECT_EQ(r.memcpy_by_kind.at("DtoD"), 1);
    EXPECT_EQ(r.memset, 1);  // cuBLAS clears a 4-byte workspace flag before the first GEMM
    const ActivityRow* copy = find_activity(r, "Memcpy DtoD");
    ASSERT_NE(copy, nullptr);
    EXPECT_EQ(copy->launch_api, "cudaMemcpyAsync");
    ASSERT_GE(copy->op_chain.size(), 3u);
    EXPECT_EQ(copy->op_chain[0], "aten::masked_fill");
    EXPECT_EQ(copy->op_chain[1], "aten::clone");
    EXPECT_EQ(copy->op_chain[2], "aten::copy_");
    EXPECT_EQ(copy->bytes, int64_t{4} * 16 * 2048 * 2048 * 2);  // the bf16 score matrix
  }
  EXPECT_EQ(t.facts.memcpy.median, 1.0);
}

TEST(StudyFixtures, InPlaceHasNoCopy) {
  TraceAnalysis t = analyze_fixture("study_inplace.json.gz", "forward");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 5);
    EXPECT_EQ(r.memcpy, 0);
    EXPECT_EQ(find_activity(r, "Memcpy"), nullptr);
  }
}

TEST(StudyFixtures, SdpaMathRunsTwentyKernelsPerForward) {
  TraceAnalysis t = analyze_fixture("study_sdpa-math.json.gz", "forward");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 20);
    EXPECT_EQ(r.memcpy, 0);
    // The reference path rebuilds the causal mask on every call and computes in FP32.
    EXPECT_NE(find_activity(r, "triu_tril_kernel"), nullptr);
    EXPECT_NE(find_activity(r, "gemm_f32f32"), nullptr);
  }
}

TEST(StudyFixtures, EachFusedBackendRunsOneKernel) {
  struct Case {
    const char* file;
    const char* kernel;
    const char* launch_api;
  };
  for (const Case& c :
       {Case{"study_sdpa-efficient.json.gz", "fmha_cutlassF", "cudaLaunchKernel"},
        Case{"study_sdpa-flash.json.gz", "pytorch_flash::flash_fwd_kernel", "cudaLaunchKernel"},
        Case{"study_sdpa-cudnn.json.gz", "cudnn_generated_fort_native_sdpa", "cuLaunchKernelEx"}}) {
    SCOPED_TRACE(c.file);
    TraceAnalysis t = analyze_fixture(c.file, "forward");
    ASSERT_EQ(t.regions.size(), 3u);
    for (const auto& r : t.regions) {
      EXPECT_EQ(r.kernels, 1);
      EXPECT_EQ(r.memcpy, 0);
      const ActivityRow* k = find_activity(r, c.kernel);
      ASSERT_NE(k, nullptr);
      EXPECT_EQ(k->launch_api, c.launch_api);
      EXPECT_EQ(k->op_chain.front(), "aten::scaled_dot_product_attention");
    }
  }
}

TEST(StudyFixtures, CudnnKernelIsLaunchedByCuLaunchKernelExAndIsPersistent) {
  TraceAnalysis t = analyze_fixture("study_sdpa-cudnn.json.gz", "forward");
  const ActivityRow* k = find_activity(t.regions[0], "cudnn_generated");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->launch_api, "cuLaunchKernelEx");
  EXPECT_EQ(k->grid, (std::array<int32_t, 3>{132, 1, 1}));  // one block per SM of the H200
  EXPECT_EQ(k->block, (std::array<int32_t, 3>{384, 1, 1}));
  // Kineto cannot query occupancy for cuLaunchKernelEx and writes 0; ours: 12 of 64 warps.
  ASSERT_TRUE(k->kineto_occupancy_pct.has_value());
  EXPECT_EQ(*k->kineto_occupancy_pct, 0.0);
  ASSERT_TRUE(k->occupancy_pct.has_value());
  EXPECT_NEAR(*k->occupancy_pct, 18.75, 0.01);
}

TEST(StudyFixtures, FlashKernelCarriesItsEstimatedOccupancy) {
  TraceAnalysis t = analyze_fixture("study_sdpa-flash.json.gz", "forward");
  const ActivityRow* k = find_activity(t.regions[1], "flash_fwd_kernel");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->registers_per_thread, 255);
  EXPECT_EQ(k->shared_memory_bytes, 49152);
  EXPECT_EQ(k->grid, (std::array<int32_t, 3>{16, 4, 16}));
  EXPECT_EQ(k->block, (std::array<int32_t, 3>{128, 1, 1}));
  ASSERT_TRUE(k->kineto_occupancy_pct.has_value());
  EXPECT_EQ(*k->kineto_occupancy_pct, 13.0);  // as Kineto wrote it
  // 255 registers x 128 threads allow 2 blocks of 4 warps: 8 of 64 warps.
  ASSERT_TRUE(k->occupancy_pct.has_value());
  EXPECT_NEAR(*k->occupancy_pct, 12.5, 0.01);
  EXPECT_EQ(k->occupancy_limiter, "registers");
  EXPECT_EQ(k->short_name, "flash_fwd_kernel<...>");
}

TEST(StudyFixtures, ProfilerStepsAreTheDefaultRegions) {
  TraceAnalysis t = analyze_fixture("study_naive.json.gz");
  EXPECT_EQ(t.region_pattern, "ProfilerStep#*");
  ASSERT_EQ(t.regions.size(), 3u);
  EXPECT_EQ(t.regions[0].name, "ProfilerStep#2");
  EXPECT_EQ(t.regions[2].name, "ProfilerStep#4");
  // Hand-read from the trace: ProfilerStep#2 has ts 5145954783975.973 and dur 2471.802.
  EXPECT_EQ(t.regions[0].wall_ns, 2471802);
}

TEST(StudyFixtures, BackwardKernelsFromTheAutogradThreadCountInTheirStep) {
  TraceAnalysis t = analyze_fixture("train_step.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  // 88 GPU activities in the file over 2 steps: 38 kernels, 3 copies, 3 memsets per step.
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 38);
    EXPECT_EQ(r.memcpy, 3);
    EXPECT_EQ(r.memset, 3);
    const ActivityRow* softmax_backward = find_activity(r, "softmax_warp_backward");
    ASSERT_NE(softmax_backward, nullptr);
    EXPECT_EQ(softmax_backward->op_chain.front(),
              "autograd::engine::evaluate_function: SoftmaxBackward0");
  }
  // The backward annotation alone: it runs on the main thread, but the kernels of the backward
  // pass are launched from the autograd thread: they belong to it by time, in any thread.
  TraceAnalysis backward = analyze_fixture("train_step.json.gz", "backward");
  ASSERT_EQ(backward.regions.size(), 2u);
  EXPECT_GT(backward.regions[0].kernels, 10);
  EXPECT_EQ(t.rank, 0);
  EXPECT_EQ(t.world_size, 1);
  EXPECT_EQ(t.distributed_backend, "nccl");
}

TEST(StudyFixtures, CudaGraphKernelsAreTiedToTheirGraphLaunch) {
  TraceAnalysis t = analyze_fixture("cuda_graph.json.gz", "forward");
  ASSERT_EQ(t.regions.size(), 3u);
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 5);
    EXPECT_EQ(r.memcpy, 1);
    EXPECT_EQ(r.memset, 1);
    for (const auto& a : r.activities) {
      EXPECT_EQ(a.launch_api, "cudaGraphLaunch") << a.name;
      EXPECT_TRUE(a.op_chain.empty()) << "a graph replay has no ATen op above it";
    }
  }
}

TEST(StudyFixtures, CpuOnlyTraceHasRegionsAndNoGpuWork) {
  TraceAnalysis t = analyze_fixture("cpu_only.json.gz");
  ASSERT_EQ(t.regions.size(), 2u);
  for (const auto& r : t.regions) {
    EXPECT_EQ(r.kernels, 0);
    EXPECT_EQ(r.gpu_busy_ns, 0);
    EXPECT_GT(r.cpu_ns, 0);
    EXPECT_LE(r.cpu_ns, r.wall_ns);
  }
}

TEST(StudyFixtures, TraceSavedByTheCppProfilerReadsLikeThePythonOne) {
  // Recorded with torch::autograd::profiler::disableProfiler()->save() from C++: no
  // ProfilerStep, three `forward` annotations around SDPA pinned to cuDNN.
  TraceAnalysis t = analyze_fixture("cpp_sdpa_cudnn.json.gz");
  ASSERT_EQ(t.regions.size(), 1u);
  EXPECT_EQ(t.region_pattern, "");
  EXPECT_EQ(t.regions[0].kernels, 3);
  TraceAnalysis forward = analyze_fixture("cpp_sdpa_cudnn.json.gz", "forward");
  ASSERT_EQ(forward.regions.size(), 3u);
  for (const auto& r : forward.regions) EXPECT_EQ(r.kernels, 1);
}

}  // namespace
}  // namespace attnprof
