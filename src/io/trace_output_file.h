#pragma once
// (The gzip-writing sibling of io/output_file.h, for `annotate`: a trace copy can be large and
// compressed; io/output_file.h writes whole contents held in memory.)
// A file written whole or not at all: bytes go to PATH.tmp-PID, which is renamed over PATH only
// when everything was written (STYLE.md: outputs are written atomically), so that a reader never
// sees half a trace and a failed run leaves the old file as it was. A PATH ending in .gz is
// written as gzip (ISA-L's deflate, level 1: fast, and Perfetto UI and attnprof read it).

#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>

#include "attnprof/result.h"

namespace attnprof {

class TraceOutputFile {
 public:
  // Fails with one line naming the file when its temporary file cannot be created.
  static Result<std::unique_ptr<TraceOutputFile>> create(const std::string& path);
  ~TraceOutputFile();  // without commit(): the temporary file is removed
  TraceOutputFile(const TraceOutputFile&) = delete;
  TraceOutputFile& operator=(const TraceOutputFile&) = delete;

  Status write(std::string_view bytes);
  // Ends the gzip stream, flushes, and renames the file into place.
  Status commit();

 private:
  TraceOutputFile(std::string path, std::string temporary, std::FILE* file, bool gzip);
  Status deflate(std::string_view bytes, bool last);
  Status write_raw(const void* data, size_t size);
  Status failed(const char* what);

  struct Deflater;  // ISA-L's state, kept out of this header

  std::string path_, temporary_;
  std::FILE* file_;
  bool gzip_;
  bool committed_ = false;
  std::unique_ptr<Deflater> deflater_;
};

}  // namespace attnprof
