#include <CLI/CLI.hpp>

#include "cli/commands.h"
#ifdef ATTNPROF_HAVE_BENCH
#include "attnprof_bench/bench_command.h"
#endif

int main(int argc, char** argv) {
  CLI::App app{
      "attnprof: profile attention implementations and read their PyTorch profiler traces"};
  app.require_subcommand(1);
  int exit_code = 0;
  attnprof::cli::register_analyze(app, exit_code);
  attnprof::cli::register_diff(app, exit_code);
  attnprof::cli::register_check(app, exit_code);
  attnprof::cli::register_report(app, exit_code);
  attnprof::cli::register_annotate(app, exit_code);
#ifdef ATTNPROF_HAVE_BENCH
  attnprof::bench::register_bench_command(app, exit_code);
#else
  attnprof::cli::register_bench_unavailable(app, exit_code);
#endif
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
