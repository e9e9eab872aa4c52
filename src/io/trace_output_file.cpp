#include "io/trace_output_file.h"

#include <isa-l/igzip_lib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <vector>

#include <fmt/format.h>

namespace attnprof {

struct TraceOutputFile::Deflater {
  std::vector<uint8_t> level_buffer = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);
  std::vector<uint8_t> out = std::vector<uint8_t>(size_t{1} << 20);
  isal_zstream stream{};
};

Result<std::unique_ptr<TraceOutputFile>> TraceOutputFile::create(const std::string& path) {
  std::string temporary = fmt::format("{}.tmp-{}", path, ::getpid());
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file)
    return make_error(ErrorKind::kIo,
                      "{}: cannot write here ({}); check the folder exists and is writable", path,
                      std::strerror(errno));
  const bool gzip = path.size() > 3 && path.ends_with(".gz");
  return std::unique_ptr<TraceOutputFile>(
      new TraceOutputFile(path, std::move(temporary), file, gzip));
}

TraceOutputFile::TraceOutputFile(std::string path, std::string temporary, std::FILE* file,
                                 bool gzip)
    : path_(std::move(path)), temporary_(std::move(temporary)), file_(file), gzip_(gzip) {
  if (!gzip_) return;
  deflater_ = std::make_unique<Deflater>();
  isal_zstream& z = deflater_->stream;
  isal_deflate_init(&z);
  z.gzip_flag = IGZIP_GZIP;
  z.level = 1;
  z.level_buf = deflater_->level_buffer.data();
  z.level_buf_size = static_cast<uint32_t>(deflater_->level_buffer.size());
}

TraceOutputFile::~TraceOutputFile() {
  if (file_) std::fclose(file_);
  if (!committed_) std::remove(temporary_.c_str());
}

Status TraceOutputFile::failed(const char* what) {
  return make_error(ErrorKind::kIo, "{}: cannot {} ({})", path_, what, std::strerror(errno));
}

Status TraceOutputFile::write_raw(const void* data, size_t size) {
  if (size > 0 && std::fwrite(data, 1, size, file_) != size) return failed("write");
  return {};
}

Status TraceOutputFile::deflate(std::string_view bytes, bool last) {
  // ISA-L takes at most 4 GiB per call: feed larger pieces in parts.
  constexpr size_t kMaxPiece = size_t{1} << 30;
  isal_zstream& z = deflater_->stream;
  std::vector<uint8_t>& out = deflater_->out;
  do {
    const std::string_view piece = bytes.substr(0, kMaxPiece);
    bytes.remove_prefix(piece.size());
    z.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(piece.data()));
    z.avail_in = static_cast<uint32_t>(piece.size());
    z.end_of_stream = last && bytes.empty();
    do {
      z.next_out = out.data();
      z.avail_out = static_cast<uint32_t>(out.size());
      if (isal_deflate(&z) != COMP_OK)
        return make_error(ErrorKind::kIo, "{}: gzip deflate failed", path_);
      ATTNPROF_RETURN_IF_ERROR(write_raw(out.data(), out.size() - z.avail_out));
    } while (z.avail_in > 0 || (z.end_of_stream && z.internal_state.state != ZSTATE_END));
  } while (!bytes.empty());
  return {};
}

Status TraceOutputFile::write(std::string_view bytes) {
  return gzip_ ? deflate(bytes, false) : write_raw(bytes.data(), bytes.size());
}

Status TraceOutputFile::commit() {
  if (gzip_) ATTNPROF_RETURN_IF_ERROR(deflate({}, true));
  const int closed = std::fclose(file_);
  file_ = nullptr;
  if (closed != 0) return failed("write");
  if (std::rename(temporary_.c_str(), path_.c_str()) != 0) return failed("rename into place");
  committed_ = true;
  return {};
}

}  // namespace attnprof
