#pragma once
// A one-line progress display on stderr, shown only when stderr is a terminal.

#include <cstdint>
#include <string>

namespace attnprof::cli {

class TerminalProgress {
 public:
  // `total` in the same unit as update(); 0 when unknown.
  TerminalProgress(std::string label, uint64_t total);
  ~TerminalProgress();
  void update(uint64_t done);

 private:
  std::string label_;
  uint64_t total_;
  bool enabled_;
  bool drawn_ = false;
  int last_percent_ = -1;
};

}  // namespace attnprof::cli
