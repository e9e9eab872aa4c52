// grow_trace: makes a large trace out of a real one, for throughput measurements.
//
//   grow_trace IN.json[.gz] OUT.json --target-bytes 1G     (or --repeat N)
//
// OUT keeps IN's text around traceEvents byte for byte (so the top-level keys are unchanged),
// and its traceEvents are IN's events K times. Copy k is shifted later by k * (IN's time span +
// a gap), and its ids by k * (largest id + 1), so that copies never overlap in time, no two
// copies share an id, and every link (op -> kernel, flow start -> end, Python parent -> child)
// stays inside its copy. One id step serves every id field: Kineto gives an ac2g flow the id of
// its correlation, and that equality survives. ProfilerStep#N numbers move by
// k * (largest step + 1), so the copies read as the later steps of one run.
// The ids changed: args "External id", "correlation", "Ev Idx", "Python id", "Python parent id",
// "Sequence number", and the "id" of flow events (ph s, t, f). Ids that are not integers (the
// root's null "Python parent id") are left as they are.
//
// Times are microseconds with nanosecond fractions ("5145955961231.544": 16 digits, more than a
// double holds exactly). They are shifted as integer nanoseconds and printed back as
// <int>.<3 digits>, so they stay exact. Everything else is copied byte for byte: the input is
// parsed once with simdjson on-demand, which gives the position of every number to change, and
// each copy is written as the input's text with those numbers replaced.

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>
#include <CLI/CLI.hpp>

#include "attnprof/limits.h"
#include "attnprof/result.h"
#include "io/byte_stream.h"

namespace attnprof {
namespace {

namespace od = simdjson::ondemand;

// Event fields whose integers are ids: each copy gets its own range of them.
constexpr std::array<std::string_view, 6> kIdArgs = {
    "External id", "correlation",      "Ev Idx",
    "Python id",   "Python parent id", "Sequence number",  // fwd -> bwd op links
};
constexpr std::string_view kStepPrefix = "\"ProfilerStep#";

// ---------------------------------------------------------------------------------------------
// Numbers in the input's text.

bool is_json_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

std::string_view trim_right(std::string_view text) {
  while (!text.empty() && is_json_space(text.back())) text.remove_suffix(1);
  return text;
}

// An integer token ("-12", "3573"); nullopt for anything else (null, strings, fractions).
std::optional<int64_t> parse_integer(std::string_view token) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

// Microseconds with at most 3 decimals, as exact integer nanoseconds; nullopt for anything a
// nanosecond count cannot hold exactly (more decimals, exponents, overflow). Unlike the reader's
// microseconds_text_to_ns, which rounds, this must be exact: the tool writes the value back.
std::optional<int64_t> parse_exact_ns(std::string_view token) {
  const size_t dot = token.find('.');
  const std::string_view whole = token.substr(0, dot);
  std::optional<int64_t> us = parse_integer(whole);
  if (!us || whole.empty() || whole == "-") return std::nullopt;
  int64_t fraction_ns = 0;
  if (dot != std::string_view::npos) {
    const std::string_view fraction = token.substr(dot + 1);
    if (fraction.empty() || fraction.size() > 3) return std::nullopt;
    for (char c : fraction) {
      if (c < '0' || c > '9') return std::nullopt;
      fraction_ns = fraction_ns * 10 + (c - '0');
    }
    for (size_t i = fraction.size(); i < 3; ++i) fraction_ns *= 10;
  }
  int64_t ns = 0;
  if (__builtin_mul_overflow(*us, int64_t{1000}, &ns)) return std::nullopt;
  const bool negative = !whole.empty() && whole[0] == '-';
  if (__builtin_add_overflow(ns, negative ? -fraction_ns : fraction_ns, &ns)) return std::nullopt;
  return ns;
}

void append_microseconds(std::string& out, int64_t ns) {
  if (ns < 0) out += '-';
  const uint64_t magnitude = ns < 0 ? 0 - static_cast<uint64_t>(ns) : static_cast<uint64_t>(ns);
  fmt::format_to(std::back_inserter(out), "{}.{:03}", magnitude / 1000, magnitude % 1000);
}

void append_integer(std::string& out, int64_t value) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, value);
  out.append(digits, end);
}

