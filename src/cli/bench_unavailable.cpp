// `attnprof bench` in a build without LibTorch: one line saying how to get it.

#include <cstdio>

#include "cli/commands.h"

namespace attnprof::cli {

int bench_unavailable() {
  std::fprintf(stderr,
               "attnprof: this build has no GPU bench: LibTorch was not found at configure time; "
               "on a machine with PyTorch and CUDA, rebuild with "
               "-DCMAKE_PREFIX_PATH=\"$(python3 -c 'import torch; "
               "print(torch.utils.cmake_prefix_path)')\" (see README)\n");
  return 2;
}

void register_bench_unavailable(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand("bench", "Run the attention study on a GPU (needs LibTorch)");
  cmd->allow_extras();
  cmd->callback([&exit_code] { exit_code = bench_unavailable(); });
}

}  // namespace attnprof::cli
