#pragma once
// The decompressed bytes of a trace file, streamed in chunks: the whole file is never held in
// memory (docs/PERFORMANCE.md, "Fresh memory": touching fresh memory costs ~2.6 s per GB on our
// machines, so buffers are allocated once per stream and reused for every chunk).
//
// A file is gzip when its first bytes are the gzip magic (1f 8b), whatever its name; anything
// else is read as plain JSON. Gzip files may hold several members back to back, as `gzip` writes
// for `cat a.gz b.gz`; zero bytes after the last member are padding and ignored, as gzip does.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

class ByteStream {
 public:
  // Opens `path`: plain JSON, or gzip detected by its magic bytes. Fails (one line naming the
  // file) for a missing file, a directory, or a file that cannot be opened or read.
  static Result<std::unique_ptr<ByteStream>> open(const std::string& path, const Limits& limits);

  virtual ~ByteStream();
  ByteStream(const ByteStream&) = delete;
  ByteStream& operator=(const ByteStream&) = delete;

  // Reads up to `capacity` decompressed bytes into `out`; returns 0 only at the end of the data.
  // Fails on a read error, a truncated gzip, a corrupt gzip (bad header, bad deflate data, CRC32
  // or length mismatch in a member's trailer, data after the last member), or a limit exceeded
  // (Limits::max_decompressed_bytes, or Limits::max_gzip_ratio once more than 64 MiB came out).
  // Bytes that came out before a failure are returned first; the failure comes with the next
  // call, and every call after a failure fails the same way.
  virtual Result<size_t> read(char* out, size_t capacity) = 0;

  // Bytes of the file consumed so far (for a gzip file: taken by the inflater).
  virtual uint64_t compressed_bytes_read() const = 0;
  // Decompressed bytes returned by read() so far.
  uint64_t decompressed_bytes() const { return decompressed_bytes_; }
  virtual bool is_gzip() const = 0;
  const std::string& path() const { return path_; }

 protected:
  explicit ByteStream(std::string path) : path_(std::move(path)) {}

  uint64_t decompressed_bytes_ = 0;

 private:
  std::string path_;
};

}  // namespace attnprof
