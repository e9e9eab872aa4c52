// `attnprof bench --custom`: the flag's reading and the library checks that come before any GPU
// work, on fake libraries built beside this test (fake_custom_kernel.cpp).

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "custom_kernel_loader.h"

namespace attnprof::bench {
namespace {

// One line that names the path: what the CLI prints before exiting with 2.
void expect_refusal(const Result<CustomKernel>& loaded, const std::string& path,
                    const std::string& words) {
  ASSERT_FALSE(loaded.ok());
  const std::string& message = loaded.error().message;
  EXPECT_EQ(loaded.error().kind, ErrorKind::kUsage);
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find(words), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

Result<CustomKernel> load(const std::string& path) {
  Result<CustomKernel> kernel = parse_custom_kernel(path);
  if (!kernel.ok()) return kernel;
  return load_custom_kernel(std::move(*kernel));
}

TEST(CustomKernelFlag, NamesTheRowAfterTheFileWithoutLibAndExtensions) {
  const auto kernel = parse_custom_kernel("build/libexample_attention.so.1");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_EQ(kernel->name, "example_attention");
  EXPECT_EQ(kernel->path, "build/libexample_attention.so.1");
  EXPECT_EQ(kernel->function, nullptr);  // not opened yet
}

TEST(CustomKernelFlag, NameEqualsPathNamesTheRow) {
  const auto kernel = parse_custom_kernel("mine=/opt/k/libattn.so");
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_EQ(kernel->name, "mine");
  EXPECT_EQ(kernel->path, "/opt/k/libattn.so");
}

TEST(CustomKernelFlag, RefusesNamesThatCannotNameAFileOrClashWithAVariant) {
  for (const char* bad : {"=lib.so", "a/b=lib.so", ".hidden=lib.so", "x y=lib.so", "name="}) {
    SCOPED_TRACE(bad);
    const auto kernel = parse_custom_kernel(bad);
    ASSERT_FALSE(kernel.ok());
    EXPECT_EQ(kernel.error().kind, ErrorKind::kUsage);
  }
  const auto clash = parse_custom_kernel("sdpa-flash=lib.so");
  ASSERT_FALSE(clash.ok());
  EXPECT_NE(clash.error().message.find("built-in variant"), std::string::npos);
}

TEST(CustomKernelLibrary, OpensALibraryOfTheRightVersionAndCallsIt) {
  const auto kernel = load(ATTNPROF_FAKE_GOOD);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_EQ(kernel->name, "fake_kernel_good");
  ASSERT_NE(kernel->function, nullptr);
  attnprof_attention_args args{};
  args.head_dim = 96;
  char reason[64] = {};
  EXPECT_EQ(kernel->function(&args, reason, sizeof reason), ATTNPROF_CUSTOM_UNSUPPORTED);
  EXPECT_STREQ(reason, "fake kernel: nothing runs here (head_dim 96)");
}

// The CUDA example (examples/custom-attention) opens without a GPU: its CUDA runtime is linked in
// statically and loads the driver only when it first launches.
TEST(CustomKernelLibrary, OpensTheExampleKernelWithoutAGpu) {
  if (std::string(ATTNPROF_EXAMPLE_KERNEL).empty())
    GTEST_SKIP() << "examples/custom-attention was not built (no CUDA compiler found)";
  const auto kernel = load(ATTNPROF_EXAMPLE_KERNEL);
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_EQ(kernel->name, "example_attention");
  // Its refusals come before any CUDA call.
  attnprof_attention_args args{};
  args.dtype = ATTNPROF_DTYPE_FP32;
  char reason[128] = {};
  EXPECT_EQ(kernel->function(&args, reason, sizeof reason), ATTNPROF_CUSTOM_UNSUPPORTED);
  EXPECT_STREQ(reason, "the example kernel has bf16 and fp16 versions only, no fp32");
  args.dtype = ATTNPROF_DTYPE_BF16;
  args.head_dim = 256;
  EXPECT_EQ(kernel->function(&args, reason, sizeof reason), ATTNPROF_CUSTOM_UNSUPPORTED);
  EXPECT_STREQ(reason, "the example kernel takes head dimensions up to 128");
}

TEST(CustomKernelLibrary, RefusesAMissingFile) {
  expect_refusal(load("/nonexistent/libattention.so"), "/nonexistent/libattention.so",
                 "no such file");
}

TEST(CustomKernelLibrary, RefusesAFolder) {
  expect_refusal(load(ATTNPROF_SOURCE_DIR), ATTNPROF_SOURCE_DIR, "not a file");
}

TEST(CustomKernelLibrary, RefusesAFileThatIsNoLibraryWithDlerrorsWords) {
  const std::string readme = std::string(ATTNPROF_SOURCE_DIR) + "/README.md";
  expect_refusal(load(readme), readme, "cannot load it:");
}

TEST(CustomKernelLibrary, RefusesALibraryWithoutTheVersionSymbol) {
  expect_refusal(load(ATTNPROF_FAKE_NO_VERSION), ATTNPROF_FAKE_NO_VERSION,
                 "exports no `attnprof_custom_attention_abi_version`");
}

TEST(CustomKernelLibrary, RefusesALibraryBuiltForAnotherAbiVersion) {
  expect_refusal(load(ATTNPROF_FAKE_FUTURE), ATTNPROF_FAKE_FUTURE,
                 "built for custom-kernel ABI version 99, but this attnprof speaks version 1");
}

TEST(CustomKernelLibrary, RefusesALibraryWithoutTheAttentionFunction) {
  expect_refusal(load(ATTNPROF_FAKE_NO_ENTRY), ATTNPROF_FAKE_NO_ENTRY,
                 "exports no `attnprof_custom_attention`");
}

// A file of the test's own, removed when the test ends.
class ScratchFile {
 public:
  ScratchFile(const std::string& name, const std::string& bytes)
      : path_(std::filesystem::temp_directory_path() /
              ("attnprof_loader_test_" + std::to_string(::getpid()) + "_" + name)) {
    std::ofstream(path_, std::ios::binary) << bytes;
  }
  ~ScratchFile() {
    std::error_code ignored;
    std::filesystem::remove(path_, ignored);
  }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

// An AOTInductor package is only recognized here (a zip archive named .pt2); the LibTorch half
// loads it with torch's package loader when its row runs.
TEST(CustomKernelPackage, AcceptsAZipArchiveNamedPt2) {
  const ScratchFile package("sdpa.pt2", std::string("PK\x03\x04", 4) + "rest of a zip");
  const auto kernel = load(package.path());
  ASSERT_TRUE(kernel.ok()) << kernel.error().message;
  EXPECT_TRUE(kernel->aoti_package);
  EXPECT_EQ(kernel->function, nullptr);
  EXPECT_NE(kernel->name.find("sdpa"), std::string::npos) << kernel->name;
}

TEST(CustomKernelPackage, RefusesAPt2ThatIsNoZipArchive) {
  const ScratchFile package("fake.pt2", "not a zip archive");
  expect_refusal(load(package.path()), package.path(), "not an AOTInductor package");
}

TEST(CustomKernelPackage, RefusesAMissingPackage) {
  expect_refusal(load("/nonexistent/model.pt2"), "/nonexistent/model.pt2", "no such file");
}

}  // namespace
}  // namespace attnprof::bench
