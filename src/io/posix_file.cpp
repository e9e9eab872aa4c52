#include "io/posix_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>
#include <utility>

namespace attnprof {

std::string describe_errno(int error) {
  return std::generic_category().message(error);
}

namespace {

Error open_error(const std::string& path, int error) {
  switch (error) {
    case ENOENT:
      return make_error(ErrorKind::kIo, "cannot open trace file '{}': no such file; check the path",
                        path);
    case EACCES:
      return make_error(ErrorKind::kIo,
                        "cannot open trace file '{}': permission denied; check its permissions",
                        path);
    default:
      return make_error(ErrorKind::kIo, "cannot open trace file '{}': {}", path,
                        describe_errno(error));
  }
}

}  // namespace

Result<PosixFile> PosixFile::open(const std::string& path) {
  // "-" is standard input (docs/SECURITY.md), duplicated so that closing this file leaves it open.
  const int fd = path == "-" ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3)
                             : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return open_error(path, errno);
  PosixFile file(fd, path);  // closes fd on every path below
  struct stat info {};
  if (::fstat(fd, &info) != 0) return open_error(path, errno);
  if (S_ISDIR(info.st_mode)) {
    return make_error(ErrorKind::kIo,
                      "'{}' is a directory, not a trace file: give the path of a .json or "
                      ".json.gz trace",
                      path);
  }
  return file;
}

PosixFile::PosixFile(PosixFile&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)),
      bytes_read_(other.bytes_read_),
      path_(std::move(other.path_)) {}

PosixFile& PosixFile::operator=(PosixFile&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    bytes_read_ = other.bytes_read_;
    path_ = std::move(other.path_);
  }
  return *this;
}

PosixFile::~PosixFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<size_t> PosixFile::read(void* out, size_t capacity) {
  for (;;) {
    const ssize_t n = ::read(fd_, out, capacity);
    if (n >= 0) {
      bytes_read_ += static_cast<uint64_t>(n);
      return static_cast<size_t>(n);
    }
    if (errno == EINTR) continue;
    return make_error(ErrorKind::kIo,
                      "reading '{}' failed at byte offset {}: {}; check the disk or copy the file "
                      "elsewhere",
                      path_, bytes_read_, describe_errno(errno));
  }
}

}  // namespace attnprof
