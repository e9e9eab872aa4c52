#include "io/trace_output_file.h"

#include <isa-l/igzip_lib.h>

#include <vector>

namespace attnprof {

struct TraceOutputFile::Deflater {
  std::vector<uint8_t> level_buffer = std::vector<uint8_t>(ISAL_DEF_LVL1_DEFAULT);
  std::vector<uint8_t> out = std::vector<uint8_t>(size_t{1} << 20);
  isal_zstream stream{};
};

Result<std::unique_ptr<TraceOutputFile>> TraceOutputFile::create(const std::string& path) {
  Result<OutputFile> file = OutputFile::open(path);
  if (!file) return file.take_error();
  const bool gzip = path.size() > 3 && path.ends_with(".gz");
  return std::unique_ptr<TraceOutputFile>(new TraceOutputFile(std::move(*file), gzip));
}

TraceOutputFile::TraceOutputFile(OutputFile file, bool gzip) : file_(std::move(file)), gzip_(gzip) {
  if (!gzip_) return;
  deflater_ = std::make_unique<Deflater>();
  isal_zstream& z = deflater_->stream;
  isal_deflate_init(&z);
  z.gzip_flag = IGZIP_GZIP;
  z.level = 1;
  z.level_buf = deflater_->level_buffer.data();
  z.level_buf_size = static_cast<uint32_t>(deflater_->level_buffer.size());
}

TraceOutputFile::~TraceOutputFile() = default;

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
        return make_error(ErrorKind::kIo, "cannot write {}: gzip deflate failed", file_.path());
      ATTNPROF_RETURN_IF_ERROR(file_.write(
          std::string_view(reinterpret_cast<const char*>(out.data()), out.size() - z.avail_out)));
    } while (z.avail_in > 0 || (z.end_of_stream && z.internal_state.state != ZSTATE_END));
  } while (!bytes.empty());
  return {};
}

Status TraceOutputFile::write(std::string_view bytes) {
  return gzip_ ? deflate(bytes, false) : file_.write(bytes);
}

Status TraceOutputFile::commit() {
  if (gzip_) ATTNPROF_RETURN_IF_ERROR(deflate({}, true));
  return file_.commit();
}

}  // namespace attnprof
