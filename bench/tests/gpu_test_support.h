#pragma once
// What the GPU tests share: a quick run's settings, and skipping where there is no GPU.

#include <ftw.h>
#include <gtest/gtest.h>

#include <cstdio>

#include <filesystem>
#include <string>

#include "device_info.h"
#include "problem.h"
#include "variant_runner.h"

namespace attnprof::bench::testing {

// Short timing: the tests check behaviour, not speed.
inline RunSettings quick_settings(std::string trace_json_path = "") {
  RunSettings settings;
  settings.time_budget_s = 0.02;
  settings.min_reps = 3;
  settings.max_reps = 20;
  settings.trace_iterations = 5;
  settings.seed = 1234;
  settings.trace_json_path = std::move(trace_json_path);
  return settings;
}

inline Problem small_problem(Dtype dtype, MaskKind mask, bool backward = false) {
  Problem p;
  p.batch = 2;
  p.heads = 4;
  p.kv_heads = 4;
  p.seq = 256;
  p.q_seq = 256;
  p.head_dim = 64;
  p.dtype = dtype;
  p.mask = mask;
  p.backward = backward;
  return p;
}

// Removes a folder and what it holds. Not std::filesystem::remove_all: the torch 2.11 wheel's
// libtorch.so exports its own copy of that symbol, the dynamic linker binds the tests to it, and
// it jumps to address 0 on a folder with files in it (seen on the H200 machine, 2026-11-30).
inline void remove_tree(const std::filesystem::path& folder) {
  ::nftw(
      folder.c_str(),
      [](const char* path, const struct stat*, int, struct FTW*) {
        ::remove(path);
        return 0;  // keep going: remove what can be removed
      },
      16, FTW_DEPTH | FTW_PHYS);
}

// A fresh folder under the system's temporary folder, named after the running test.
inline std::filesystem::path test_folder() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  const auto folder = std::filesystem::temp_directory_path() / "attnprof_bench_tests" / name;
  remove_tree(folder);
  std::filesystem::create_directories(folder);
  return folder;
}

}  // namespace attnprof::bench::testing

// Skips the test (rather than failing it) on a machine where LibTorch sees no CUDA GPU.
#define ATTNPROF_REQUIRE_CUDA()                                                                \
  do {                                                                                         \
    const auto device = ::attnprof::bench::query_device(::attnprof::bench::DeviceKind::kCuda); \
    if (!device.available) GTEST_SKIP() << "no CUDA GPU: " << device.unavailable_reason;       \
  } while (0)
