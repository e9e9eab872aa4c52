#pragma once
// Outputs appear whole or not at all (STYLE.md, practice 10).

#include <string>
#include <string_view>

#include "attnprof/result.h"

namespace attnprof::bench {

// A temporary name beside `path` (same folder, so the final rename stays on one file system).
std::string temporary_path_for(const std::string& path);

// Writes `contents` to a temporary file beside `path`, then renames it over `path`, so a reader
// never sees half a file. Fails (one line naming the file) when the folder is not writable or
// the disk is full; the temporary file is removed then.
Status write_file_atomically(const std::string& path, std::string_view contents);

}  // namespace attnprof::bench
