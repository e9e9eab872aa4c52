#pragma once
// Progress of a bench run on stderr, so stdout carries only the table.

#include <string>
#include <string_view>

namespace attnprof::bench {

class Progress {
 public:
  enum class Mode {
    kLive,   // stderr is a terminal: one line rewritten in place with the current phase
    kLines,  // stderr is a log: one line per finished variant
    kQuiet,
  };
  // kLive when stderr is a terminal, else kLines; kQuiet when asked.
  static Mode mode_for_stderr(bool quiet);

  explicit Progress(Mode mode) : mode_(mode) {}

  // Starts variant `index` (from 1) of `total` at point `point` ("b4_h16_s2048_d64").
  void start(int index, int total, std::string_view point, std::string_view variant);
  void phase(std::string_view phase);     // "correctness", "timing", "trace", ...
  void finish(std::string_view outcome);  // "ok, 157.2 µs", "unsupported", ...

 private:
  void show(const std::string& line, bool final_line);

  Mode mode_;
  std::string prefix_;
};

}  // namespace attnprof::bench
