#pragma once
// Small files read whole beside the traces: expectations, a bench run's summary.json and
// sweep.csv. Each is bounded (docs/SECURITY.md): `check --expectations /dev/zero` grew to 4.7 GB
// before.

#include <cstdint>
#include <string>

#include "attnprof/result.h"

namespace attnprof {

// The bytes of `path` ("-" is standard input). `what` names the file in messages ("expectations
// file"). Fails for a missing or unreadable file, a directory, and a file longer than `max_bytes`
// (the message names the flag --max-side-file-bytes); reads at most max_bytes + 1 bytes, so a
// device or FIFO that never ends is refused too.
Result<std::string> read_side_file(const std::string& path, uint64_t max_bytes, const char* what);

}  // namespace attnprof
