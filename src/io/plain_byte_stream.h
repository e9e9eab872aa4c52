#pragma once
// A plain (uncompressed) JSON file, read straight into the caller's buffer.

#include <optional>
#include <string>
#include <string_view>

#include "io/byte_stream.h"
#include "io/posix_file.h"

namespace attnprof {

class PlainByteStream final : public ByteStream {
 public:
  // `head`: the first bytes of the file, already read to detect its format (at most a few).
  PlainByteStream(PosixFile file, std::string_view head, const Limits& limits);

  Result<size_t> read(char* out, size_t capacity) override;
  uint64_t compressed_bytes_read() const override;
  bool is_gzip() const override { return false; }

 private:
  PosixFile file_;
  std::string head_;
  size_t head_served_ = 0;
  Limits limits_;
  std::optional<Error> failure_;  // once failed, every read fails the same way
};

}  // namespace attnprof
