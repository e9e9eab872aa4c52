#pragma once
// A file opened for reading with plain POSIX calls: the descriptor is closed on destruction, and
// every failure becomes one line that names the file.

#include <cstddef>
#include <cstdint>
#include <string>

#include "attnprof/result.h"

namespace attnprof {

// The system's words for an errno value ("No such file or directory"); thread-safe, as strerror()
// is not.
std::string describe_errno(int error);

class PosixFile {
 public:
  // Fails for a missing file, a directory, or a file that cannot be opened (e.g. no permission).
  // "-" is standard input.
  static Result<PosixFile> open(const std::string& path);

  PosixFile(PosixFile&& other) noexcept;
  PosixFile& operator=(PosixFile&& other) noexcept;
  PosixFile(const PosixFile&) = delete;
  PosixFile& operator=(const PosixFile&) = delete;
  ~PosixFile();

  // Reads up to `capacity` bytes; 0 only at the end of the file. Fails on an I/O error,
  // naming the byte offset where it happened.
  Result<size_t> read(void* out, size_t capacity);

  uint64_t bytes_read() const { return bytes_read_; }
  const std::string& path() const { return path_; }

 private:
  PosixFile(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}

  int fd_ = -1;
  uint64_t bytes_read_ = 0;
  std::string path_;
};

}  // namespace attnprof
