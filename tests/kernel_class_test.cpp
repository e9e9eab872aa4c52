// Kernel classes (analysis/kernels/kernel_class.h) on the kernel names of the real H200 traces, and
// the order of the rules where two could apply.

#include <gtest/gtest.h>

#include "analysis/kernels/inductor_kernel.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/kernels/kernel_names.h"
#include "analysis/regions/region_metrics.h"
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

// Inductor's kernels by what their names say they fuse (analysis/kernels/inductor_kernel.h), on the
// names of the compiled traces of tests/data/graphs and models.
TEST(KernelClass, InductorKernelsByWhatTheyFuse) {
  const std::pair<const char*, KernelClass> cases[] = {
      // the compiled naive attention's fused scale, mask and softmax
      {"triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_0",
       KernelClass::kSoftmax},
      // the reduce-overhead decode: RMSNorm is a reduction, SiLU a pointwise op, a cast with a
      // broadcast only moves data, the rotary embedding beside SDPA is pointwise work, not
      // attention
      {"triton_per_fused__to_copy__unsafe_view_add_embedding_mean_mul_pow_rsqrt_10",
       KernelClass::kReduction},
      {"triton_red_fused__to_copy_add_embedding_mean_mul_pow_rsqrt_0", KernelClass::kReduction},
      {"triton_poi_fused__unsafe_view_mul_silu_8", KernelClass::kElementwise},
      {"triton_poi_fused__to_copy_expand_unsqueeze_1", KernelClass::kCopy},
      {"triton_poi_fused__unsafe_view_add_arange_index_copy_transpose_view_3",
       KernelClass::kElementwise},
      {"triton_poi_fused_add_copy__12", KernelClass::kElementwise},
      {"triton_poi_fused__scaled_dot_product_cudnn_attention__to_copy__unsafe_view_add_arange_cat_"
       "clone_cos_expand_le_mul_neg_scalar_tensor_sin_slice_transpose_unsqueeze_view_where_4",
       KernelClass::kElementwise},
      {"triton_poi_fused__to_copy_clone_slice_sum_transpose_4", KernelClass::kElementwise},
      {"triton_per_fused__to_copy_clone_slice_sort_transpose_3", KernelClass::kReduction},
      // templates: a matmul is a GEMM, FlexAttention's is attention, its split-KV combine a
      // reduction
      {"triton_tem_fused_mm_0", KernelClass::kGemm},
      {"triton_tem_fused_addmm_1", KernelClass::kGemm},
      {"triton_tem_fused_flex_attention_0", KernelClass::kFusedAttention},
      {"triton_red_fused_flex_attention_1", KernelClass::kReduction},
      {"triton_tem_fused_convolution_0", KernelClass::kOther},
  };
  for (const auto& [name, expected] : cases)
    EXPECT_EQ(classify_kernel(name, name), expected) << name;
}

// Whole op names only: the fused list cannot be split exactly (masked_fill has an underscore), so
// an op is found where its name stands between underscores, never inside a word.
TEST(KernelClass, InductorNamesListTheirOpsWhole) {
  auto k = parse_inductor_kernel(
      "triton_per_fused__softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view_0");
  ASSERT_TRUE(k.has_value());
  EXPECT_EQ(k->kind, InductorKind::kPersistentReduction);
  EXPECT_EQ(k->fused, "_softmax_exp_masked_fill_mul_prepare_softmax_online_sub_view");
  EXPECT_TRUE(k->fuses("masked_fill"));
  EXPECT_TRUE(k->fuses("_softmax"));
  EXPECT_TRUE(k->fuses("view"));
  EXPECT_FALSE(k->fuses("mask"));
  // What cannot be told: masked_fill's second word reads as an op of its own.
  EXPECT_TRUE(k->fuses("fill"));
  EXPECT_FALSE(k->fuses("ex"));
  EXPECT_TRUE(k->fuses_softmax());
  EXPECT_FALSE(k->only_moves_data());
  auto copy = parse_inductor_kernel("triton_poi_fused_add_copy__12");
  ASSERT_TRUE(copy.has_value());
  EXPECT_EQ(copy->fused, "add_copy_");
  EXPECT_TRUE(copy->fuses("copy_"));
  EXPECT_FALSE(parse_inductor_kernel("softmax_warp_forward").has_value());
  EXPECT_FALSE(parse_inductor_kernel("triton_red_0")->fuses("red"));
}

}  // namespace
}  // namespace attnprof
