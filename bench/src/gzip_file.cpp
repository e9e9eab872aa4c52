#include "gzip_file.h"

#include <isa-l/igzip_lib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "io/output_file.h"

namespace attnprof::bench {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

constexpr size_t kChunk = size_t{1} << 20;

// Streams `in` through one gzip member into `out`.
Status deflate_stream(std::FILE* in, OutputFile& out, const std::string& from) {
  std::vector<uint8_t> input(kChunk), output(kChunk);
  // Level 1: fast, and Kineto's repetitive JSON still compresses about tenfold.
  std::vector<uint8_t> level_buffer(ISAL_DEF_LVL1_DEFAULT);
  isal_zstream stream;
  isal_deflate_init(&stream);
  stream.gzip_flag = IGZIP_GZIP;
  stream.level = 1;
  stream.level_buf = level_buffer.data();
  stream.level_buf_size = static_cast<uint32_t>(level_buffer.size());
  stream.flush = NO_FLUSH;
  do {
    const size_t got = std::fread(input.data(), 1, input.size(), in);
    if (std::ferror(in))
      return make_error(ErrorKind::kIo, "cannot read {}: {}", from, std::strerror(errno));
    stream.next_in = input.data();
    stream.avail_in = static_cast<uint32_t>(got);
    stream.end_of_stream = std::feof(in) ? 1 : 0;
    // Drain until the deflater leaves output space unused: then it has taken all the input.
    do {
      stream.next_out = output.data();
      stream.avail_out = static_cast<uint32_t>(output.size());
      if (isal_deflate(&stream) != COMP_OK)
        return make_error(ErrorKind::kIo, "cannot compress {}", from);
      const size_t produced = output.size() - stream.avail_out;
      ATTNPROF_RETURN_IF_ERROR(out.write({reinterpret_cast<const char*>(output.data()), produced}));
    } while (stream.avail_out == 0);
  } while (stream.internal_state.state != ZSTATE_END);
  return Status::success();
}

}  // namespace

Status gzip_file(const std::string& from, const std::string& to) {
  const File in(std::fopen(from.c_str(), "rb"));
  if (!in) return make_error(ErrorKind::kIo, "cannot open {}: {}", from, std::strerror(errno));
  Result<OutputFile> out = OutputFile::open(to);
  if (!out) return out.take_error();
  ATTNPROF_RETURN_IF_ERROR(deflate_stream(in.get(), *out, from));
  return out->commit();  // without it, the temporary file is removed
}

}  // namespace attnprof::bench
