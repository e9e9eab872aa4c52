// Kernel classes (analysis/kernel_class.h) on the kernel names of the real H200 traces, and the
// order of the rules where two could apply.

#include <gtest/gtest.h>

#include "analysis/kernel_class.h"
#include "analysis/kernel_names.h"
#include "analysis/region_metrics.h"
#include "test_support.h"

namespace attnprof {
namespace {

using testing::analyze_fixture;

// short name -> class, for every activity of the typical region.
std::vector<std::pair<std::string, KernelClass>> classes_of(const std::string& fixture,
                                                            const std::string& region) {
  TraceAnalysis t = analyze_fixture(fixture, region);
  std::vector<std::pair<std::string, KernelClass>> out;
  for (const auto& a : t.regions[t.typical_region].activities)
    out.emplace_back(a.short_name, classify_activity(a));
  return out;
}

KernelClass class_of(const std::vector<std::pair<std::string, KernelClass>>& list,
                     std::string_view needle) {
  for (const auto& [name, c] : list)
    if (name.find(needle) != std::string::npos) return c;
  ADD_FAILURE() << "no activity named like " << needle;
  return KernelClass::kOther;
}

TEST(KernelClass, NaiveAttentionForward) {
  auto list = classes_of("study_naive.json.gz", "forward");
  ASSERT_EQ(list.size(), 7u);
  EXPECT_EQ(list[0].second, KernelClass::kMemset);  // cuBLAS workspace flag
  EXPECT_EQ(list[1].second, KernelClass::kGemm);    // nvjet_sm90_tst_256x128...
  EXPECT_EQ(list[2].second,
            KernelClass::kElementwise);           // vectorized_elementwise_kernel [MulFunctor]
  EXPECT_EQ(list[3].second, KernelClass::kCopy);  // Memcpy DtoD
  EXPECT_EQ(list[4].second, KernelClass::kElementwise);  // elementwise_kernel [masked_fill_kernel]
  EXPECT_EQ(list[5].second, KernelClass::kSoftmax);      // softmax_warp_forward
  EXPECT_EQ(list[6].second, KernelClass::kGemm);         // nvjet_sm90_tst_64x512...
}

TEST(KernelClass, MathBackendKernels) {
  auto list = classes_of("study_sdpa-math.json.gz", "forward");
  EXPECT_EQ(class_of(list, "sm80_xmma_gemm_f32f32"), KernelClass::kGemm);
  EXPECT_EQ(class_of(list, "triu_tril_kernel"), KernelClass::kMask);
  EXPECT_EQ(class_of(list, "[and_kernel_cuda]"), KernelClass::kReduction);
  EXPECT_EQ(class_of(list, "[direct_copy_kernel_cuda]"), KernelClass::kCopy);
  EXPECT_EQ(class_of(list, "[bfloat16_copy_kernel_cuda]"), KernelClass::kCopy);
  EXPECT_EQ(class_of(list, "[CUDAFunctor_add]"), KernelClass::kElementwise);
  EXPECT_EQ(class_of(list, "[FillFunctor]"), KernelClass::kElementwise);
  EXPECT_EQ(class_of(list, "softmax_warp_forward"), KernelClass::kSoftmax);
}

TEST(KernelClass, EachFusedBackendIsFusedAttention) {
  for (const char* file :
       {"study_sdpa-efficient.json.gz", "study_sdpa-flash.json.gz", "study_sdpa-cudnn.json.gz"}) {
    SCOPED_TRACE(file);
    auto list = classes_of(file, "forward");
    int fused = 0;
    for (const auto& [name, c] : list) fused += c == KernelClass::kFusedAttention;
    EXPECT_EQ(fused, 1);
  }
}

TEST(KernelClass, TrainingStepKernels) {
  auto list = classes_of("train_step.json.gz", "");
  EXPECT_EQ(class_of(list, "softmax_warp_backward"), KernelClass::kSoftmax);
  EXPECT_EQ(class_of(list, "multi_tensor_apply_kernel"), KernelClass::kElementwise);
  EXPECT_EQ(class_of(list, "CatArrayBatchedCopy"), KernelClass::kCopy);
  EXPECT_EQ(class_of(list, "[MeanOps]"), KernelClass::kReduction);
  EXPECT_EQ(class_of(list, "nvjet_sm90_tst_128x64_64x8_1x2_h_bz_bias_TNT"), KernelClass::kGemm);
}

TEST(KernelClass, AttentionRulesComeBeforeGemmRules) {
  // The memory-efficient kernel is built from CUTLASS and its full name says so.
  EXPECT_EQ(classify_kernel(
                "fmha_cutlassF_bf16_aligned_64x64_rf_sm80",
                "fmha_cutlassF_bf16_aligned_64x64_rf_sm80(PyTorchMemEffAttention::AttentionKernel<"
                "cutlass::bfloat16_t, cutlass::arch::Sm80, true, 64, 64, 64, true, true>::Params)"),
            KernelClass::kFusedAttention);
  // A CUTLASS GEMM whose short name folds the gemm away into a template argument.
  EXPECT_EQ(
      classify_kernel(
          "Kernel2<...>",
          "void cutlass::Kernel2<cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_"
          "align8>(cutlass_80_tensorop_bf16_s16816gemm_relu_bf16_64x64_32x6_tn_align8::Params)"),
      KernelClass::kGemm);
  EXPECT_EQ(classify_kernel("flash_fwd_splitkv_kernel<...>", ""), KernelClass::kFusedAttention);
  EXPECT_EQ(classify_kernel("cunn_SoftMaxForward<...>", ""), KernelClass::kSoftmax);
  EXPECT_EQ(classify_kernel("some_custom_kernel", "some_custom_kernel"), KernelClass::kOther);
}

TEST(KernelClass, LabelsAndIds) {
  EXPECT_EQ(kernel_class_label(KernelClass::kFusedAttention), "fused attention");
  EXPECT_EQ(kernel_class_id(KernelClass::kFusedAttention), "fused_attention");
  EXPECT_EQ(kernel_class_id(KernelClass::kGemm), "gemm");
  for (KernelClass c : kAllKernelClasses)
    EXPECT_EQ(kernel_class_id(c).find(' '), std::string_view::npos);
}

// The class totals are facts of every region, whether or not the analysis lists every region's
// activities (it lists the typical one's by default).
TEST(KernelClass, RegionFactsCountEachClassInEveryRegion) {
  const RegionFacts m = analyze_fixture("study_naive.json.gz", "forward", false).facts;
  EXPECT_EQ(m.regions, 3);
  const auto gemm = static_cast<size_t>(KernelClass::kGemm);
  EXPECT_EQ(m.by_class[gemm].count.count, 3);
  const RegionFacts listed = analyze_fixture("study_naive.json.gz", "forward", true).facts;
  EXPECT_EQ(listed.by_class[gemm].time_ns.median, m.by_class[gemm].time_ns.median);
  EXPECT_GT(m.by_class[gemm].time_ns.median, 0);
  auto count = [&m](KernelClass c) { return m.by_class[static_cast<size_t>(c)].count.median; };
  EXPECT_EQ(count(KernelClass::kGemm), 2);
  EXPECT_EQ(count(KernelClass::kElementwise), 2);
  EXPECT_EQ(count(KernelClass::kSoftmax), 1);
  EXPECT_EQ(count(KernelClass::kCopy), 1);
  EXPECT_EQ(count(KernelClass::kMemset), 1);
  EXPECT_EQ(count(KernelClass::kFusedAttention), 0);
}

// Collective kernels as NCCL 2.18+ (ncclDevKernel_*), older NCCL and RCCL (ncclKernel_*) and HCCL
// name them: communication, before the reduction and copy rules their names would otherwise meet.
TEST(KernelClass, CollectivesAreCommunication) {
  for (const char* name :
       {"ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)",
        "ncclDevKernel_ReduceScatter_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
        "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
        "void ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
        "rcclKernel_copy_AllToAll", "hccl_all_reduce_f32"}) {
    EXPECT_EQ(classify_kernel(short_kernel_name(name), name), KernelClass::kCommunication) << name;
  }
  // A name that only resembles one stays what it is.
  EXPECT_EQ(classify_kernel("reduce_kernel [MeanOps]", "void at::native::reduce_kernel<512, 1>"),
            KernelClass::kReduction);
  EXPECT_EQ(kernel_class_id(KernelClass::kCommunication), "communication");
}

}  // namespace
}  // namespace attnprof
