#pragma once
// The --region flag, the same for every command that reads regions.

#include <string>

#include <CLI/CLI.hpp>

namespace attnprof::cli {

inline void add_region_option(CLI::App& cmd, std::string& region, const char* also = "") {
  cmd.add_option(
      "--region", region,
      std::string("Regions are the user annotations with this name (wildcards * and ?)") + also +
          "; default: ProfilerStep#* when present, else the whole trace");
}

}  // namespace attnprof::cli
