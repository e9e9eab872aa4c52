#include "pipeline/run_trace_path.h"

#include <system_error>

namespace attnprof {

namespace fs = std::filesystem;

namespace {

bool is_regular(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p, ec);
}

}  // namespace

std::optional<std::string> find_variant_trace(const fs::path& dir, const std::string& file) {
  for (const fs::path& candidate :
       {dir / file, dir / "traces" / file, dir / "traces" / fs::path(file).filename()}) {
    if (is_regular(candidate)) return candidate.string();
  }
  return std::nullopt;
}

std::optional<std::string> find_source_trace(const fs::path& run_dir, const std::string& trace) {
  if (trace.empty()) return std::nullopt;
  const fs::path named(trace);
  if (is_regular(named)) return trace;
  if (named.is_absolute()) return std::nullopt;
  std::error_code ec;
  fs::path dir = fs::absolute(run_dir, ec);
  if (ec) return std::nullopt;
  for (; !dir.empty(); dir = dir.parent_path()) {
    if (is_regular(dir / named)) return (dir / named).lexically_normal().string();
    if (dir == dir.parent_path()) break;
  }
  return std::nullopt;
}

}  // namespace attnprof
