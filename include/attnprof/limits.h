#pragma once
#include <cstdint>

namespace attnprof {

// Bounds on what a trace may make the reader do; each has a clear error and a CLI flag.
struct Limits {
  uint64_t max_decompressed_bytes = uint64_t{64} << 30;  // 64 GiB of JSON
  uint32_t max_gzip_ratio = 200;  // decompressed / compressed: traces are 10-20:1, bombs ~1000:1
  uint64_t max_event_bytes = uint64_t{64} << 20;        // one event's JSON text
  uint64_t max_events = uint64_t{1} << 32;
};

}  // namespace attnprof
