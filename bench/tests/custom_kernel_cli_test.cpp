// `attnprof bench --custom` refusing what it cannot load: one line, exit code 2, before any GPU
// work (so no GPU is needed; LibTorch is, for the bench to be built).

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "cli_run.h"

namespace {

using attnprof::bench::testing::CliRun;
using attnprof::bench::testing::run_cli;

void expect_one_line_refusal(const std::string& arguments, const std::string& words) {
  SCOPED_TRACE(arguments);
  const CliRun run = run_cli("bench " + arguments + " --out /nonexistent/attnprof-custom-test");
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_EQ(run.output.rfind("attnprof bench: --custom ", 0), 0u) << run.output;
  EXPECT_NE(run.output.find(words), std::string::npos) << run.output;
  // One line: the message and its newline, nothing after.
  EXPECT_EQ(run.output.find('\n'), run.output.size() - 1) << run.output;
}

TEST(CustomKernelCli, MissingLibrary) {
  expect_one_line_refusal("--custom /nonexistent/libmine.so", "no such file");
}

TEST(CustomKernelCli, NotALibrary) {
  expect_one_line_refusal(std::string("--custom ") + ATTNPROF_SOURCE_DIR + "/README.md",
                          "cannot load it");
}

TEST(CustomKernelCli, LibraryOfAnotherAbiVersion) {
  expect_one_line_refusal(std::string("--custom ") + ATTNPROF_FAKE_KERNEL_FUTURE,
                          "built for custom-kernel ABI version 99");
}

TEST(CustomKernelCli, LibraryWithoutTheSymbols) {
  expect_one_line_refusal(std::string("--custom ") + ATTNPROF_FAKE_KERNEL_NO_VERSION,
                          "exports no `attnprof_custom_attention_abi_version`");
}

TEST(CustomKernelCli, MissingAotInductorPackage) {
  expect_one_line_refusal("--custom /nonexistent/model.pt2", "no such file");
}

TEST(CustomKernelCli, Pt2ThatIsNoPackage) {
  // README.md renamed, in effect: a .pt2 must be a zip archive.
  const std::string fake = ::testing::TempDir() + "attnprof_not_a_package.pt2";
  std::filesystem::copy_file(std::string(ATTNPROF_SOURCE_DIR) + "/README.md", fake,
                             std::filesystem::copy_options::overwrite_existing);
  expect_one_line_refusal("--custom " + fake, "not an AOTInductor package");
  std::filesystem::remove(fake);
}

TEST(CustomKernelCli, TwoRowsOfOneName) {
  expect_one_line_refusal(std::string("--custom ") + ATTNPROF_FAKE_KERNEL_GOOD + " --custom " +
                              ATTNPROF_FAKE_KERNEL_GOOD,
                          "a row is named `fake_kernel_good` already");
}

}  // namespace
