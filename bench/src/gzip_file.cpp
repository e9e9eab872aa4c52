#include "gzip_file.h"

#include <isa-l/igzip_lib.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <vector>

#include "atomic_file.h"

namespace attnprof::bench {
namespace {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

constexpr size_t kChunk = size_t{1} << 20;

// Streams `in` through one gzip member into `out`.
Status deflate_stream(std::FILE* in, std::FILE* out, const std::string& from,
                      const std::string& to) {
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
    if (std::ferror(in)) return make_error("cannot read {}: {}", from, std::strerror(errno));
    stream.next_in = input.data();
    stream.avail_in = static_cast<uint32_t>(got);
    stream.end_of_stream = std::feof(in) ? 1 : 0;
    // Drain until the deflater leaves output space unused: then it has taken all the input.
    do {
      stream.next_out = output.data();
      stream.avail_out = static_cast<uint32_t>(output.size());
      if (isal_deflate(&stream) != COMP_OK) return make_error("cannot compress {}", from);
      const size_t produced = output.size() - stream.avail_out;
      if (std::fwrite(output.data(), 1, produced, out) != produced) {
        return make_error("cannot write {}: {}", to, std::strerror(errno));
      }
    } while (stream.avail_out == 0);
  } while (stream.internal_state.state != ZSTATE_END);
  return Status::success();
}

}  // namespace

Status gzip_file(const std::string& from, const std::string& to) {
  const File in(std::fopen(from.c_str(), "rb"));
  if (!in) return make_error("cannot open {}: {}", from, std::strerror(errno));
  const std::string temporary = temporary_path_for(to);
  File out(std::fopen(temporary.c_str(), "wb"));
  if (!out) return make_error("cannot write {}: {}", temporary, std::strerror(errno));
  Status status = deflate_stream(in.get(), out.get(), from, temporary);
  if (std::fclose(out.release()) != 0 && status.ok()) {
    status = make_error("cannot write {}: {}", temporary, std::strerror(errno));
  }
  if (status.ok() && std::rename(temporary.c_str(), to.c_str()) != 0) {
    status = make_error("cannot rename {} to {}: {}", temporary, to, std::strerror(errno));
  }
  if (!status.ok()) std::remove(temporary.c_str());
  return status;
}

}  // namespace attnprof::bench
