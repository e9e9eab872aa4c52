#include "progress.h"

#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

namespace attnprof::bench {

Progress::Mode Progress::mode_for_stderr(bool quiet) {
  if (quiet) return Mode::kQuiet;
  return isatty(STDERR_FILENO) ? Mode::kLive : Mode::kLines;
}

void Progress::start(int index, int total, std::string_view point, std::string_view variant) {
  prefix_ = fmt::format("[{}/{}] {} {}", index, total, point, variant);
  phase("starting");
}

void Progress::phase(std::string_view phase) {
  if (mode_ == Mode::kLive) show(fmt::format("{}: {}…", prefix_, phase), false);
}

void Progress::finish(std::string_view outcome) {
  if (mode_ != Mode::kQuiet) show(fmt::format("{}: {}", prefix_, outcome), true);
}

void Progress::show(const std::string& line, bool final_line) {
  if (mode_ == Mode::kLive) {
    // Carriage return and erase-line: the next phase overwrites this one.
    std::fprintf(stderr, "\r\033[K%s%s", line.c_str(), final_line ? "\n" : "");
  } else {
    std::fprintf(stderr, "%s\n", line.c_str());
  }
  std::fflush(stderr);
}

}  // namespace attnprof::bench
