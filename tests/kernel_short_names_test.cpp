// Kernel names on every recorded trace of tests/data: mangled names (`_Z...`) are demangled
// before they are shortened, so no short name is still mangled
// (src/analysis/kernels/kernel_names.h).

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include <gtest/gtest.h>

#include "analysis/kernels/kernel_names.h"
#include "reader/read_trace.h"
#include "test_support.h"

namespace attnprof {
namespace {

TEST(KernelShortNames, NoShortNameIsStillMangledOnAnyFixture) {
  size_t traces = 0, mangled = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(testing::fixture(""))) {
    const std::string path = entry.path().string();
    if (!entry.is_regular_file() || !path.ends_with(".json.gz") ||
        path.find("fuzz-regressions") != std::string::npos)
      continue;
    auto trace = read_trace(path, Limits{});
    if (!trace.ok()) continue;  // the odd and hostile fixtures that must fail
    ++traces;
    std::set<StringId> names;
    for (const GpuActivity& a : trace->gpu_activities)
      if (a.kind == GpuKind::kKernel) names.insert(a.name);
    for (StringId id : names) {
      const std::string_view full = trace->strings.view(id);
      const std::string short_name = short_kernel_name(full);
      EXPECT_FALSE(short_name.starts_with("_Z")) << path << ": " << full;
      EXPECT_EQ(short_name.find("_ZN"), std::string::npos) << path << ": " << full;
      if (full.starts_with("_Z")) ++mangled;
    }
  }
  EXPECT_GT(traces, 30u);
  // The recorded traces do hold mangled names (Triton's, CUTLASS's): the check is not empty.
  EXPECT_GT(mangled, 0u);
}

// The two forms that did not demangle before (found by the test above): a name cut short in the
// middle of its template arguments, and NVCC's file-static prefix.
TEST(KernelShortNames, CutAndFileStaticNames) {
  EXPECT_EQ(
      short_kernel_name("_ZN17cutlass__5x_cudnn6KernelINS_4conv6kernel23ImplicitGemmConvolut"),
      "Kernel<...>");
  EXPECT_EQ(short_kernel_name("__nv_static_32__b4148644_10_onerank_cu_fdf47990__ZN43_GLOBAL__N__"
                              "b4148644_10_onerank_cu_fdf4799013oneRankReduceI13FuncPreMulSumI13__"
                              "nv_bfloat16EEEvPvS4_mmb"),
            "oneRankReduce<...>");
  EXPECT_EQ(short_kernel_name("_Z3addPfS_"), "add");
}

}  // namespace
}  // namespace attnprof
