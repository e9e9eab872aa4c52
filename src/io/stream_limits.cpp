#include "io/stream_limits.h"

namespace attnprof {

Status check_decompressed_size(const std::string& path, uint64_t decompressed,
                               const Limits& limits) {
  if (decompressed <= limits.max_decompressed_bytes) return Status::success();
  return make_error(ErrorKind::kLimit,
                    "'{}' holds more than {} bytes of JSON, the limit: if the trace is really "
                    "this large, raise it with --max-json-bytes",
                    path, limits.max_decompressed_bytes);
}

Status check_gzip_ratio(const std::string& path, uint64_t decompressed, uint64_t compressed,
                        const Limits& limits) {
  if (decompressed <= kGzipRatioCheckAfterBytes) return Status::success();
  // 128-bit product: no overflow whatever the limit and the file size.
  const unsigned __int128 allowed =
      static_cast<unsigned __int128>(compressed) * limits.max_gzip_ratio;
  if (decompressed <= allowed) return Status::success();
  return make_error(ErrorKind::kLimit,
                    "gzip file '{}' expanded {} compressed bytes into {} bytes, more than {}x: "
                    "it looks like a gzip bomb; if the trace is genuine, raise --max-gzip-ratio",
                    path, compressed, decompressed, limits.max_gzip_ratio);
}

}  // namespace attnprof
