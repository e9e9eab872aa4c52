#pragma once
// The gzip-writing sibling of io/output_file.h, for `annotate`: a trace copy can be large and
// compressed, so it is written as it is made. It writes through io/output_file.h, so it is as
// safe: whole or not at all (a temporary file that cannot be planted, renamed into place on
// commit, removed on a signal), the old file's mode kept, a device, FIFO or symbolic link written
// through and never replaced, "-" and "/dev/stdout" standard output. A PATH ending in .gz is
// written as gzip (ISA-L's deflate, level 1: fast, and Perfetto UI and attnprof read it).

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "attnprof/result.h"
#include "io/output_file.h"

namespace attnprof {

class TraceOutputFile {
 public:
  // Fails with one line naming the file when it cannot be opened (io/output_file.h's reasons).
  static Result<std::unique_ptr<TraceOutputFile>> create(const std::string& path);
  ~TraceOutputFile();  // without commit(): the old file stays
  TraceOutputFile(const TraceOutputFile&) = delete;
  TraceOutputFile& operator=(const TraceOutputFile&) = delete;

  Status write(std::string_view bytes);
  // Ends the gzip stream, flushes, and renames the file into place.
  Status commit();

 private:
  TraceOutputFile(OutputFile file, bool gzip);
  Status deflate(std::string_view bytes, bool last);

  struct Deflater;  // ISA-L's state, kept out of this header

  OutputFile file_;
  bool gzip_;
  std::unique_ptr<Deflater> deflater_;
};

}  // namespace attnprof
