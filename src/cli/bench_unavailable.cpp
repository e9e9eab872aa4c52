// `attnprof bench` in a build without LibTorch: its --help lists the bench's flags, under the line
// that says how to build it; run, it says that line alone.

#include <cstdio>
#include <memory>
#include <string>

#include "attnprof_bench/bench_flags.h"
#include "cli/commands.h"

namespace attnprof::cli {

namespace {

constexpr const char* kHowToBuild =
    "this build has no GPU bench: LibTorch was not found at configure time; on a machine with "
    "PyTorch and CUDA, rebuild with -DCMAKE_PREFIX_PATH=\"$(python3 -c 'import torch; "
    "print(torch.utils.cmake_prefix_path)')\" (see bench/README.md)";

}  // namespace

int bench_unavailable() {
  std::fprintf(stderr, "attnprof: %s\n", kHowToBuild);
  return 2;
}

void register_bench_unavailable(CLI::App& app, int& exit_code) {
  auto flags = std::make_shared<bench::BenchFlags>();
  CLI::App* cmd = app.add_subcommand(
      "bench", std::string(bench::kBenchDescription) + ".\nNote: " + kHowToBuild + ".");
  bench::add_bench_flags(*cmd, *flags);
  cmd->callback([flags, &exit_code] { exit_code = bench_unavailable(); });
}

}  // namespace attnprof::cli
