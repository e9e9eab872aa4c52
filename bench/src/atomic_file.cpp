#include "atomic_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace attnprof::bench {

std::string temporary_path_for(const std::string& path) {
  return path + ".tmp." + std::to_string(getpid());
}

Status write_file_atomically(const std::string& path, std::string_view contents) {
  const std::string temporary = temporary_path_for(path);
  std::FILE* file = std::fopen(temporary.c_str(), "wb");
  if (!file) return make_error("cannot write {}: {}", temporary, std::strerror(errno));
  const bool written = std::fwrite(contents.data(), 1, contents.size(), file) == contents.size();
  const int write_errno = errno;
  if (std::fclose(file) != 0 || !written) {
    std::remove(temporary.c_str());
    return make_error("cannot write {}: {}", temporary,
                      std::strerror(written ? errno : write_errno));
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int rename_errno = errno;
    std::remove(temporary.c_str());
    return make_error("cannot rename {} to {}: {}", temporary, path, std::strerror(rename_errno));
  }
  return Status::success();
}

}  // namespace attnprof::bench
