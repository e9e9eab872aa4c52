#pragma once
// Reads a whole trace file into the model: stream -> document -> builder -> links.

#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "model/trace.h"
#include "reader/trace_document.h"

namespace attnprof {

// Fails with one line naming the file (and the byte offset for JSON errors); see
// read_trace_document and ByteStream::open for the cases.
Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress = {});

// The same with `workers` threads parsing events (0: one per core, at most 8). The Trace is the
// same whatever their number (reader_parallel_test.cpp compares them).
Result<Trace> read_trace(const std::string& path, const Limits& limits,
                         const ProgressCallback& progress, size_t workers);

}  // namespace attnprof
