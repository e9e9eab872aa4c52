#pragma once
// The one way attnprof and its bench write a file (docs/SECURITY.md; docs/PERFORMANCE.md): whole or
// not at all, and without harm to what the path names.
//
// - A regular file (or a new one) is written to a temporary file in the same folder, which is
//   renamed over it only on commit(): a reader never sees half a file, and a failed or
//   interrupted write leaves the old one. The temporary file has no name while it is written
//  (O_TMPFILE; where the file system lacks it, a hidden name that a SIGINT, SIGTERM or SIGHUP
//   handler removes). The old file's mode (and, where allowed, owner) is kept.
// - A symbolic link is followed: its target is replaced, the link stays.
// - A device, FIFO or terminal is written into, never replaced (as root, `-o /dev/null` would
//   otherwise make /dev/null a regular file). A socket or a folder is refused.
// - "-" and "/dev/stdout" are standard output; an empty name is a usage error.
// Every failure is one line that names the file and the system's reason.

#include <sys/types.h>

#include <string>
#include <string_view>

#include "attnprof/result.h"

namespace attnprof {

// How the temporary file of a replacement is made. kNamed is what happens where the file system
// has no O_TMPFILE; tests choose it to check that a signal still leaves nothing behind.
enum class TemporaryFile { kUnnamedWhereSupported, kNamed };

class OutputFile {
 public:
  // Opens `path` for writing as above. Fails for a folder, a socket, a folder that cannot be
  // written, too many levels of symbolic links.
  static Result<OutputFile> open(const std::string& path,
                                 TemporaryFile temporary = TemporaryFile::kUnnamedWhereSupported);

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&& other) noexcept;
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;
  // Without commit(), the temporary file is removed and the old file stays.
  ~OutputFile();

  // Writes all of `bytes`; fails on a full disk, a closed descriptor, a reader that went away.
  Status write(std::string_view bytes);
  // Puts the file in place (the rename); for standard output and devices, checks nothing was
  // lost. Call once, after the last write.
  Status commit();

  // The last failure was a pipe whose reader went away (`attnprof analyze t | head`): the
  // command should end quietly.
  bool reader_gone() const { return reader_gone_; }
  const std::string& path() const { return path_; }

 private:
  enum class Kind { kStandardOutput, kIntoSpecialFile, kReplace };
  OutputFile(Kind kind, int fd, std::string path) : kind_(kind), fd_(fd), path_(std::move(path)) {}
  void discard();

  Kind kind_;
  int fd_ = -1;
  std::string path_;             // as given, for messages
  std::string target_;           // the file a rename replaces (symbolic links followed)
  std::string named_temporary_;  // the temporary's name, when it has one (no O_TMPFILE)
  bool reader_gone_ = false;
  bool committed_ = false;
};

// Opens `path`, writes `contents`, commits.
Status write_output_file(const std::string& path, std::string_view contents);

// Whether `a` and `b` name one existing file (after symbolic links, hard links too): an output
// must not overwrite an input.
bool same_existing_file(const std::string& a, const std::string& b);

}  // namespace attnprof
