// Throughput of `analyze` beside its floors, measured side by side in one run (a benchmark, not a
// timed test). For each trace, each mode runs in its own child process, so that its peak RSS is
// its own; the best of --repeat runs is kept.
//
//   inflate        ISA-L inflate alone (gzip files): the floor of reading the bytes
//   count/stream   inflate + the reader's chunking + simdjson on-demand over every event, reading
//                  no field: the floor of the streaming parse
//   count/whole    the whole JSON in one padded_string, one simdjson on-demand pass counting
//                  traceEvents (docs/PERFORMANCE.md, "Fresh memory"; skipped above --whole-limit)
//   read           the reader alone: the model (tables, strings, links) of the whole trace; its
//                  "model MB" is what the Trace holds, so that peak RSS minus it is what reading
//                  costs beyond the model (it must not grow with the file)
//   analyze        attnprof's full analysis: read, model, links, regions, summaries
//
// usage: throughput [--repeat N] [--whole-limit BYTES] [--mode NAME]... TRACE...
// (--mode runs only the named modes, e.g. to profile one of them under perf)

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "attnprof/analysis.h"
#include "io/byte_stream.h"
#include "model/trace_memory.h"
#include "reader/read_trace.h"
#include "reader/trace_document.h"

namespace {

using attnprof::ByteStream;
using attnprof::Limits;

struct Measurement {
  bool ok = false;
  double seconds = 0;
  uint64_t json_bytes = 0;
  uint64_t events = 0;
  uint64_t model_bytes = 0;
  long peak_rss_kb = 0;
  double cpu_seconds = 0;  // user + system, all threads
};

struct ChildReport {
  double seconds;
  uint64_t json_bytes;
  uint64_t events;
  uint64_t model_bytes;
};

// Runs `work` in a child process; the child reports time and counts through a pipe.
Measurement in_child(const std::function<bool(ChildReport&)>& work) {
  int fds[2];
  if (pipe(fds) != 0) return {};
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    ChildReport report{};
    auto start = std::chrono::steady_clock::now();
    bool ok = work(report);
    report.seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (ok && write(fds[1], &report, sizeof report) != sizeof report) _exit(3);
    _exit(ok ? 0 : 1);
  }
  close(fds[1]);
  ChildReport report{};
  bool got = read(fds[0], &report, sizeof report) == sizeof report;
  close(fds[0]);
  int status = 0;
  struct rusage usage {};
  wait4(pid, &status, 0, &usage);
  Measurement m;
  m.ok = got && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  m.seconds = report.seconds;
  m.json_bytes = report.json_bytes;
  m.events = report.events;
  m.model_bytes = report.model_bytes;
  m.peak_rss_kb = usage.ru_maxrss;
  m.cpu_seconds = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec +
                  usage.ru_stime.tv_usec / 1e6;
  return m;
}

bool inflate_only(const std::string& path, ChildReport& r) {
  auto stream = ByteStream::open(path, Limits{});
  if (!stream.ok()) return false;
  std::vector<char> buffer(4 << 20);
  for (;;) {
    auto n = (*stream)->read(buffer.data(), buffer.size());
    if (!n.ok()) return false;
    if (*n == 0) break;
    r.json_bytes += *n;
  }
  return true;
}

// Counts events on the reading thread alone (one worker, no parsing thread): the floor of the
// streaming parse, without the rows. A batch's count is final when the batch is committed.
class CountingSink final : public attnprof::DocumentSink, public attnprof::EventBatchSink {
 public:
  attnprof::Status top_level_member(std::string_view, std::string_view, uint64_t) override {
    return {};
  }
  void begin_batch(uint64_t sequence) override { parsed_.emplace_back(sequence, 0); }
  simdjson::error_code event(simdjson::ondemand::value, uint64_t) override {
    ++parsed_.back().second;
    return simdjson::SUCCESS;
  }
  void end_batch(bool parsed) override {
    if (!parsed) parsed_.pop_back();
  }
  void discard_batches_from(uint64_t sequence) override {
    while (!parsed_.empty() && parsed_.back().first >= sequence) parsed_.pop_back();
  }
  void commit_batch(uint64_t sequence, size_t) override {
    while (!parsed_.empty() && parsed_.front().first <= sequence) {
      events += parsed_.front().second;
      parsed_.pop_front();
    }
  }
  uint64_t events = 0;

 private:
  std::deque<std::pair<uint64_t, uint64_t>> parsed_;  // (sequence, events), not yet committed
};

bool count_streamed(const std::string& path, ChildReport& r) {
  auto stream = attnprof::ByteStream::open(path, Limits{});
  if (!stream.ok()) return false;
  CountingSink sink;
  attnprof::EventBatchSink* worker = &sink;
  auto stats = attnprof::read_trace_document(
      **stream, path, Limits{}, sink, std::span<attnprof::EventBatchSink* const>(&worker, 1));
  if (!stats.ok()) {
    std::fprintf(stderr, "%s\n", stats.error().message.c_str());
    return false;
  }
  r.json_bytes = stats->json_bytes;
  r.events = sink.events;
  return true;
}

