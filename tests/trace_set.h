#pragma once
// A temporary folder of traces made from the real fixtures, for the tests of several traces at
// once (docs/ARCHITECTURE.md): copies, copies that claim another rank, and broken ones.

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "test_support.h"

namespace attnprof::testing {

class TraceSet {
 public:
  TraceSet() {
    dir_ = std::filesystem::temp_directory_path() /
           ("attnprof_traces_" + std::to_string(::getpid()) + "_" + std::to_string(counter()++));
    std::filesystem::create_directories(dir_);
  }
  ~TraceSet() {
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TraceSet(const TraceSet&) = delete;
  TraceSet& operator=(const TraceSet&) = delete;

  std::string dir() const { return dir_.string(); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  // The fixture's bytes as they are (gzip).
  std::string copy(const std::string& fixture_name, const std::string& name) {
    std::filesystem::copy_file(fixture(fixture_name), dir_ / name);
    return path(name);
  }
  // train_step.json.gz (recorded with a one-rank NCCL group) as plain JSON whose distributedInfo
  // says rank `rank` of `world_size`.
  std::string rank_copy(int rank, int world_size, const std::string& name) {
    std::string json = run_command("zcat " + fixture("train_step.json.gz")).output;
    const std::string recorded = "\"rank\": 0, \"world_size\": 1";
    const size_t at = json.find(recorded);
    if (at == std::string::npos)
      throw std::runtime_error("train_step.json.gz has no distributedInfo");
    json.replace(
        at, recorded.size(),
        "\"rank\": " + std::to_string(rank) + ", \"world_size\": " + std::to_string(world_size));
    return write(name, json);
  }
  // The first half of a fixture's JSON: a truncated trace.
  std::string truncated(const std::string& fixture_name, const std::string& name) {
    std::string json = run_command("zcat " + fixture(fixture_name)).output;
    return write(name, json.substr(0, json.size() / 2));
  }
  std::string write(const std::string& name, const std::string& content) {
    std::ofstream(dir_ / name, std::ios::binary) << content;
    return path(name);
  }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }
  std::filesystem::path dir_;
};

}  // namespace attnprof::testing