// ---------------------------------------------------------------------------------------------
// The input, scanned once: its traceEvents text and the numbers each copy changes in it.

enum class PatchKind : uint8_t { kTime, kId, kStep };

struct Patch {
  size_t offset;  // in TraceTemplate::events
  size_t length;
  PatchKind kind;
  int64_t value;  // nanoseconds for kTime
};

struct TraceTemplate {
  std::string_view before;     // the input up to its first event
  std::string_view events;     // first event .. last event, as in the input
  std::string_view separator;  // between two events, as in the input
  std::string_view after;      // the input after its last event
  std::vector<Patch> patches;  // by offset
  uint64_t event_count = 0;
  int64_t first_ns = 0;  // earliest ts
  int64_t end_ns = 0;    // latest ts + dur
  int64_t min_id = 0;
  int64_t max_id = -1;
  int64_t max_step = -1;
};

class TemplateBuilder {
 public:
  TemplateBuilder(const std::string& path, const char* base) : path_(path), base_(base) {}

  // Reads one event; records the numbers to change.
  Status add_event(od::value element) {
    od::object event;
    if (element.get_object().get(event)) return Status::success();  // not an event: copied
    std::optional<Patch> flow_id;
    std::optional<int64_t> ts, dur;
    char phase = 0;
    for (auto field_result : event) {
      od::field field;
      std::string_view key;
      if (std::move(field_result).get(field) || field.unescaped_key().get(key)) {
        return json_error(element);
      }
      od::value value = field.value();
      if (key == "ph") {
        std::string_view ph;
        if (!value.get_string().get(ph) && ph.size() == 1) phase = ph[0];
      } else if (key == "ts" || key == "dur") {
        const std::string_view token = trim_right(value.raw_json_token());
        std::optional<int64_t> ns = parse_exact_ns(token);
        if (!ns) {
          return make_error(ErrorKind::kMalformed,
                            "'{}': {} {} at byte offset {} is not microseconds with at most 3 "
                            "decimals: grow_trace shifts times exactly in nanoseconds and cannot "
                            "shift this one",
                            path_, key, token, offset_of(token));
        }
        if (key == "ts") {
          ts = ns;
          patches_.push_back(time_patch(token, *ns));
        } else {
          dur = ns;
        }
      } else if (key == "id") {
        flow_id = id_patch(trim_right(value.raw_json_token()));
      } else if (key == "name") {
        add_step_patch(trim_right(value.raw_json_token()));
      } else if (key == "args") {
        ATTNPROF_RETURN_IF_ERROR(add_args(value));
      }
    }
    // Only flow events' ids are links; other events' "id" fields are left alone.
    if (flow_id && (phase == 's' || phase == 'f' || phase == 't')) add_id_patch(*flow_id);
    if (ts) {
      first_ns_ = std::min(first_ns_, *ts);
      end_ns_ = std::max(end_ns_, *ts + (dur && *dur > 0 ? *dur : 0));
      saw_time_ = true;
    }
    return Status::success();
  }

  void finish(TraceTemplate& out) {
    std::sort(patches_.begin(), patches_.end(),
              [](const Patch& a, const Patch& b) { return a.offset < b.offset; });
    out.patches = std::move(patches_);
    out.first_ns = saw_time_ ? first_ns_ : 0;
    out.end_ns = saw_time_ ? end_ns_ : 0;
    out.min_id = min_id_;
    out.max_id = max_id_;
    out.max_step = max_step_;
  }

  size_t offset_of(std::string_view token) const {
    return static_cast<size_t>(token.data() - base_);
  }

  Error json_error(od::value& at) const {
    return make_error(ErrorKind::kMalformed,
                      "'{}' is not valid JSON near byte offset {}: grow_trace needs a trace that "
                      "parses",
                      path_, offset_of(at.raw_json_token()));
  }