bool count_whole(const std::string& path, ChildReport& r) {
  auto stream = ByteStream::open(path, Limits{});
  if (!stream.ok()) return false;
  std::string text;
  std::vector<char> buffer(4 << 20);
  for (;;) {
    auto n = (*stream)->read(buffer.data(), buffer.size());
    if (!n.ok()) return false;
    if (*n == 0) break;
    text.append(buffer.data(), *n);
  }
  simdjson::padded_string json(text);
  std::string().swap(text);
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  simdjson::ondemand::array events;
  if (parser.iterate(json).get(doc) || doc["traceEvents"].get_array().get(events)) return false;
  for (auto e : events) {
    if (e.error()) return false;
    ++r.events;
  }
  r.json_bytes = json.size();
  return true;
}

bool read_model(const std::string& path, ChildReport& r) {
  auto trace = attnprof::read_trace(path, Limits{});
  if (!trace.ok()) {
    std::fprintf(stderr, "%s\n", trace.error().message.c_str());
    return false;
  }
  r.json_bytes = trace->json_bytes;
  r.events = trace->events_read;
  r.model_bytes = attnprof::trace_memory_bytes(*trace);
  return true;
}

bool analyze(const std::string& path, ChildReport& r) {
  auto result = attnprof::analyze_file(path, attnprof::AnalyzeOptions{});
  if (!result.ok()) {
    std::fprintf(stderr, "%s\n", result.error().message.c_str());
    return false;
  }
  r.json_bytes = result->json_bytes;
  r.events = result->events;
  return true;
}

bool is_gzip(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  unsigned char magic[2] = {0, 0};
  size_t n = std::fread(magic, 1, 2, f);
  std::fclose(f);
  return n == 2 && magic[0] == 0x1f && magic[1] == 0x8b;
}

}  // namespace

int main(int argc, char** argv) {
  int repeat = 3;
  uint64_t whole_limit = uint64_t{3} << 30;
  std::vector<std::string> traces;
  std::vector<std::string> only;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc)
      repeat = std::stoi(argv[++i]);
    else if (arg == "--whole-limit" && i + 1 < argc)
      whole_limit = std::stoull(argv[++i]);
    else if (arg == "--mode" && i + 1 < argc)
      only.push_back(argv[++i]);
    else
      traces.push_back(arg);
  }
  if (traces.empty()) {
    std::fprintf(
        stderr, "usage: throughput [--repeat N] [--whole-limit BYTES] [--mode NAME]... TRACE...\n");
    return 2;
  }
  // seconds: the best of --repeat runs; worst: the slowest; cpu s: user + system of the best run.
  // model MB: what the Trace holds (mode read); peak MB: the child's peak RSS.
  std::printf("%-40s %-13s %8s %8s %8s %9s %10s %10s %10s %9s\n", "trace", "mode", "seconds",
              "worst", "cpu s", "MB/s", "peak MB", "model MB", "events", "vs floor");
  for (const auto& path : traces) {
    struct Mode {
      std::string name;
      std::function<bool(ChildReport&)> work;
    };
    std::vector<Mode> modes;
    if (is_gzip(path))
      modes.push_back({"inflate", [&](ChildReport& r) { return inflate_only(path, r); }});
    modes.push_back({"count/stream", [&](ChildReport& r) { return count_streamed(path, r); }});
    modes.push_back({"count/whole", [&](ChildReport& r) { return count_whole(path, r); }});
    modes.push_back({"read", [&](ChildReport& r) { return read_model(path, r); }});
    modes.push_back({"analyze", [&](ChildReport& r) { return analyze(path, r); }});
    double floor_seconds = 0;
    uint64_t json_bytes = 0;
    for (const auto& mode : modes) {
      if (mode.name == "count/whole" && json_bytes > whole_limit) continue;
      if (!only.empty() && std::find(only.begin(), only.end(), mode.name) == only.end()) continue;
      Measurement best;
      double worst_seconds = 0;
      for (int i = 0; i < repeat; ++i) {
        Measurement m = in_child(mode.work);
        if (!m.ok) {
          std::fprintf(stderr, "%s: %s failed\n", path.c_str(), mode.name.c_str());
          return 2;
        }
        if (!best.ok || m.seconds < best.seconds) best = m;
        worst_seconds = std::max(worst_seconds, m.seconds);
      }
      json_bytes = best.json_bytes;
      if (mode.name == "count/stream") floor_seconds = best.seconds;
      std::string name = path.size() > 40 ? "..." + path.substr(path.size() - 37) : path;
      std::printf(
          "%-40s %-13s %8.3f %8.3f %8.2f %9.0f %10.1f %10s %10s %9s\n", name.c_str(),
          mode.name.c_str(), best.seconds, worst_seconds, best.cpu_seconds,
          best.json_bytes / 1e6 / best.seconds, best.peak_rss_kb / 1024.0,
          best.model_bytes ? fmt::format("{:.1f}", best.model_bytes / 1048576.0).c_str() : "",
          best.events ? std::to_string(best.events).c_str() : "",
          floor_seconds > 0 ? fmt::format("{:.2f}x", best.seconds / floor_seconds).c_str() : "");
    }
  }
  return 0;
}
