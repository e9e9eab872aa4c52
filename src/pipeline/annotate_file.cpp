#include "pipeline/annotate_file.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>

#include "analysis/regions/regions.h"
#include "analysis/trace_annotations.h"
#include "io/byte_stream.h"
#include "io/input_guard.h"
#include "io/trace_output_file.h"
#include "reader/json_scan.h"
#include "reader/read_trace.h"
#include "render/annotate_events.h"

namespace attnprof {

namespace {

constexpr size_t kChunk = size_t{1} << 20;

// Finds where the elements of the top-level "traceEvents" array (or of a bare top-level array of
// events) begin, reading more of the stream into `head` as needed. Returns the offset just after
// its `[`.
Result<size_t> find_trace_events(ByteStream& in, std::string& head, bool& at_eof) {
  namespace scan = json_scan;
  auto read_more = [&]() -> Status {
    const size_t old = head.size();
    head.resize(old + kChunk);
    auto n = in.read(head.data() + old, kChunk);
    if (!n.ok()) return n.take_error();
    head.resize(old + *n);
    at_eof = *n == 0;
    return {};
  };
  size_t resume = std::string::npos;  // where the member being scanned starts
  for (;;) {
    std::string_view text = head;
    size_t pos = resume;
    if (pos == std::string::npos) {
      pos = scan::skip_space(text, 0);
      if (pos < text.size()) {
        // A bare array of events (PyTorch 1.8; read_trace read it already): the markers go first.
        if (text[pos] == '[') return pos + 1;
        if (text[pos] != '{')
          return make_error(ErrorKind::kNotATrace, "{}: not a JSON object", in.path());
        resume = pos + 1;
        continue;
      }
    }
    bool need_more = pos >= text.size();
    while (!need_more) {
      pos = scan::skip_space(text, pos);
      if (pos >= text.size()) {
        need_more = true;
        break;
      }
      if (text[pos] == '}')
        return make_error(ErrorKind::kNotATrace, "{}: no \"traceEvents\" array", in.path());
      if (text[pos] == ',') {
        resume = ++pos;
        continue;
      }
      const size_t key_start = pos;
      scan::ValueExtent key = scan::scan_string(text, pos);
      if (key.outcome == scan::Outcome::kInvalid)
        return make_error(ErrorKind::kMalformed, "{}: invalid JSON at byte {}", in.path(), key.end);
      if (key.outcome == scan::Outcome::kNeedMore) break;
      pos = scan::skip_space(text, key.end);
      if (pos >= text.size()) break;
      if (text[pos] != ':')
        return make_error(ErrorKind::kMalformed, "{}: invalid JSON at byte {}", in.path(), pos);
      pos = scan::skip_space(text, pos + 1);
      if (pos >= text.size()) break;
      if (text.substr(key_start, key.end - key_start) == "\"traceEvents\"") {
        if (text[pos] != '[')
          return make_error(ErrorKind::kNotATrace, "{}: \"traceEvents\" is not an array",
                            in.path());
        return pos + 1;
      }
      scan::ValueExtent value = scan::scan_value(text, pos, at_eof);
      if (value.outcome == scan::Outcome::kInvalid)
        return make_error(ErrorKind::kMalformed, "{}: invalid JSON at byte {}", in.path(),
                          value.end);
      if (value.outcome == scan::Outcome::kNeedMore) break;
      resume = pos = value.end;
    }
    if (at_eof)
      return make_error(ErrorKind::kTruncated, "{}: truncated before \"traceEvents\"", in.path());
    ATTNPROF_RETURN_IF_ERROR(read_more());
  }
}

Status copy_with_events(const std::string& path, const std::string& out_path,
                        const std::string& events, const Limits& limits) {
  auto in = ByteStream::open(path, limits);
  if (!in.ok()) return in.take_error();
  std::string head;
  bool at_eof = false;
  auto insert_at = find_trace_events(**in, head, at_eof);
  if (!insert_at.ok()) return insert_at.take_error();
  // Whether the original array has elements: then a comma goes after the new events.
  size_t next = json_scan::skip_space(head, *insert_at);
  while (next >= head.size() && !at_eof) {
    const size_t old = head.size();
    head.resize(old + kChunk);
    auto n = (*in)->read(head.data() + old, kChunk);
    if (!n.ok()) return n.take_error();
    head.resize(old + *n);
    at_eof = *n == 0;
    next = json_scan::skip_space(head, *insert_at);
  }
  const bool empty_array = next < head.size() && head[next] == ']';

  auto out = TraceOutputFile::create(out_path);
  if (!out.ok()) return out.take_error();
  TraceOutputFile& file = **out;
  ATTNPROF_RETURN_IF_ERROR(file.write(std::string_view(head).substr(0, *insert_at)));
  if (!events.empty()) {
    ATTNPROF_RETURN_IF_ERROR(file.write("\n"));
    ATTNPROF_RETURN_IF_ERROR(file.write(events));
    ATTNPROF_RETURN_IF_ERROR(file.write(empty_array ? "\n" : ",\n"));
  }
  ATTNPROF_RETURN_IF_ERROR(file.write(std::string_view(head).substr(*insert_at)));
  std::string chunk(kChunk, '\0');
  while (!at_eof) {
    auto n = (*in)->read(chunk.data(), chunk.size());
    if (!n.ok()) return n.take_error();
    at_eof = *n == 0;
    ATTNPROF_RETURN_IF_ERROR(file.write(std::string_view(chunk).substr(0, *n)));
  }
  return file.commit();
}

// Standard input can be read once, and annotate reads its trace twice (to analyze it, then to
// copy its bytes): a trace given as "-" or /dev/stdin is first copied, as it comes (gzip or
// not), to a private temporary file that goes when this does.
class SpooledInput {
 public:
  SpooledInput() = default;
  SpooledInput(const SpooledInput&) = delete;
  SpooledInput& operator=(const SpooledInput&) = delete;
  ~SpooledInput() {
    if (!path_.empty()) ::unlink(path_.c_str());
  }