 private:
  Status add_args(od::value value) {
    od::object args;
    if (value.get_object().get(args)) return Status::success();
    for (auto field_result : args) {
      od::field field;
      std::string_view key;
      if (std::move(field_result).get(field) || field.unescaped_key().get(key)) {
        return make_error(ErrorKind::kMalformed,
                          "'{}' is not valid JSON in an event's args: grow_trace needs a trace "
                          "that parses",
                          path_);
      }
      if (std::find(kIdArgs.begin(), kIdArgs.end(), key) == kIdArgs.end()) continue;
      std::optional<Patch> patch = id_patch(trim_right(field.value().raw_json_token()));
      if (patch) add_id_patch(*patch);  // a null (the root's parent) stays null
    }
    return Status::success();
  }

  // "ProfilerStep#12": steps get their own, smaller step (steps 1, 2 -> 4, 5 -> 7, 8), so the
  // copies look like the later steps of one run. Nothing links to a step by its number.
  void add_step_patch(std::string_view token) {
    if (token.size() < kStepPrefix.size() + 2 || !token.starts_with(kStepPrefix) ||
        token.back() != '"') {
      return;
    }
    const std::string_view digits =
        token.substr(kStepPrefix.size(), token.size() - kStepPrefix.size() - 1);
    if (digits[0] == '-') return;
    std::optional<Patch> patch = id_patch(digits);
    if (!patch) return;
    patch->kind = PatchKind::kStep;
    max_step_ = std::max(max_step_, patch->value);
    patches_.push_back(*patch);
  }

  std::optional<Patch> id_patch(std::string_view token) const {
    std::optional<int64_t> value = parse_integer(token);
    if (!value) return std::nullopt;
    return Patch{offset_of(token), token.size(), PatchKind::kId, *value};
  }

  void add_id_patch(const Patch& patch) {
    min_id_ = std::min(min_id_, patch.value);
    max_id_ = std::max(max_id_, patch.value);
    patches_.push_back(patch);
  }

  Patch time_patch(std::string_view token, int64_t ns) const {
    return Patch{offset_of(token), token.size(), PatchKind::kTime, ns};
  }

  const std::string& path_;
  const char* base_;  // offsets are relative to this: the start of the events' text
  std::vector<Patch> patches_;
  bool saw_time_ = false;
  int64_t first_ns_ = INT64_MAX;
  int64_t end_ns_ = INT64_MIN;
  int64_t min_id_ = 0;
  int64_t max_id_ = -1;
  int64_t max_step_ = -1;
};

// The extent of traceEvents' array text in the document, found by a first on-demand pass.
Result<std::string_view> find_trace_events(const simdjson::padded_string& json,
                                           const std::string& path) {
  od::parser parser;
  od::document doc;
  od::object top;
  if (parser.iterate(json).get(doc) || doc.get_object().get(top)) {
    return make_error(ErrorKind::kNotATrace,
                      "'{}' is not a JSON object: grow_trace needs a Kineto trace", path);
  }
  std::optional<std::string_view> found;
  for (auto field_result : top) {
    od::field field;
    std::string_view key;
    if (std::move(field_result).get(field) || field.unescaped_key().get(key)) {
      return make_error(ErrorKind::kMalformed,
                        "'{}' is not valid JSON at its top level: grow_trace needs a trace that "
                        "parses",
                        path);
    }
    if (key != "traceEvents") continue;
    od::array events;
    std::string_view text;
    if (field.value().get_array().get(events) || events.raw_json().get(text)) {
      return make_error(ErrorKind::kNotATrace, "'{}': traceEvents is not a JSON array", path);
    }
    if (found)
      return make_error(ErrorKind::kNotATrace, "'{}' has traceEvents twice: which one to grow?",
                        path);
    found = trim_right(text);
  }
  if (!found)
    return make_error(ErrorKind::kNotATrace, "'{}' has no traceEvents: nothing to grow", path);
  return *found;
}

