#pragma once
// `attnprof bench`: the study run on this machine with LibTorch (bench/README.md).

#include <string>

namespace CLI {
class App;
}

namespace attnprof::bench {

// Adds the `bench` subcommand and its flags to `app`; its callback runs the study and sets
// `exit_code`: 0 when every variant ran (unsupported and out-of-memory variants count as run),
// 1 when a variant failed its correctness check or failed otherwise, 2 for bad flags, no CUDA
// GPU with --device cuda, or an output folder that cannot be written. Never throws: LibTorch's
// exceptions stop at each variant.
void register_bench_command(CLI::App& app, int& exit_code);

// For `attnprof --version`: "LibTorch 2.11.0\nCUDA runtime 13.0\ncuDNN 9.19.0\n" ("none" where
// LibTorch has no CUDA or no cuDNN). Never throws.
std::string version_lines();

}  // namespace attnprof::bench
