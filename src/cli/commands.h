#pragma once
// Each subcommand of `attnprof` registers itself on the CLI11 app (one file per subcommand, as
// Perfetto's shell does). Exit codes: 0 success, 1 a check failed, 2 bad input or usage.

#include <CLI/CLI.hpp>

namespace attnprof::cli {

void register_analyze(CLI::App& app, int& exit_code);
void register_diff(CLI::App& app, int& exit_code);
void register_check(CLI::App& app, int& exit_code);
void register_report(CLI::App& app, int& exit_code);
void register_annotate(CLI::App& app, int& exit_code);
void register_merge(CLI::App& app, int& exit_code);
// `completion bash|zsh|fish`, and the hidden `manpage` the build runs.
void register_completion(CLI::App& app, int& exit_code);
// The hidden `datasheet --format json`: the GPU datasheet for the project's scripts.
void register_datasheet(CLI::App& app, int& exit_code);
// The hidden `summary-json SUMMARY [-o OUT]`: a summary.json read and written by the core.
void register_summary_json(CLI::App& app, int& exit_code);
// `bench` when LibTorch was not found at build time: says how to get it.
void register_bench_unavailable(CLI::App& app, int& exit_code);
// Its one line on stderr; returns the exit code, 2.
int bench_unavailable();

}  // namespace attnprof::cli
