#include "cli/terminal_progress.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>

#include "attnprof/analysis.h"
#include "cli/command_output.h"

namespace attnprof::cli {

namespace {

uint64_t file_size(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) ? static_cast<uint64_t>(st.st_size)
                                                               : 0;
}

size_t terminal_columns() {
  struct winsize ws;
  return ::ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 ? ws.ws_col : 80;
}

void write_stderr(const std::string& text) {
  if (text.empty()) return;
  std::fwrite(text.data(), 1, text.size(), stderr);
  std::fflush(stderr);
}

}  // namespace

TerminalProgress::TerminalProgress(const std::vector<std::string>& paths)
    : counters_(std::make_unique<TraceCounters[]>(paths.size())) {
  for (const auto& p : paths) file_bytes_.push_back(file_size(p));
  if (paths.size() == 1) single_name_ = std::filesystem::path(paths[0]).filename().string();
  if (!paths.empty() && !quiet() && ::isatty(STDERR_FILENO) == 1)
    drawer_ = std::jthread([this](std::stop_token stop) { draw_until_stopped(stop); });
}

TerminalProgress::~TerminalProgress() {
  stop();
}

void TerminalProgress::reading(size_t trace, uint64_t file_bytes_read, uint64_t events_read) {
  counters_[trace].bytes.store(file_bytes_read, std::memory_order_relaxed);
  counters_[trace].events.store(events_read, std::memory_order_relaxed);
}

void TerminalProgress::finished(size_t trace, const Result<TraceAnalysis>& outcome) {
  auto& c = counters_[trace];
  c.bytes.store(file_bytes_[trace], std::memory_order_relaxed);
  if (outcome.ok()) c.events.store(outcome->events, std::memory_order_relaxed);
  c.failed.store(!outcome.ok(), std::memory_order_relaxed);
  c.done.store(true, std::memory_order_release);
}

ReadingTally TerminalProgress::tally() const {
  ReadingTally t;
  t.traces = file_bytes_.size();
  t.single_name = single_name_;
  for (size_t i = 0; i < file_bytes_.size(); ++i) {
    const auto& c = counters_[i];
    t.traces_done += c.done.load(std::memory_order_acquire);
    t.traces_failed += c.failed.load(std::memory_order_relaxed);
    t.bytes_read += c.bytes.load(std::memory_order_relaxed);
    t.events_read += c.events.load(std::memory_order_relaxed);
    t.bytes_total += file_bytes_[i];
  }
  return t;
}

void TerminalProgress::draw_until_stopped(std::stop_token stop) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  std::mutex mutex;
  std::condition_variable_any wake;
  std::unique_lock lock(mutex);
  for (;;) {
    wake.wait_for(lock, stop, std::chrono::milliseconds(100), [] { return false; });
    if (stop.stop_requested()) return;
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    write_stderr(line_.frame(tally(), seconds, terminal_columns()));
  }
}

void TerminalProgress::stop() {
  if (!drawer_.joinable()) return;
  drawer_.request_stop();
  drawer_.join();
  write_stderr(line_.erase());
}

}  // namespace attnprof::cli
