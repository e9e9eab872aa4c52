#include "io/output_file.h"

#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <system_error>
#include <utility>

#include "io/posix_file.h"

namespace attnprof {

namespace {

// --- Temporary names that a signal must not leave behind ------------------------------------
// A fixed table, so that the handler only reads memory and calls unlink (async-signal-safe).

constexpr int kSlots = 16;
enum SlotState : int { kFree, kFilling, kReady };
struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
Slot g_slots[kSlots];

constexpr int kCleanedSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[sizeof kCleanedSignals / sizeof kCleanedSignals[0]];

void remove_temporaries_and_die(int signal_number) {
  for (Slot& slot : g_slots)
    if (slot.state.load() == kReady) ::unlink(slot.path);
  for (size_t i = 0; i < std::size(kCleanedSignals); ++i)
    if (kCleanedSignals[i] == signal_number) ::sigaction(signal_number, &g_previous[i], nullptr);
  ::raise(signal_number);  // the previous disposition: usually death by this signal
}

void install_signal_cleanup() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (size_t i = 0; i < std::size(kCleanedSignals); ++i) {
      ::sigaction(kCleanedSignals[i], nullptr, &g_previous[i]);
      if (g_previous[i].sa_handler == SIG_IGN) continue;  // e.g. nohup: stays ignored
      struct sigaction action {};
      action.sa_handler = remove_temporaries_and_die;
      sigemptyset(&action.sa_mask);
      ::sigaction(kCleanedSignals[i], &action, nullptr);
    }
  });
}

// Registers `path` for removal on a signal; -1 when the table is full or the path too long
// (the file is then only removed by the destructor).
int register_temporary(const std::string& path) {
  install_signal_cleanup();
  if (path.size() >= PATH_MAX) return -1;
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (g_slots[i].state.compare_exchange_strong(expected, kFilling)) {
      std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
      g_slots[i].state.store(kReady);
      return i;
    }
  }
  return -1;
}

void unregister_temporary(const std::string& path) {
  for (Slot& slot : g_slots)
    if (slot.state.load() == kReady && path == slot.path) slot.state.store(kFree);
}

// --- Paths ----------------------------------------------------------------------------------

std::string folder_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// `path` with symbolic links followed to the file they name, which need not exist yet.
Result<std::string> follow_links(const std::string& given) {
  std::string path = given;
  for (int hops = 0; hops < 40; ++hops) {
    struct stat info {};
    if (::lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return path;
    char target[PATH_MAX];
    const ssize_t n = ::readlink(path.c_str(), target, sizeof target - 1);
    if (n < 0)
      return make_error(ErrorKind::kIo, "cannot write {}: {}", given, describe_errno(errno));
    const std::string link(target, static_cast<size_t>(n));
    path = link.front() == '/' ? link : folder_of(path) + "/" + link;
  }
  return make_error(ErrorKind::kIo, "cannot write {}: too many levels of symbolic links", given);
}

mode_t current_umask() {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  return mask;
}

// A name for the temporary file beside `target`, hidden, that no file has yet (or had, when
// the caller's create fails with EEXIST and asks again).
std::string temporary_name(const std::string& target) {
  static std::atomic<unsigned> counter{0};
  return folder_of(target) + "/." + base_of(target) + ".tmp." + std::to_string(::getpid()) + "." +
         std::to_string(counter++);
}

}  // namespace

