#pragma once
// The progress line of `attnprof analyze` on a terminal (docs/ARCHITECTURE.md): what has been read,
// how fast, in bytes and in events, for one trace or several read at once. Time comes in as seconds
// so that a test can drive it with a fake clock; the CLI owns the clock and the terminal.

#include <cstddef>
#include <cstdint>
#include <string>

namespace attnprof {

// The reading so far, summed over the traces being read.
struct ReadingTally {
  size_t traces = 1;
  size_t traces_done = 0;  // read, well or not
  size_t traces_failed = 0;
  std::string single_name;   // the file, when there is one trace
  uint64_t bytes_read = 0;   // of the files as stored (compressed, for gzip), as bytes_total
  uint64_t bytes_total = 0;  // 0 when unknown
  uint64_t events_read = 0;
};

// "reading 3/8 traces  1.2/4.5 GB (27%)  950 MB/s  3.1 M events/s", or for one trace
// "reading gpt2.json.gz  0.4/1.1 GB (36%)  250 MB/s  2.3 M events/s"; rates are averages over
// `seconds` since reading began.
std::string format_progress_line(const ReadingTally& tally, double seconds);

// When and how the line is drawn: not at all for the first kFirstDrawSeconds (a small trace
// never flickers a line), then redrawn in place at each frame; erased at the end so that only
// results and errors stay on the terminal.
class ProgressLine {
 public:
  static constexpr double kFirstDrawSeconds = 0.3;

  // The bytes to write to the terminal at `seconds` after reading began: nothing before
  // kFirstDrawSeconds, else the line drawn over the previous one, cut to `columns` - 1 characters
  // (a line that wraps could not be redrawn in place).
  std::string frame(const ReadingTally& tally, double seconds, size_t columns);
  // Clears the line if one was drawn, else nothing.
  std::string erase();
  bool drawn() const { return drawn_; }

 private:
  bool drawn_ = false;
};

}  // namespace attnprof
