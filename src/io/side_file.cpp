#include "io/side_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "io/posix_file.h"

namespace attnprof {

namespace {}  // namespace

Result<std::string> read_side_file(const std::string& path, uint64_t max_bytes, const char* what) {
  const bool standard_input = path == "-";
  const int fd = standard_input ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return make_error(ErrorKind::kIo, "cannot read {} {}: {}", what, path, describe_errno(errno));
  struct Closer {
    int fd;
    bool keep;
    ~Closer() {
      if (!keep) ::close(fd);
    }
  } closer{fd, standard_input};
  struct stat info {};
  if (::fstat(fd, &info) == 0 && S_ISDIR(info.st_mode))
    return make_error(ErrorKind::kIo, "cannot read {} {}: it is a directory; give a file", what,
                      path);

  std::string bytes;
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0) {
      if (errno == EINTR) continue;
      return make_error(ErrorKind::kIo, "cannot read {} {}: {}", what, path, describe_errno(errno));
    }
    if (n == 0) return bytes;
    bytes.append(buffer, static_cast<size_t>(n));
    if (bytes.size() > max_bytes)
      return make_error(
          ErrorKind::kLimit,
          "{} {} is larger than {} bytes: refused; raise --max-side-file-bytes if it is right",
          what, path, max_bytes);
  }
}

}  // namespace attnprof
