#include "cli/terminal_progress.h"

#include <unistd.h>

#include <cstdio>

namespace attnprof::cli {

TerminalProgress::TerminalProgress(std::string label, uint64_t total)
    : label_(std::move(label)), total_(total), enabled_(isatty(STDERR_FILENO) == 1) {}

TerminalProgress::~TerminalProgress() {
  if (drawn_) std::fprintf(stderr, "\r\033[K");
}

void TerminalProgress::update(uint64_t done) {
  if (!enabled_ || total_ == 0) return;
  int percent = static_cast<int>(done * 100 / total_);
  if (percent == last_percent_) return;
  last_percent_ = percent;
  drawn_ = true;
  std::fprintf(stderr, "\r\033[K%s %3d%%", label_.c_str(), percent > 100 ? 100 : percent);
  std::fflush(stderr);
}

}  // namespace attnprof::cli
