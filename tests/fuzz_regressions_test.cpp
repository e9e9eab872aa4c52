// Every input the fuzzer found a problem with (tests/data/fuzz-regressions, one file per bug,
// named after it) runs through the fuzzer's own entry point, fuzz_one_trace: it must not crash
// (the asan preset runs this under ASan and UBSan), and must give a result or an error of the
// project's shape. Where the outcome is known, the table below says which.

#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "fuzz/fuzz_one_trace.h"

namespace attnprof {
namespace {

const std::filesystem::path kRegressions =
    std::filesystem::path(ATTNPROF_TEST_DATA) / "fuzz-regressions";

struct Known {
  const char* file;
  // A part of the error the input must get, or nullptr when it must read as a trace.
  const char* error = nullptr;
  // For a trace that reads: the diagnostics it must count (-1: not checked).
  int diagnostics = -1;
};

// What each regression gives since its fix; the comment says what went wrong before.
const Known kKnown[] = {
    // An instant event without "name": interned an empty name with memcmp(nullptr, ..., 0).
    {"instant-without-name.json", nullptr, 0},
    // A top-level key with a raw newline was echoed into the error, which became two lines.
    {"error-echoes-raw-key.json", "invalid JSON at byte 25: expected ':' after key \"ba\\x0ad\""},
    // ts + dur overflowed int64 (model/trace.h end_ns): now the ts is mistyped, the event dropped.
    {"time-beyond-int64.json", nullptr, 1},
    // The parser rounded 9223372036854775.808 us past int64 (time_parse.cpp): now mistyped.
    {"time-fraction-past-int64.json", nullptr, 1},
    // grid x*y*z overflowed int64 (occupancy.cpp): now the grid is mistyped and the kernel
    // dropped, which leaves its launch without an activity.
    {"grid-product-beyond-int64.json", nullptr, 2},
    // A block of 2^63-1 threads overflowed occupancy's round-up to whole warps.
    {"block-product-near-int64.json", nullptr, 0},
    // Sums of durations on many threads or streams overflowed int64 (summarize.cpp cpu_ns,
    // precision_upcast.cpp, synchronization.cpp): now they stop at int64's largest value.
    {"cpu-time-sum-beyond-int64.json", nullptr, 0},
    // (Its kernels start 2^61 ns before their launches: five "GPU activity before its launch",
    // and the critical path's graph counts eleven "dependency against the clock".)
    {"gemm-time-sum-beyond-int64.json", nullptr, 16},
    {"sync-wait-sum-beyond-int64.json", nullptr, 0},
    // Names with ESC, BEL, CR, BS, C1 CSI, DEL, newlines and pipes in every place a name can be
    // (region, op, launch, kernel, memcpy, device, backend): the fuzz target aborts when one
    // reaches text or Markdown output raw (docs/SECURITY.md). Written by review, not found by the
    // fuzzer.
    {"control-bytes-in-names.json", nullptr, -1},
};

std::vector<uint8_t> bytes_of(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

std::vector<std::string> regression_files() {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(kRegressions))
    if (entry.is_regular_file()) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

const Known* known(const std::string& name) {
  for (const Known& k : kKnown)
    if (name == k.file) return &k;
  return nullptr;
}

class FuzzRegression : public ::testing::TestWithParam<std::string> {};

TEST_P(FuzzRegression, GivesAResultOrAnErrorOfTheProjectsShape) {
  const std::vector<uint8_t> bytes = bytes_of(kRegressions / GetParam());
  const fuzz::PipelineRun run = fuzz::fuzz_one_trace(bytes);
  if (!run.result.ok()) {
    auto problem = fuzz::error_shape_problem(run.result.error(), run.path);
    EXPECT_FALSE(problem.has_value()) << *problem;
  }
  const Known* expected = known(GetParam());
  if (!expected) return;
  if (expected->error) {
    ASSERT_FALSE(run.result.ok()) << "reads, but should fail with: " << expected->error;
    EXPECT_NE(run.result.error().message.find(expected->error), std::string::npos)
        << run.result.error().message;
  } else {
    ASSERT_TRUE(run.result.ok()) << run.result.error().message;
    if (expected->diagnostics >= 0) {
      EXPECT_EQ(run.result->diagnostics, static_cast<uint64_t>(expected->diagnostics));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(EveryFile, FuzzRegression, ::testing::ValuesIn(regression_files()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(FuzzRegressions, EveryKnownOutcomeNamesAFileThatIsThere) {
  for (const Known& k : kKnown)
    EXPECT_TRUE(std::filesystem::is_regular_file(kRegressions / k.file)) << k.file;
}

}  // namespace
}  // namespace attnprof