Result<TraceTemplate> scan_trace(const simdjson::padded_string& json, const std::string& path) {
  Result<std::string_view> array_text = find_trace_events(json, path);
  if (!array_text) return array_text.take_error();
  const std::string_view whole(json.data(), json.size());
  const size_t array_begin = static_cast<size_t>(array_text->data() - json.data());
  const size_t array_end = array_begin + array_text->size();  // one past ']'

  // The events' text: from the first element to the last, whitespace around them excluded.
  size_t first = array_begin + 1;
  while (first < array_end && is_json_space(whole[first])) ++first;
  size_t last = array_end - 1;  // the ']'
  while (last > first && is_json_space(whole[last - 1])) --last;

  TraceTemplate trace;
  trace.before = whole.substr(0, first);
  trace.events = whole.substr(first, last > first ? last - first : 0);
  trace.after = whole.substr(trace.events.empty() ? first : last);
  trace.separator = ",\n";

  // Parse the array again as a document of its own; it lies inside the padded input, so the
  // padding simdjson needs is there.
  const size_t capacity = json.size() + simdjson::SIMDJSON_PADDING - array_begin;
  od::parser parser;
  od::document doc;
  od::array events;
  if (parser.iterate(array_text->data(), array_text->size(), capacity).get(doc) ||
      doc.get_array().get(events)) {
    return make_error(ErrorKind::kMalformed, "'{}': traceEvents is not valid JSON", path);
  }
  TemplateBuilder builder(path, trace.events.data());
  for (auto element_result : events) {
    od::value element;
    if (std::move(element_result).get(element)) {
      return make_error(ErrorKind::kMalformed, "'{}': traceEvents is not valid JSON after event {}",
                        path, trace.event_count);
    }
    if (trace.event_count == 1) {
      // The separator as the input writes it: from the first event's end to the second's start.
      const char* second = element.raw_json_token().data();
      const char* end = second;
      while (end > trace.events.data() && (is_json_space(end[-1]) || end[-1] == ',')) --end;
      trace.separator = std::string_view(end, static_cast<size_t>(second - end));
    }
    ATTNPROF_RETURN_IF_ERROR(builder.add_event(element));
    ++trace.event_count;
  }
  builder.finish(trace);
  return trace;
}

// ---------------------------------------------------------------------------------------------
// The output: OUT.tmp, renamed to OUT once whole.

class OutputFile {
 public:
  static constexpr size_t kFlushBytes = size_t{4} << 20;

  static Result<OutputFile> create(const std::string& path) {
    const std::string temporary = path + ".tmp";
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
      return make_error(ErrorKind::kIo, "cannot create '{}': {}; check the output directory",
                        temporary, std::generic_category().message(errno));
    }
    return OutputFile(fd, path, temporary);
  }

  OutputFile(OutputFile&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)),
        path_(std::move(other.path_)),
        temporary_(std::move(other.temporary_)),
        buffer_(std::move(other.buffer_)),
        written_(other.written_) {}
  OutputFile& operator=(OutputFile&&) = delete;

  ~OutputFile() {
    if (fd_ >= 0) {  // not committed: leave no half-written file behind
      ::close(fd_);
      ::unlink(temporary_.c_str());
    }
  }

  std::string& buffer() { return buffer_; }
  uint64_t bytes() const { return written_ + buffer_.size(); }

  Status maybe_flush() { return buffer_.size() >= kFlushBytes ? flush() : Status::success(); }

  Status commit() {
    ATTNPROF_RETURN_IF_ERROR(flush());
    const int fd = std::exchange(fd_, -1);
    if (::close(fd) != 0) return write_error(errno);
    if (::rename(temporary_.c_str(), path_.c_str()) != 0) {
      const int error = errno;
      ::unlink(temporary_.c_str());
      return make_error(ErrorKind::kIo, "cannot rename '{}' to '{}': {}", temporary_, path_,
                        std::generic_category().message(error));
    }
    return Status::success();
  }

 private:
  OutputFile(int fd, std::string path, std::string temporary)
      : fd_(fd), path_(std::move(path)), temporary_(std::move(temporary)) {
    buffer_.reserve(kFlushBytes + (size_t{1} << 20));
  }

  Status flush() {
    const char* data = buffer_.data();
    size_t left = buffer_.size();
    while (left > 0) {
      const ssize_t n = ::write(fd_, data, left);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return write_error(errno);
      data += n;
      left -= static_cast<size_t>(n);
    }
    written_ += buffer_.size();
    buffer_.clear();
    return Status::success();
  }

  Error write_error(int error) const {
    return make_error(ErrorKind::kIo,
                      "writing '{}' failed after {} bytes: {}; check the free space", temporary_,
                      written_, std::generic_category().message(error));
  }

  int fd_ = -1;
  std::string path_;
  std::string temporary_;
  std::string buffer_;
  uint64_t written_ = 0;
};

