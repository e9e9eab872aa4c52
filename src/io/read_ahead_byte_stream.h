#pragma once
// Reads (and inflates) ahead of the consumer on a background thread, so that inflating overlaps
// parsing on a 2-core machine. The worker fills a ring of a few large buffers, allocated once
// and reused; read() copies out of the oldest full one. Errors travel in the ring behind the
// data that came before them.

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "io/byte_stream.h"

namespace attnprof {

class ReadAheadByteStream final : public ByteStream {
 public:
  // Small chunks on purpose. Measured on gpt2_train.json.gz (29.7 MB of JSON), 2-core VM:
  // 3 x 4 MiB chunks took 48 ms against 10 ms for 4 x 256 KiB, because fresh pages cost
  // ~2.6 s per GB to touch here (docs/PERFORMANCE.md, "Fresh memory") and small chunks stay in
  // cache between the worker's inflate and the consumer's copy.
  static constexpr size_t kChunkBytes = size_t{256} << 10;
  // One chunk being read, the others ready or being filled.
  static constexpr size_t kChunkCount = 4;

  explicit ReadAheadByteStream(std::unique_ptr<ByteStream> source);
  ~ReadAheadByteStream() override;  // stops and joins the worker

  Result<size_t> read(char* out, size_t capacity) override;
  uint64_t compressed_bytes_read() const override { return compressed_bytes_read_; }
  bool is_gzip() const override { return is_gzip_; }

 private:
  struct Chunk {
    std::unique_ptr<char[]> bytes;  // kChunkBytes, allocated by the worker on first use
    size_t size = 0;
    uint64_t compressed_bytes_read = 0;  // the source's count once this chunk was filled
    bool last = false;                   // the data ends after this chunk
    std::optional<Error> error;          // the source failed after this chunk's bytes
  };

  void fill_chunks();  // the worker's loop
  void fill(Chunk& chunk);

  std::unique_ptr<ByteStream> source_;  // used by the worker only, once started
  const bool is_gzip_;
  std::array<Chunk, kChunkCount> ring_;

  std::mutex mutex_;
  std::condition_variable changed_;
  size_t full_chunks_ = 0;  // filled and not yet released by the consumer; guarded by mutex_
  bool stopping_ = false;   // guarded by mutex_
  std::atomic<bool> stop_now_{false};  // lets the worker give up a chunk half-filled

  // The consumer's side.
  size_t read_index_ = 0;
  size_t read_offset_ = 0;
  bool holding_chunk_ = false;
  uint64_t compressed_bytes_read_ = 0;

  std::thread worker_;  // last: starts once everything above is built
};

}  // namespace attnprof
