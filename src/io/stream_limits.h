#pragma once
// The checks of Limits that a ByteStream applies as bytes come out, with the CLI flag that
// raises each one in its message.

#include <cstdint>
#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

// The gzip ratio is judged only after this many bytes came out: a small file that compresses
// very well (a tiny trace of repeated events) is no threat, a gzip bomb is.
inline constexpr uint64_t kGzipRatioCheckAfterBytes = uint64_t{64} << 20;

// Fails when `decompressed` is over Limits::max_decompressed_bytes (`--max-json-bytes`).
Status check_decompressed_size(const std::string& path, uint64_t decompressed,
                               const Limits& limits);

// Fails when more than kGzipRatioCheckAfterBytes came out and decompressed / compressed is over
// Limits::max_gzip_ratio (`--max-gzip-ratio`).
Status check_gzip_ratio(const std::string& path, uint64_t decompressed, uint64_t compressed,
                        const Limits& limits);

}  // namespace attnprof
