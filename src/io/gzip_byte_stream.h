#pragma once
// A gzip file inflated by ISA-L's streaming inflate, member after member, straight into the
// caller's buffer. The file is read in fixed blocks into one reused input buffer.
//
// ISA-L (crc_flag ISAL_GZIP) parses each member's header and checks its trailer. What it does not
// do, this class does:
// - a truncated stream: ISA-L just stops asking for more (it returns OK with no progress), so
//   running out of file before a member's end is reported here as truncation;
// - data after a member: ISA-L stops right after the trailer and leaves the rest in next_in; this
//   class starts a new member on the gzip magic, skips zero padding, and rejects anything else;
// - a bad trailer: ISA-L reports CRC and length mismatches as one code; this class reads the
//   trailer back and says which of the two it is.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "io/byte_stream.h"
#include "io/posix_file.h"

struct inflate_state;

namespace attnprof {

class GzipByteStream final : public ByteStream {
 public:
  // Bytes of the file read per read() call: large enough that syscalls cost nothing, small
  // enough to stay in cache.
  static constexpr size_t kInputBlockBytes = size_t{1} << 20;
  // Input gathered before a member's header is parsed: a header is 10 bytes plus its optional
  // extra field (at most 64 KiB), name and comment.
  static constexpr size_t kWholeHeaderBytes = size_t{128} << 10;

  // `head`: the first bytes of the file, already read to detect its format (at most a few).
  GzipByteStream(PosixFile file, std::string_view head, const Limits& limits);
  ~GzipByteStream() override;

  Result<size_t> read(char* out, size_t capacity) override;
  uint64_t compressed_bytes_read() const override;
  bool is_gzip() const override { return true; }

 private:
  static constexpr size_t kTrailerBytes = 8;  // CRC32 and ISIZE, little-endian

  Status inflate_until_full();
  Status refill();
  Result<bool> start_next_member();
  std::array<uint8_t, kTrailerBytes> last_consumed_bytes() const;

  Error truncated_error() const;
  Error inflate_error(int code) const;
  Error trailer_error() const;
  Error trailing_data_error() const;

  PosixFile file_;
  Limits limits_;
  std::unique_ptr<inflate_state> state_;
  std::unique_ptr<uint8_t[]> input_;  // kInputBlockBytes, reused for every block
  bool at_eof_ = false;
  bool finished_ = false;
  bool in_padding_ = false;  // zeros after the last member, ignored as gzip does
  uint64_t member_ = 1;      // 1-based, for messages
  uint64_t member_offset_ = 0;
  // The last bytes consumed before input_[0]: a trailer can straddle two input blocks.
  std::array<uint8_t, kTrailerBytes> consumed_before_block_{};
  std::optional<Error> failure_;  // once failed, every read fails the same way
};

}  // namespace attnprof
