#pragma once
// The flags that raise the reader's limits, shared by every command that reads traces.

#include <CLI/CLI.hpp>

#include "attnprof/limits.h"

namespace attnprof::cli {

struct LimitOptions {
  Limits limits;
  void add_to(CLI::App& cmd) {
    cmd.add_option("--max-json-bytes", limits.max_decompressed_bytes,
                   "Refuse traces whose JSON is larger (default 64 GiB)");
    cmd.add_option("--max-gzip-ratio", limits.max_gzip_ratio,
                   "Refuse gzip files that expand more than this many times (default 200)");
    cmd.add_option("--max-event-bytes", limits.max_event_bytes,
                   "Refuse a single event larger than this (default 64 MiB)");
    cmd.add_option("--max-events", limits.max_events,
                   "Refuse traces with more events (default 2^32)");
    cmd.add_option("--max-depth", limits.max_depth,
                   "Refuse JSON nested deeper than this many arrays and objects (default 1024)");
    cmd.add_option("--max-string-bytes", limits.max_string_bytes,
                   "Refuse a single string (a name, a key) longer than this (default 1 MiB)");
  }
  Limits to_limits() const { return limits; }
};

}  // namespace attnprof::cli
