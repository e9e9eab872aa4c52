#include "io/read_ahead_byte_stream.h"

#include <algorithm>
#include <cstring>

namespace attnprof {

Result<std::unique_ptr<ByteStream>> open_read_ahead(const std::string& path, const Limits& limits) {
  Result<std::unique_ptr<ByteStream>> source = ByteStream::open(path, limits);
  if (!source) return source.take_error();
  return std::unique_ptr<ByteStream>(std::make_unique<ReadAheadByteStream>(std::move(*source)));
}

ReadAheadByteStream::ReadAheadByteStream(std::unique_ptr<ByteStream> source)
    : ByteStream(source->path()),
      source_(std::move(source)),
      is_gzip_(source_->is_gzip()),
      worker_([this] { fill_chunks(); }) {}

ReadAheadByteStream::~ReadAheadByteStream() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  stop_now_.store(true, std::memory_order_relaxed);
  changed_.notify_all();
  worker_.join();
}

void ReadAheadByteStream::fill_chunks() {
  for (size_t index = 0;; index = (index + 1) % kChunkCount) {
    {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return stopping_ || full_chunks_ < kChunkCount; });
      if (stopping_) return;
    }
    Chunk& chunk = ring_[index];  // free: the consumer released it, or never had it
    fill(chunk);
    const bool done = chunk.last || chunk.error.has_value();
    {
      std::lock_guard lock(mutex_);
      ++full_chunks_;
    }
    changed_.notify_all();
    if (done) return;
  }
}

// Fills the chunk whole (the source may return less than asked), so the consumer wakes up
// once per kChunkBytes, not once per source read.
void ReadAheadByteStream::fill(Chunk& chunk) {
  if (!chunk.bytes) chunk.bytes.reset(new char[kChunkBytes]);
  chunk.size = 0;
  while (chunk.size < kChunkBytes && !stop_now_.load(std::memory_order_relaxed)) {
    Result<size_t> got = source_->read(chunk.bytes.get() + chunk.size, kChunkBytes - chunk.size);
    if (!got) {
      chunk.error = got.take_error();
      break;
    }
    if (*got == 0) {
      chunk.last = true;
      break;
    }
    chunk.size += *got;
  }
  chunk.compressed_bytes_read = source_->compressed_bytes_read();
}

Result<size_t> ReadAheadByteStream::read(char* out, size_t capacity) {
  if (capacity == 0) return size_t{0};
  for (;;) {
    if (!holding_chunk_) {
      std::unique_lock lock(mutex_);
      changed_.wait(lock, [this] { return full_chunks_ > 0; });
      holding_chunk_ = true;
      read_offset_ = 0;
    }
    const Chunk& chunk = ring_[read_index_];
    compressed_bytes_read_ = chunk.compressed_bytes_read;
    if (read_offset_ < chunk.size) {
      const size_t n = std::min(capacity, chunk.size - read_offset_);
      std::memcpy(out, chunk.bytes.get() + read_offset_, n);
      read_offset_ += n;
      decompressed_bytes_ += n;
      return n;
    }
    // This chunk is drained. Its end is the end of the data, a failure, or the next chunk.
    // The last chunk is never released, so every later call ends the same way.
    if (chunk.error) return *chunk.error;
    if (chunk.last) return size_t{0};
    {
      std::lock_guard lock(mutex_);
      --full_chunks_;
      holding_chunk_ = false;
    }
    changed_.notify_all();
    read_index_ = (read_index_ + 1) % kChunkCount;
  }
}

}  // namespace attnprof