// Percent written, on one line of stderr, when stderr is a terminal.
class Progress {
 public:
  explicit Progress(uint64_t expected_bytes)
      : expected_(std::max<uint64_t>(expected_bytes, 1)), shown_(isatty(STDERR_FILENO) != 0) {}

  void update(uint64_t bytes) {
    if (!shown_) return;
    const int percent = static_cast<int>(std::min<uint64_t>(99, bytes * 100 / expected_));
    if (percent == last_percent_) return;
    last_percent_ = percent;
    fmt::print(stderr, "\rgrow_trace: {:3}% written", percent);
  }

  void done() {
    if (shown_) fmt::print(stderr, "\rgrow_trace: 100% written\n");
  }

 private:
  uint64_t expected_;
  bool shown_;
  int last_percent_ = -1;
};

struct Shifts {
  int64_t copies;
  int64_t time_step_ns;
  int64_t id_step;
  int64_t step_number_step;  // for ProfilerStep#N
};

// Copy k of the events: the input's text with each patched number moved by k steps.
void append_copy(const TraceTemplate& trace, int64_t k, const Shifts& shifts, std::string& out) {
  if (k == 0) {
    out.append(trace.events);
    return;
  }
  size_t position = 0;
  for (const Patch& patch : trace.patches) {
    out.append(trace.events.substr(position, patch.offset - position));
    switch (patch.kind) {
      case PatchKind::kTime:
        append_microseconds(out, patch.value + k * shifts.time_step_ns);
        break;
      case PatchKind::kId:
        append_integer(out, patch.value + k * shifts.id_step);
        break;
      case PatchKind::kStep:
        append_integer(out, patch.value + k * shifts.step_number_step);
        break;
    }
    position = patch.offset + patch.length;
  }
  out.append(trace.events.substr(position));
}

Status write_grown(const TraceTemplate& trace, const Shifts& shifts, const std::string& path) {
  Result<OutputFile> file = OutputFile::create(path);
  if (!file) return file.take_error();
  Progress progress(trace.before.size() + trace.after.size() +
                    static_cast<uint64_t>(shifts.copies) *
                        (trace.events.size() + trace.separator.size()));
  file->buffer().append(trace.before);
  for (int64_t k = 0; k < shifts.copies && !trace.events.empty(); ++k) {
    if (k > 0) file->buffer().append(trace.separator);
    append_copy(trace, k, shifts, file->buffer());
    ATTNPROF_RETURN_IF_ERROR(file->maybe_flush());
    progress.update(file->bytes());
  }
  file->buffer().append(trace.after);
  ATTNPROF_RETURN_IF_ERROR(file->commit());
  progress.done();
  return Status::success();
}

// ---------------------------------------------------------------------------------------------
// Options and main.

// "1G", "500M", "64K", "123": binary multiples.
std::optional<uint64_t> parse_byte_count(std::string_view text) {
  uint64_t scale = 1;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
      case 'k':
        scale = uint64_t{1} << 10;
        break;
      case 'M':
      case 'm':
        scale = uint64_t{1} << 20;
        break;
      case 'G':
      case 'g':
        scale = uint64_t{1} << 30;
        break;
      case 'T':
      case 't':
        scale = uint64_t{1} << 40;
        break;
      default:
        break;
    }
    if (scale != 1) text.remove_suffix(1);
  }
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  uint64_t bytes = 0;
  if (text.empty() || ec != std::errc() || end != text.data() + text.size() ||
      __builtin_mul_overflow(value, scale, &bytes) || bytes == 0) {
    return std::nullopt;
  }
  return bytes;
}

Result<simdjson::padded_string> read_whole(const std::string& path) {
  Result<std::unique_ptr<ByteStream>> stream = ByteStream::open(path, Limits{});
  if (!stream) return stream.take_error();
  std::string text;
  std::vector<char> chunk(size_t{4} << 20);
  for (;;) {
    Result<size_t> got = (*stream)->read(chunk.data(), chunk.size());
    if (!got) return got.take_error();
    if (*got == 0) break;
    text.append(chunk.data(), *got);
  }
  return simdjson::padded_string(text);
}

