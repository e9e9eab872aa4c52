#pragma once
// Helpers shared by the tests: fixture paths, temporary files, running the CLI.

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "attnprof/analysis.h"

namespace attnprof::testing {

inline std::string fixture(const std::string& name) {
  return std::string(ATTNPROF_TEST_DATA) + "/" + name;
}

// A file under a fresh temporary directory, removed with the object.
class TempFile {
 public:
  explicit TempFile(const std::string& name, const std::string& content = {}) {
    dir_ = std::filesystem::temp_directory_path() /
           ("attnprof_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    std::filesystem::create_directories(dir_);
    path_ = (dir_ / name).string();
    std::ofstream(path_, std::ios::binary) << content;
  }
  ~TempFile() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  const std::string& path() const { return path_; }
  std::string dir() const { return dir_.string(); }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path dir_;
  std::string path_;
};

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together
};

// Runs a shell command line and captures its output.
inline CommandResult run_command(const std::string& command_line) {
  CommandResult result;
  FILE* pipe = ::popen((command_line + " 2>&1").c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  size_t n;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0)
    result.output.append(buffer.data(), n);
  int status = ::pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return result;
}

inline CommandResult run_cli(const std::string& arguments) {
  return run_command(std::string(ATTNPROF_CLI) + " " + arguments);
}

// Analyzes a fixture, failing the test on error.
inline TraceAnalysis analyze_fixture(const std::string& name, const std::string& region = {},
                                     bool every_region = true) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.activities_of_every_region = every_region;
  auto result = analyze_file(fixture(name), options);
  if (!result.ok()) throw std::runtime_error(result.error().message);
  return std::move(result).value();
}

}  // namespace attnprof::testing
