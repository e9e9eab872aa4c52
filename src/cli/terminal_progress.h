#pragma once
// The progress line of reading traces on stderr, for one trace or several read at once: drawn
// only when stderr is a terminal (never into a pipe or a log), by a thread of its own every
// tenth of a second, so that the readers only bump counters.

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "attnprof/result.h"
#include "render/analyze/analyze_progress_line.h"

namespace attnprof {
struct TraceAnalysis;
}

namespace attnprof::cli {

class TerminalProgress {
 public:
  // One entry per trace, in the order of the indices given to reading() and finished().
  explicit TerminalProgress(const std::vector<std::string>& paths);
  ~TerminalProgress();
  TerminalProgress(const TerminalProgress&) = delete;
  TerminalProgress& operator=(const TerminalProgress&) = delete;

  // From any thread.
  void reading(size_t trace, uint64_t file_bytes_read, uint64_t events_read);
  void finished(size_t trace, const Result<TraceAnalysis>& outcome);
  // Stops drawing and erases the line; call it before printing results.
  void stop();

 private:
  struct TraceCounters {
    std::atomic<uint64_t> bytes{0}, events{0};
    std::atomic<bool> done{false}, failed{false};
  };

  ReadingTally tally() const;
  void draw_until_stopped(std::stop_token stop);

  std::vector<uint64_t> file_bytes_;
  std::string single_name_;
  std::unique_ptr<TraceCounters[]> counters_;
  ProgressLine line_;  // touched by the drawing thread only, then by stop() once it has ended
  std::jthread drawer_;
};

}  // namespace attnprof::cli
