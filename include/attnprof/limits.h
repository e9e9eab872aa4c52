#pragma once
#include <cstdint>

namespace attnprof {

// Bounds on what a trace may make the reader do; each has a clear error and a CLI flag
// (src/cli/limit_options.h). The defaults are far above what PyTorch writes.
struct Limits {
  uint64_t max_decompressed_bytes = uint64_t{64} << 30;  // 64 GiB of JSON
  uint32_t max_gzip_ratio = 200;  // decompressed / compressed: traces are 10-20:1, bombs ~1000:1
  uint64_t max_event_bytes = uint64_t{64} << 20;  // one event's JSON text
  uint64_t max_events = uint64_t{1} << 32;
  // Nesting of arrays and objects, the top-level object being depth 1: Kineto's deepest values
  // (the tensor shapes in an event's args) are at depth 6 or 7. The default is simdjson's, and
  // keeps the check free: only an event of more than 2 x max_depth bytes can break it, so only
  // such events are scanned (reader/document_limits.h).
  uint32_t max_depth = 1024;
  // One string's JSON text, between its quotes (keys too): kernel names and call stacks run to
  // a few KiB; a name of megabytes is not a trace.
  uint64_t max_string_bytes = uint64_t{1} << 20;
  // A file read whole beside the traces: expectations, a bench run's summary.json and sweep.csv
  // (io/side_file.h). Real ones are kilobytes.
  uint64_t max_side_file_bytes = uint64_t{64} << 20;
  // What a side file may list. Each entry read costs a few hundred bytes to a few KiB of memory
  // however few bytes it takes in the file (20 MB of 1,000,000 minimal variants took 4.9 GB), so
  // the byte limit alone does not bound the memory. Real runs list tens of variants (points x
  // variants), and each variant's two regions (forward, backward) a few expectations.
  uint64_t max_variants = 10000;      // summary.json: variants over all its points
  uint64_t max_expectations = 10000;  // an expectations file's expressions; summary.json's results
  // Every list of a summary.json together (points, variants, findings, their evidence, kernel
  // counters, calls...): the bound on the rest.
  uint64_t max_side_file_items = 100000;
  // Regions open at one time (analysis/regions/regions.h): each activity belongs to every one.
  // Regions that hold the same work share it (their members, summaries and findings' work), so only
  // those that hold different work count, whose members grow as this count times the
  // activities. Real traces nest a few (ProfilerSteps do not overlap;
  // forward inside a step); thousands are an attack or a mistaken --region.
  uint64_t max_region_overlap = 1000;
};

}  // namespace attnprof
