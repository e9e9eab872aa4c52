#pragma once
// Compressing the traces LibTorch saves as plain JSON.

#include <string>

#include "attnprof/result.h"

namespace attnprof::bench {

// Compresses the file at `from` into a gzip file at `to` with ISA-L (the core's inflater's
// library), written atomically; `from` is left in place. Kineto's JSON shrinks about tenfold and
// Perfetto UI, chrome://tracing and `attnprof analyze` all open .json.gz directly. Fails (one
// line naming the file) when `from` cannot be read or `to` cannot be written.
Status gzip_file(const std::string& from, const std::string& to);

}  // namespace attnprof::bench
