// Kernel counts read from the bench's own traces of the study's default problem (bf16, batch 4,
// 16 heads, seq 2048, head dim 64, causal): what docs/STUDY.md's table says each variant shows.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "gpu_test_support.h"
#include "gzip_file.h"
#include "study.h"
#include "trace_facts.h"

namespace attnprof::bench {
namespace {

using testing::quick_settings;
using testing::test_folder;

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

// Runs each variant once with a trace, gzips it as the study does, and reads its `forward`
// regions with the core. Shared by the tests of this file: recording is the slow part.
class StudyTraces : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    if (!query_device(DeviceKind::kCuda).available) return;
    // One folder per process: CTest may run this suite's tests in parallel processes.
    folder_ = std::filesystem::temp_directory_path() /
              ("attnprof_bench_traces." + std::to_string(getpid()));
    const auto& folder = folder_;
    std::filesystem::create_directories(folder);
    const Problem study;  // the defaults are the study's problem
    for (Variant v : kAllVariants) {
      const std::string stem = (folder / std::string(name(v))).string();
      const VariantMeasurement m = run_variant(v, study, quick_settings(stem + ".json"), {});
      ASSERT_EQ(m.status, VariantStatus::kOk) << name(v) << ": " << m.reason;
      ASSERT_FALSE(m.trace_json_path.empty());
      const Status gzipped = gzip_file(m.trace_json_path, stem + ".json.gz");
      ASSERT_TRUE(gzipped.ok()) << gzipped.error().message;
      Result<TraceReading> reading = read_trace_facts(stem + ".json.gz", /*backward=*/false);
      ASSERT_TRUE(reading.ok()) << reading.error().message;
      facts_[v] = reading->forward.facts;
    }
  }
  static void TearDownTestSuite() { testing::remove_tree(folder_); }
  void SetUp() override {
    ATTNPROF_REQUIRE_CUDA();
    ASSERT_EQ(facts_.size(), kAllVariants.size()) << "recording the traces failed (see above)";
  }
  static const RegionFacts& of(Variant v) { return facts_.at(v); }
  static const MainKernel& main_of(Variant v) {
    static const MainKernel none;
    const RegionFacts& f = facts_.at(v);
    return f.main_kernel ? *f.main_kernel : none;
  }

 private:
  static inline std::filesystem::path folder_;
  static inline std::map<Variant, RegionFacts> facts_;
};

TEST_F(StudyTraces, EachTraceHoldsTheRecordedForwardRegions) {
  for (Variant v : kAllVariants) {
    SCOPED_TRACE(name(v));
    EXPECT_EQ(of(v).regions, quick_settings().trace_iterations);
    EXPECT_GT(of(v).gpu_busy_ns.median, 0.0);
    EXPECT_GT(of(v).cpu_ns.median, 0.0);
    EXPECT_FALSE(main_of(v).short_name.empty());
    EXPECT_FALSE(main_of(v).launch_api.empty());
  }
}

TEST_F(StudyTraces, NaiveHasTheHiddenDeviceCopyThatInplaceRemoves) {
  const RegionFacts& naive = of(Variant::kNaive);
  const RegionFacts& inplace = of(Variant::kInplace);
  EXPECT_EQ(naive.memcpy_by_kind.count("DtoD") ? naive.memcpy_by_kind.at("DtoD").median : 0.0, 1.0);
  EXPECT_EQ(inplace.memcpy.median, 0.0);
  // The copy is a memcpy, not a kernel: the kernels are the same five (bmm, mul, masked_fill,
  // softmax, bmm on the H200 fixtures).
  EXPECT_EQ(naive.kernels.median, inplace.kernels.median);
  EXPECT_GE(naive.kernels.median, 5.0);
}

TEST_F(StudyTraces, FusedBackendsRunOneKernel) {
  EXPECT_EQ(of(Variant::kSdpaEfficient).kernels.median, 1.0);
  EXPECT_NE(lower(main_of(Variant::kSdpaEfficient).short_name).find("fmha"), std::string::npos)
      << main_of(Variant::kSdpaEfficient).short_name;
  EXPECT_EQ(of(Variant::kSdpaFlash).kernels.median, 1.0);
  EXPECT_NE(lower(main_of(Variant::kSdpaFlash).short_name).find("flash"), std::string::npos)
      << main_of(Variant::kSdpaFlash).short_name;
  EXPECT_EQ(of(Variant::kSdpaCudnn).kernels.median, 1.0);
  EXPECT_NE(lower(main_of(Variant::kSdpaCudnn).short_name).find("cudnn"), std::string::npos)
      << main_of(Variant::kSdpaCudnn).short_name;
}

TEST_F(StudyTraces, CudnnLaunchesWithCuLaunchKernelEx) {
  EXPECT_EQ(main_of(Variant::kSdpaCudnn).launch_api, "cuLaunchKernelEx");
}

TEST_F(StudyTraces, MathIsTheManyKernelReferencePath) {
  EXPECT_GE(of(Variant::kSdpaMath).kernels.median, 10.0);
}

TEST(Study, WritesTracesAndSummaries) {
  ATTNPROF_REQUIRE_CUDA();
  const auto folder = test_folder();
  StudyOptions options;
  options.problem = testing::small_problem(Dtype::kBf16, MaskKind::kCausal);
  options.variants = {Variant::kNaive, Variant::kSdpaFlash};
  options.sweeps = {{"seq", {128, 256}}};
  options.out_dir = folder.string();
  options.settings = quick_settings();
  options.quiet = true;
  options.report = true;  // from the traces as the run read them
  ASSERT_EQ(run_study(options), kExitAllRan);
  for (const char* file : {"summary.json", "summary.md", "sweep.csv", "report.html",
                           "b2_h4_s128_d64/naive.json.gz", "b2_h4_s256_d64/sdpa-flash.json.gz"}) {
    EXPECT_TRUE(std::filesystem::exists(folder / file)) << file;
  }
  std::ifstream json(folder / "summary.json");
  std::stringstream text;
  text << json.rdbuf();
  EXPECT_NE(text.str().find("\"schemaVersion\": 2"), std::string::npos);
  // No plain JSON left behind: traces are kept compressed only.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder)) {
    if (entry.path().filename() != "summary.json") {
      EXPECT_NE(entry.path().extension(), ".json") << entry.path() << " (uncompressed)";
    }
    EXPECT_EQ(entry.path().string().find(".tmp."), std::string::npos) << entry.path();
  }
}

}  // namespace
}  // namespace attnprof::bench
