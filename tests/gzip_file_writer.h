#pragma once
// A gzip file written piece by piece through ISA-L's deflate at level 1, for the tests that need
// gzip bombs: any size, made without zlib and without the file ever being in memory.

#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof::testing {

class GzipFileWriter {
 public:
  explicit GzipFileWriter(const std::string& path)
      : level_buffer_(ISAL_DEF_LVL1_DEFAULT),
        out_(1 << 20),
        file_(path, std::ios::binary | std::ios::trunc) {
    isal_deflate_init(&stream_);
    stream_.gzip_flag = IGZIP_GZIP;
    stream_.level = 1;
    stream_.level_buf = level_buffer_.data();
    stream_.level_buf_size = static_cast<uint32_t>(level_buffer_.size());
  }

  // Deflates `bytes` (at most 4 GiB); `last` ends the stream. False on a deflate or write error.
  bool write(std::string_view bytes, bool last) {
    stream_.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(bytes.data()));
    stream_.avail_in = static_cast<uint32_t>(bytes.size());
    stream_.end_of_stream = last;
    do {
      stream_.next_out = out_.data();
      stream_.avail_out = static_cast<uint32_t>(out_.size());
      if (isal_deflate(&stream_) != COMP_OK) return false;
      file_.write(reinterpret_cast<const char*>(out_.data()),
                  static_cast<std::streamsize>(out_.size() - stream_.avail_out));
    } while (stream_.avail_in > 0 ||
             (stream_.end_of_stream && stream_.internal_state.state != ZSTATE_END));
    if (last) file_.close();
    return !file_.fail();
  }

  // `count` copies of `byte`, in pieces of 1 MiB.
  bool write_repeated(char byte, uint64_t count, bool last) {
    const std::string piece(1 << 20, byte);
    do {
      const uint64_t n = std::min<uint64_t>(count, piece.size());
      count -= n;
      if (!write(std::string_view(piece).substr(0, n), last && count == 0)) return false;
    } while (count > 0);
    return true;
  }

 private:
  std::vector<uint8_t> level_buffer_, out_;
  isal_zstream stream_;
  std::ofstream file_;
};

}  // namespace attnprof::testing
