#pragma once
// Running `attnprof` from a bench test, and finding a row in the summary.json it wrote.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

#include "study/run/run_summary.h"

namespace attnprof::bench::testing {

struct CliRun {
  int exit_code = -1;  // -1 when it could not start or did not exit normally
  std::string output;  // stdout and stderr together
};

// Runs the attnprof under test (ATTNPROF_CLI) with `arguments`, a shell command line.
inline CliRun run_cli(const std::string& arguments) {
  CliRun run;
  FILE* pipe = ::popen((std::string(ATTNPROF_CLI) + " " + arguments + " 2>&1").c_str(), "r");
  if (!pipe) return run;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    run.output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// The row named `variant` in one point of a summary, or null.
inline const RunVariant* find_row(const RunPoint& point, const std::string& variant) {
  for (const RunVariant& v : point.variants)
    if (v.variant == variant) return &v;
  return nullptr;
}

}  // namespace attnprof::bench::testing