Result<OutputFile> OutputFile::open(const std::string& path, TemporaryFile temporary) {
  // /dev/stdout is a link to /proc/self/fd/1, itself a link to "pipe:[N]" when piped, which no
  // folder holds: it is standard output by name.
  if (path == "-" || path == "/dev/stdout")
    return OutputFile(Kind::kStandardOutput, STDOUT_FILENO, path);
  if (path.empty())
    return make_error(ErrorKind::kUsage,
                      "cannot write '': give a file name, or - for standard output");
  // What the path names in the end, as the kernel follows it (/proc/self/fd/N, /dev/stderr
  // included): a device, FIFO or pipe is written into.
  struct stat in_the_end {};
  if (::stat(path.c_str(), &in_the_end) == 0 && !S_ISREG(in_the_end.st_mode) &&
      !S_ISDIR(in_the_end.st_mode) && !S_ISSOCK(in_the_end.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
      return make_error(ErrorKind::kIo, "cannot write {}: {}", path, describe_errno(errno));
    OutputFile file(Kind::kIntoSpecialFile, fd, path);
    file.target_ = path;
    return file;
  }
  Result<std::string> target = follow_links(path);
  if (!target) return target.take_error();

  struct stat info {};
  const bool exists = ::stat(target->c_str(), &info) == 0;
  if (exists) {
    if (S_ISDIR(info.st_mode))
      return make_error(ErrorKind::kIo, "cannot write {}: it is a directory; give a file name",
                        path);
    if (S_ISSOCK(info.st_mode))
      return make_error(ErrorKind::kIo, "cannot write {}: it is a socket; give a file name", path);
    if (!S_ISREG(info.st_mode)) {
      // A device, FIFO or terminal: written into, never replaced.
      const int fd = ::open(target->c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
      if (fd < 0)
        return make_error(ErrorKind::kIo, "cannot write {}: {}", path, describe_errno(errno));
      OutputFile file(Kind::kIntoSpecialFile, fd, path);
      file.target_ = *target;
      return file;
    }
    // The rename would replace a read-only file that a plain write could not change.
    if (::access(target->c_str(), W_OK) != 0)
      return make_error(ErrorKind::kIo, "cannot write {}: {}", path, describe_errno(errno));
  }
  const mode_t mode = exists ? (info.st_mode & 07777) : (0666 & ~current_umask());

  const std::string folder = folder_of(*target);
  // O_TMPFILE's file is named at the end through /proc/self/fd (linkat): without /proc, a name.
  static const bool proc_mounted = ::access("/proc/self/fd", X_OK) == 0;
  const bool unnamed = proc_mounted && temporary == TemporaryFile::kUnnamedWhereSupported;
  int fd = unnamed ? ::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600) : -1;
  std::string named;
  if (!unnamed || (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))) {
    // No O_TMPFILE on this file system: a hidden name, removed on a signal.
    for (int attempt = 0; attempt < 100 && fd < 0; ++attempt) {
      named = temporary_name(*target);
      fd = ::open(named.c_str(), O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
      if (fd >= 0) register_temporary(named);  // only a file of ours is ever removed
      if (fd < 0 && errno != EEXIST) break;
    }
  }
  if (fd < 0) {
    const int error = errno;
    return make_error(ErrorKind::kIo, "cannot write {}: {}{}", path, describe_errno(error),
                      error == ENOENT ? " (its folder does not exist)" : "");
  }
  OutputFile file(Kind::kReplace, fd, path);
  file.target_ = *target;
  file.named_temporary_ = std::move(named);
  if (::fchmod(fd, mode) != 0)
    return make_error(ErrorKind::kIo, "cannot write {}: {}", path, describe_errno(errno));
  if (exists && (info.st_uid != ::geteuid() || info.st_gid != ::getegid()))
    (void)!::fchown(fd, info.st_uid, info.st_gid);  // only root may; others keep their own
  return file;
}

OutputFile::OutputFile(OutputFile&& other) noexcept
    : kind_(other.kind_),
      fd_(std::exchange(other.fd_, -1)),
      path_(std::move(other.path_)),
      target_(std::move(other.target_)),
      named_temporary_(std::move(other.named_temporary_)),
      reader_gone_(other.reader_gone_),
      committed_(std::exchange(other.committed_, true)) {}

OutputFile& OutputFile::operator=(OutputFile&& other) noexcept {
  if (this != &other) {
    discard();
    kind_ = other.kind_;
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
    target_ = std::move(other.target_);
    named_temporary_ = std::move(other.named_temporary_);
    reader_gone_ = other.reader_gone_;
    committed_ = std::exchange(other.committed_, true);
  }
  return *this;
}

OutputFile::~OutputFile() {
  discard();
}

void OutputFile::discard() {
  if (!committed_ && !named_temporary_.empty()) {
    ::unlink(named_temporary_.c_str());
    unregister_temporary(named_temporary_);
  }
  named_temporary_.clear();
  if (fd_ >= 0 && kind_ != Kind::kStandardOutput) ::close(fd_);
  fd_ = -1;
}

Status OutputFile::write(std::string_view bytes) {
  if (fd_ < 0) return make_error(ErrorKind::kIo, "cannot write {}: the file is closed", path_);
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      reader_gone_ = error == EPIPE;
      if (kind_ == Kind::kStandardOutput)
        return make_error(ErrorKind::kIo, "cannot write to standard output: {}",
                          describe_errno(error));
      return make_error(ErrorKind::kIo, "cannot write {}: {}", path_, describe_errno(error));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::success();
}

Status OutputFile::commit() {
  if (committed_ || fd_ < 0)
    return make_error(ErrorKind::kIo, "cannot write {}: already written", path_);
  if (kind_ == Kind::kStandardOutput) {
    committed_ = true;
    return Status::success();
  }
  if (kind_ == Kind::kIntoSpecialFile) {
    committed_ = true;
    const int closed = ::close(std::exchange(fd_, -1));
    if (closed != 0)
      return make_error(ErrorKind::kIo, "cannot write {}: {}", path_, describe_errno(errno));
    return Status::success();
  }
  auto fail = [&](int error) -> Status {
    return make_error(ErrorKind::kIo, "cannot write {}: {}", path_, describe_errno(error));
  };
  if (named_temporary_.empty()) {
    // Give the O_TMPFILE file a name, then rename it over the target: link() cannot replace.
    const std::string proc = "/proc/self/fd/" + std::to_string(fd_);
    for (int attempt = 0; attempt < 100; ++attempt) {
      named_temporary_ = temporary_name(target_);
      if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, named_temporary_.c_str(), AT_SYMLINK_FOLLOW) ==
          0) {
        register_temporary(named_temporary_);  // named until the rename: a signal removes it
        break;
      }
      const int error = errno;
      named_temporary_.clear();
      if (error != EEXIST) return fail(error);
    }
    if (named_temporary_.empty()) return fail(EEXIST);
  }
  if (::close(std::exchange(fd_, -1)) != 0) return fail(errno);  // NFS reports late errors here
  if (::rename(named_temporary_.c_str(), target_.c_str()) != 0) return fail(errno);
  unregister_temporary(named_temporary_);
  named_temporary_.clear();
  committed_ = true;
  return Status::success();
}

Status write_output_file(const std::string& path, std::string_view contents) {
  Result<OutputFile> file = OutputFile::open(path);
  if (!file) return file.take_error();
  ATTNPROF_RETURN_IF_ERROR(file->write(contents));
  return file->commit();
}

bool same_existing_file(const std::string& a, const std::string& b) {
  struct stat x {
  }, y{};
  if (a == "-" || b == "-") return false;
  if (::stat(a.c_str(), &x) != 0 || ::stat(b.c_str(), &y) != 0) return false;
  return x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

}  // namespace attnprof
