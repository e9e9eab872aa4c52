#pragma once
// `attnprof bench`: the study run on this machine with LibTorch (bench/README.md).

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

}  // namespace attnprof::bench