struct Options {
  std::string input;
  std::string output;
  std::string target_bytes;
  int64_t repeat = 0;
  int64_t gap_us = 1000;
};

int run(const Options& options) {
  auto fail = [](const Error& error) {
    fmt::print(stderr, "grow_trace: {}\n", error.message);
    return 1;
  };
  Result<simdjson::padded_string> json = read_whole(options.input);
  if (!json) return fail(json.error());
  Result<TraceTemplate> trace = scan_trace(*json, options.input);
  if (!trace) return fail(trace.error());

  Shifts shifts{};
  if (options.repeat > 0) {
    shifts.copies = options.repeat;
  } else {
    const std::optional<uint64_t> target = parse_byte_count(options.target_bytes);
    if (!target) {
      return fail(make_error(ErrorKind::kUsage,
                             "--target-bytes {}: give a byte count like 1G, 500M or 123456",
                             options.target_bytes));
    }
    // The fixed text once, then whole copies until the target is reached.
    const uint64_t fixed = trace->before.size() + trace->after.size();
    const uint64_t per_copy = std::max<uint64_t>(1, trace->events.size() + trace->separator.size());
    const uint64_t wanted = *target > fixed ? *target - fixed : 0;
    shifts.copies = static_cast<int64_t>(std::max<uint64_t>(1, (wanted + per_copy - 1) / per_copy));
  }
  shifts.time_step_ns = trace->end_ns - trace->first_ns + options.gap_us * 1000;
  shifts.id_step = trace->max_id - std::min<int64_t>(trace->min_id, 0) + 1;
  shifts.step_number_step = trace->max_step + 1;  // step numbers are never negative
  int64_t last_time = 0;
  int64_t last_id = 0;
  if (__builtin_mul_overflow(shifts.time_step_ns, shifts.copies, &last_time) ||
      __builtin_add_overflow(last_time, trace->end_ns, &last_time) ||
      __builtin_mul_overflow(shifts.id_step, shifts.copies, &last_id) ||
      __builtin_add_overflow(last_id, trace->max_id, &last_id)) {
    return fail(make_error(ErrorKind::kUsage,
                           "{} copies of '{}' would overflow its times or ids: ask for fewer",
                           shifts.copies, options.input));
  }

  Status written = write_grown(*trace, shifts, options.output);
  if (!written) return fail(written.error());
  std::error_code ignored;
  const uint64_t size = std::filesystem::file_size(options.output, ignored);
  fmt::print("wrote '{}': {} events ({} copies of {}), {} bytes; copies {} ns and {} ids apart\n",
             options.output, trace->event_count * static_cast<uint64_t>(shifts.copies),
             shifts.copies, trace->event_count, size, shifts.time_step_ns, shifts.id_step);
  return 0;
}

}  // namespace
}  // namespace attnprof

int main(int argc, char** argv) {
  CLI::App app{
      "Makes a large Kineto trace from a real one, for throughput measurements: "
      "traceEvents repeated, each copy later in time and with fresh ids."};
  attnprof::Options options;
  app.add_option("input", options.input, "trace to grow (.json or .json.gz)")->required();
  app.add_option("output", options.output, "grown trace to write (plain JSON)")->required();
  auto* target = app.add_option("--target-bytes", options.target_bytes,
                                "approximate output size: 1G, 500M, 64K or bytes");
  auto* repeat = app.add_option("--repeat", options.repeat, "number of copies of the events")
                     ->check(CLI::PositiveNumber);
  target->excludes(repeat);
  app.add_option("--gap-us", options.gap_us, "idle time between copies, in whole microseconds")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40))
      ->capture_default_str();
  CLI11_PARSE(app, argc, argv);
  if (options.repeat == 0 && options.target_bytes.empty()) {
    fmt::print(stderr, "grow_trace: give --target-bytes SIZE or --repeat N\n");
    return 2;
  }
  return attnprof::run(options);
}