  Status spool(uint64_t max_bytes) {
    const char* dir = std::getenv("TMPDIR");
    std::string name = std::string(dir && *dir ? dir : "/tmp") + "/attnprof-stdin-XXXXXX";
    const int fd = ::mkstemp(name.data());
    if (fd < 0)
      return make_error(ErrorKind::kIo, "-: cannot make a temporary file for standard input ({})",
                        std::strerror(errno));
    path_ = name;
    std::string chunk(kChunk, '\0');
    uint64_t total = 0;
    for (;;) {
      const ssize_t n = ::read(STDIN_FILENO, chunk.data(), chunk.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        ::close(fd);
        return make_error(ErrorKind::kIo, "-: cannot read standard input ({})",
                          std::strerror(errno));
      }
      if (n == 0) break;
      total += static_cast<uint64_t>(n);
      if (total > max_bytes) {
        ::close(fd);
        return make_error(ErrorKind::kLimit,
                          "-: standard input is larger than the limit of {} bytes; raise it "
                          "with --max-decompressed-bytes",
                          max_bytes);
      }
      for (ssize_t done = 0; done < n;) {
        const ssize_t w = ::write(fd, chunk.data() + done, static_cast<size_t>(n - done));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
          ::close(fd);
          return make_error(ErrorKind::kIo, "{}: cannot write standard input's copy ({})", path_,
                            std::strerror(errno));
        }
        done += w;
      }
    }
    ::close(fd);
    return Status::success();
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace

bool annotated_by_attnprof(const Trace& trace) {
  for (const InstantEvent& e : trace.instants)
    if (trace.strings.view(e.name).starts_with(kMarkerPrefix)) return true;
  return false;
}

Result<AnnotateOutcome> annotate_file(const std::string& path, const std::string& out_path,
                                      const AnalyzeOptions& options, bool critical_path) {
  if (out_path.empty())
    return make_error(ErrorKind::kUsage,
                      "cannot write '': give a file name, or - for standard output");
  ATTNPROF_RETURN_IF_ERROR(refuse_output_over_inputs(out_path, {path}));
  SpooledInput spooled;
  if (path == "-" || path == "/dev/stdin")
    ATTNPROF_RETURN_IF_ERROR(spooled.spool(options.limits.max_decompressed_bytes));
  const std::string& read_path = spooled.path().empty() ? path : spooled.path();
  auto trace = read_trace(read_path, options.limits, options.progress, options.reading_workers);
  if (!trace.ok()) return trace.take_error();
  if (annotated_by_attnprof(*trace))
    return make_error(ErrorKind::kUsage,
                      "{}: annotated by attnprof already; annotate the original trace", path);
  ATTNPROF_RETURN_IF_ERROR(check_region_overlap(*trace, options.region_pattern,
                                                options.limits.max_region_overlap, path));
  TraceAnnotations annotations = annotate_trace(*trace, options, critical_path);
  // One rule for every command (pipeline/analyze_file.cpp): a pattern that matches nothing is
  // bad input.
  if (!options.region_pattern.empty() && annotations.analysis.regions.empty())
    return no_region_matches(*trace, path, options.region_pattern);
  const std::string events = render_annotation_events(annotations);
  ATTNPROF_RETURN_IF_ERROR(copy_with_events(read_path, out_path, events, options.limits));
  AnnotateOutcome outcome;
  outcome.events_added = annotation_event_count(annotations);
  outcome.hidden_copy_links = annotations.copies.size();
  outcome.critical_paths = annotations.critical_paths.size();
  outcome.analysis = std::move(annotations.analysis);
  return outcome;
}

}  // namespace attnprof
