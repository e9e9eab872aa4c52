#pragma once
// The whole pipeline on one input, shared by the fuzzer (fuzz/trace_fuzzer.cpp) and the test that
// replays its regressions (tests/fuzz_regressions_test.cpp): the bytes become an in-memory file
// read as any trace file is (gzip when they start with its magic, on the same reading threads),
// then the model, analyze with the default regions and with a region pattern, findings, diff and
// check between the two analyses, and every renderer into memory.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof::fuzz {

// Small limits, so that the fuzzer tests them instead of running out of memory: 64 MiB of JSON,
// 2 MiB per event (an event may still span two of the reader's 1 MiB windows), a million events.
Limits fuzz_limits();

// What the pipeline made of a trace that read, for the regression test to check.
struct PipelineOutput {
  size_t default_regions = 0;  // analyze's default (ProfilerStep#*, else the whole trace)
  size_t pattern_regions = 0;  // user annotations matching kRegionPattern
  size_t findings = 0;         // of both analyses
  uint64_t diagnostics = 0;    // recoverable oddities the reader and linker counted
  bool diff_ok = false;        // the diff ran: default regions against the pattern's (or
                               // against themselves when none matches), both sides had one
  size_t rendered_bytes = 0;   // text, JSON, Markdown, diff and check output together
};

// Matches both `forward` and `backward` with each kind of wildcard.
inline constexpr const char* kRegionPattern = "*?ward*";

struct PipelineRun {
  std::string path;  // the in-memory file the bytes were read from, as errors name it
  Result<PipelineOutput> result;
};

// Runs the pipeline on `bytes`. result fails with the reader's error for input that is not a
// trace, or when the in-memory file cannot be made (the message says which).
PipelineRun fuzz_one_trace(std::span<const uint8_t> bytes, const Limits& limits = fuzz_limits());

// What is wrong with `error` as the project's errors go (one non-empty line that names the file
// `path`), or nothing when it is well formed.
std::optional<std::string> error_shape_problem(const Error& error, const std::string& path);

}  // namespace attnprof::fuzz
