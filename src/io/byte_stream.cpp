#include "io/byte_stream.h"

#include "io/gzip_byte_stream.h"
#include "io/plain_byte_stream.h"
#include "io/posix_file.h"

namespace attnprof {

namespace {

constexpr char kGzipMagic[2] = {'\x1f', '\x8b'};

// A gzip file starts with 1f 8b. A file that is the single byte 1f is taken for a truncated
// gzip: JSON cannot start with a control character, and `gzip -d` says the same.
bool looks_like_gzip(std::string_view head) {
  if (head.empty() || head[0] != kGzipMagic[0]) return false;
  return head.size() == 1 || head[1] == kGzipMagic[1];
}

}  // namespace

ByteStream::~ByteStream() = default;

Result<std::unique_ptr<ByteStream>> ByteStream::open(const std::string& path,
                                                     const Limits& limits) {
  Result<PosixFile> file = PosixFile::open(path);
  if (!file) return file.take_error();

  // Read the magic bytes with read(), not pread(): pipes and FIFOs work too.
  char head[sizeof kGzipMagic];
  size_t head_size = 0;
  while (head_size < sizeof head) {
    Result<size_t> got = file->read(head + head_size, sizeof head - head_size);
    if (!got) return got.take_error();
    if (*got == 0) break;
    head_size += *got;
  }
  const std::string_view head_bytes(head, head_size);
  if (looks_like_gzip(head_bytes)) {
    return std::unique_ptr<ByteStream>(
        std::make_unique<GzipByteStream>(std::move(*file), head_bytes, limits));
  }
  return std::unique_ptr<ByteStream>(
      std::make_unique<PlainByteStream>(std::move(*file), head_bytes, limits));
}

}  // namespace attnprof
