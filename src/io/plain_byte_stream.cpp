#include "io/plain_byte_stream.h"

#include <algorithm>
#include <cstring>

#include "io/stream_limits.h"

namespace attnprof {

PlainByteStream::PlainByteStream(PosixFile file, std::string_view head, const Limits& limits)
    : ByteStream(file.path()), file_(std::move(file)), head_(head), limits_(limits) {}

uint64_t PlainByteStream::compressed_bytes_read() const {
  return file_.bytes_read() - (head_.size() - head_served_);
}

Result<size_t> PlainByteStream::read(char* out, size_t capacity) {
  if (failure_) return *failure_;
  if (capacity == 0) return size_t{0};
  size_t n = 0;
  if (head_served_ < head_.size()) {
    // The detection bytes come first; no read() then, so a slow pipe never blocks a short read.
    n = std::min(capacity, head_.size() - head_served_);
    std::memcpy(out, head_.data() + head_served_, n);
    head_served_ += n;
  } else {
    Result<size_t> got = file_.read(out, capacity);
    if (!got) {
      failure_ = got.take_error();
      return *failure_;
    }
    n = *got;
  }
  Status within = check_decompressed_size(path(), decompressed_bytes_ + n, limits_);
  if (!within) {
    failure_ = within.take_error();
    return *failure_;
  }
  decompressed_bytes_ += n;
  return n;
}

}  // namespace attnprof
