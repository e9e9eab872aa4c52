#pragma once
// `attnprof bench`'s flags, as typed. Plain C++ without LibTorch, so that every build's
// `attnprof bench --help` lists them, the bench's own and the one without LibTorch.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "problem.h"
#include "variant_runner.h"

namespace CLI {
class App;
class Option;
}  // namespace CLI

namespace attnprof::bench {

// The flags as typed; checked and turned into StudyOptions when the command runs, so that every
// mistake gets one line and exit code 2.
struct BenchFlags {
  Problem problem;       // sizes, --window and --backward land here directly
  int64_t kv_heads = 0;  // 0: not given, the same as --heads
  int64_t q_seq = 0;     // 0: not given, the same as --seq
  std::string dtype = "bf16";
  bool causal = true;
  std::string mask;
  std::string device = "cuda";
  std::vector<std::string> variants;
  std::vector<std::string> custom;  // --custom [NAME=]PATH, repeatable
  std::vector<std::string> sweeps;
  std::string out = "attnprof-bench";
  RunSettings settings;
  std::optional<uint64_t> seed;
  bool quiet = false;
  bool report = false;  // also write DIR/report.html
  std::string expectations;
  bool counters = false;       // --counters: Nsight Compute over a child run per variant
  std::string counters_child;  // the hidden child mode: one call of this variant (or "copy")
  CLI::Option* causal_flag = nullptr;
  std::string from_trace;  // --from-trace TRACE: the problems are the trace's attention calls
  std::string region;      // --region: which of its regions (analyze's default when empty)
  // The flags that set the problem, which --from-trace takes from the trace instead.
  std::vector<CLI::Option*> problem_flags;
};

// What `attnprof bench --help` says the command does.
inline constexpr const char* kBenchDescription =
    "Run the attention study on this machine with LibTorch: correctness against float64, CUDA-"
    "event timing, a Kineto trace per variant read by attnprof, and the study's table";

// "naive,inplace,...": every variant's name, for --variants' help and errors.
std::string variant_list();

// Adds the bench's flags to `cmd`, each writing into `flags` (which must outlive `cmd`).
void add_bench_flags(CLI::App& cmd, BenchFlags& flags);

}  // namespace attnprof::bench
