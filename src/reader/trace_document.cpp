#include "reader/trace_document.h"

#include <cstring>
#include <string>
#include <vector>

#include "io/byte_stream.h"
#include "reader/json_scan.h"

namespace attnprof {

namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c));
}

class DocumentReader {
 public:
  DocumentReader(ByteStream& stream, const std::string& path, const Limits& limits,
                 TraceDocumentSink& sink, const ProgressCallback& progress)
      : stream_(stream), path_(path), limits_(limits), sink_(sink), progress_(progress) {}

  Result<DocumentStats> run();

 private:
  // The separator after an element of traceEvents.
  enum class Separator { kMore, kClosed };

  std::string_view data() const { return {buf_.data() + begin_, end_ - begin_}; }
  uint64_t offset_at(size_t index) const { return abs_begin_ + (index - begin_); }
  void advance_to(size_t index) {
    abs_begin_ += index - begin_;
    begin_ = index;
  }

  Error json_error(uint64_t offset, std::string_view what) const {
    return make_error("{}: invalid JSON at byte {}: {}", path_, offset, what);
  }
  Error truncated(std::string_view inside) const {
    return make_error("{}: the JSON ends early (after {} bytes, inside {}): the file is truncated; "
                      "record or download it again",
                      path_, abs_begin_ + (end_ - begin_), inside);
  }

  Status refill();
  // Skips whitespace (reading more as needed) and returns the next byte, or nothing at the end.
  Result<std::optional<char>> peek();
  Status members();
  Status events();
  Result<Separator> separator();
  // Parses [from, to) of buf_ (whole elements of traceEvents) as one array into the sink.
  bool parse_batch(size_t from, size_t to);
  Error batch_error() const;

  ByteStream& stream_;
  const std::string& path_;
  const Limits& limits_;
  TraceDocumentSink& sink_;
  const ProgressCallback& progress_;

  // Text lives in buf_[begin_, end_); begin_ >= 1 keeps a byte free before it for the `[` that
  // turns a run of events into an array, and SIMDJSON_PADDING readable bytes follow end_.
  std::vector<char> buf_;
  size_t begin_ = 1;
  size_t end_ = 1;
  uint64_t abs_begin_ = 0;
  bool eof_ = false;

  simdjson::ondemand::parser parser_;
  simdjson::error_code batch_error_code_ = simdjson::SUCCESS;
  uint64_t batch_error_offset_ = 0;
  DocumentStats stats_;
};

Status DocumentReader::refill() {
  if (eof_) return {};
  if (begin_ > 1) {
    std::memmove(buf_.data() + 1, buf_.data() + begin_, end_ - begin_);
    end_ -= begin_ - 1;
    begin_ = 1;
  }
  // Read at least as much as is held, so an event larger than a chunk costs O(n), not O(n^2).
  size_t want = std::max(kChunkBytes, end_ - begin_);
  size_t needed = end_ + want + simdjson::SIMDJSON_PADDING;
  if (needed > buf_.size()) buf_.resize(needed);
  size_t got = 0;
  while (got < want) {
    auto n = stream_.read(buf_.data() + end_ + got, want - got);
    if (!n.ok()) return n.take_error();
    if (*n == 0) {
      eof_ = true;
      break;
    }
    got += *n;
  }
  end_ += got;
  stats_.json_bytes += got;
  ++stats_.chunks;
  if (progress_) progress_(stream_.compressed_bytes_read());
  return {};
}

Result<std::optional<char>> DocumentReader::peek() {
  for (;;) {
    size_t at = json_scan::skip_space(data(), 0);
    advance_to(begin_ + at);
    if (begin_ < end_) return std::optional<char>(buf_[begin_]);
    if (eof_) return std::optional<char>();
    ATTNPROF_RETURN_IF_ERROR(refill());
  }
}

Result<DocumentStats> DocumentReader::run() {
  ATTNPROF_RETURN_IF_ERROR(refill());
  auto first = peek();
  if (!first.ok()) return first.take_error();
  if (!*first) {
    if (stats_.json_bytes == 0)
      return make_error("{}: the file is empty: a PyTorch profiler trace is a JSON object", path_);
    return make_error("{}: the file holds only whitespace: a PyTorch profiler trace is a JSON object",
                      path_);
  }
  char c = **first;
  if (c == '[') {  // The Trace Event Format also allows a bare array of events.
    advance_to(begin_ + 1);
    stats_.saw_trace_events = true;
    ATTNPROF_RETURN_IF_ERROR(events());
  } else if (c == '{') {
    advance_to(begin_ + 1);
    ATTNPROF_RETURN_IF_ERROR(members());
  } else {
    return make_error("{}: not a JSON trace: it starts with {}, a PyTorch profiler trace is a JSON "
                      "object (is this the right file?)",
                      path_, printable(c));
  }
  auto rest = peek();
  if (!rest.ok()) return rest.take_error();
  if (*rest)
    return json_error(abs_begin_, fmt::format("unexpected {} after the end of the top-level value",
                                              printable(**rest)));
  if (!stats_.saw_trace_events)
    return make_error("{}: a JSON object without \"traceEvents\": not a PyTorch profiler trace",
                      path_);
  return stats_;
}

Status DocumentReader::members() {
  auto next = peek();
  if (!next.ok()) return next.take_error();
  if (!*next) return truncated("the top-level object");
  if (**next == '}') {
    advance_to(begin_ + 1);
    return {};
  }
  for (;;) {
    if (**next != '"')
      return json_error(abs_begin_, fmt::format("expected a key, found {}", printable(**next)));
    json_scan::ValueExtent key_extent;
    while ((key_extent = json_scan::scan_string(data(), 0)).outcome == json_scan::Outcome::kNeedMore) {
      if (eof_) return truncated("a key of the top-level object");
      ATTNPROF_RETURN_IF_ERROR(refill());
    }
    std::string key(buf_.data() + begin_ + 1, key_extent.end - 2);
    advance_to(begin_ + key_extent.end);
    auto colon = peek();
    if (!colon.ok()) return colon.take_error();
    if (!*colon) return truncated("the top-level object");
    if (**colon != ':')
      return json_error(abs_begin_, fmt::format("expected ':' after key \"{}\"", key));
    advance_to(begin_ + 1);
    auto value = peek();
    if (!value.ok()) return value.take_error();
    if (!*value) return truncated("the top-level object");
    if (key == "traceEvents") {
      if (**value != '[')
        return json_error(abs_begin_, fmt::format("\"traceEvents\" is not an array (it starts with "
                                                  "{})",
                                                  printable(**value)));
      stats_.saw_trace_events = true;
      advance_to(begin_ + 1);
      ATTNPROF_RETURN_IF_ERROR(events());
    } else {
      json_scan::ValueExtent extent;
      while ((extent = json_scan::scan_value(data(), 0, eof_)).outcome ==
             json_scan::Outcome::kNeedMore) {
        if (eof_) return truncated(fmt::format("the value of \"{}\"", key));
        if (end_ - begin_ > limits_.max_event_bytes)
          return make_error("{}: the top-level value \"{}\" at byte {} is larger than {} bytes; "
                            "raise the limit with --max-event-bytes",
                            path_, key, abs_begin_, limits_.max_event_bytes);
        ATTNPROF_RETURN_IF_ERROR(refill());
      }
      if (extent.outcome == json_scan::Outcome::kInvalid)
        return json_error(offset_at(begin_ + extent.end), "unexpected character");
      ATTNPROF_RETURN_IF_ERROR(sink_.top_level_member(
          key, std::string_view(buf_.data() + begin_, extent.end), abs_begin_));
      advance_to(begin_ + extent.end);
    }
    auto sep = peek();
    if (!sep.ok()) return sep.take_error();
    if (!*sep) return truncated("the top-level object");
    if (**sep == '}') {
      advance_to(begin_ + 1);
      return {};
    }
    if (**sep != ',')
      return json_error(abs_begin_, fmt::format("expected ',' or '}}' in the top-level object, "
                                                "found {}",
                                                printable(**sep)));
    advance_to(begin_ + 1);
    next = peek();
    if (!next.ok()) return next.take_error();
    if (!*next) return truncated("the top-level object");
  }
}

Result<DocumentReader::Separator> DocumentReader::separator() {
  auto c = peek();
  if (!c.ok()) return c.take_error();
  if (!*c) return truncated("\"traceEvents\"");
  if (**c == ']') {
    advance_to(begin_ + 1);
    return Separator::kClosed;
  }
  if (**c != ',')
    return json_error(abs_begin_, fmt::format("expected ',' or ']' between events, found {}",
                                              printable(**c)));
  advance_to(begin_ + 1);
  auto next = peek();
  if (!next.ok()) return next.take_error();
  if (!*next) return truncated("\"traceEvents\"");
  if (**next == ']') return json_error(abs_begin_, "a comma before ']' (trailing comma)");
  return Separator::kMore;
}

// The last `}` `,` `{` of the text, found from its end: the end of the `}` or 0 when none.
size_t quick_cut(std::string_view text) {
  size_t pos = text.size();
  while (pos > 0) {
    const void* hit = memrchr(text.data(), '{', pos);
    if (!hit) return 0;
    size_t brace = static_cast<const char*>(hit) - text.data();
    size_t i = brace;
    while (i > 0 && json_scan::is_space(text[i - 1])) --i;
    if (i > 0 && text[i - 1] == ',') {
      --i;
      while (i > 0 && json_scan::is_space(text[i - 1])) --i;
      if (i > 0 && text[i - 1] == '}') return i;
    }
    pos = brace;
  }
  return 0;
}

Status DocumentReader::events() {
  auto first = peek();
  if (!first.ok()) return first.take_error();
  if (!*first) return truncated("\"traceEvents\"");
  if (**first == ']') {
    advance_to(begin_ + 1);
    return {};
  }
  for (;;) {
    // begin_ is at the first byte of an element.
    if (!eof_ && end_ - begin_ < kChunkBytes) {
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    size_t cut = quick_cut(data());
    size_t batch_end = 0;
    if (cut > 0 && parse_batch(begin_, begin_ + cut)) {
      batch_end = begin_ + cut;
    } else {
      if (cut > 0) ++stats_.recuts;
      // Exact cut: walk the elements one by one.
      std::string_view text = data();
      size_t pos = 0, last_end = 0, elements = 0;
      for (;;) {
        auto extent = json_scan::scan_value(text, pos, eof_);
        if (extent.outcome == json_scan::Outcome::kNeedMore) break;
        if (extent.outcome == json_scan::Outcome::kInvalid) {
          if (elements > 0) break;  // parse what came before; the error surfaces next round
          return json_error(offset_at(begin_ + extent.end), "unexpected character in traceEvents");
        }
        ++elements;
        last_end = extent.end;
        size_t q = json_scan::skip_space(text, extent.end);
        if (q == text.size() || text[q] != ',') break;
        pos = json_scan::skip_space(text, q + 1);
        if (pos == text.size()) break;
      }
      if (elements == 0) {
        if (eof_) return truncated("\"traceEvents\"");
        if (end_ - begin_ > limits_.max_event_bytes)
          return make_error("{}: the event at byte {} is larger than {} bytes; raise the limit "
                            "with --max-event-bytes",
                            path_, abs_begin_, limits_.max_event_bytes);
        ATTNPROF_RETURN_IF_ERROR(refill());
        continue;
      }
      if (!parse_batch(begin_, begin_ + last_end)) return batch_error();
      batch_end = begin_ + last_end;
    }
    advance_to(batch_end);
    if (stats_.events > limits_.max_events)
      return make_error("{}: more than {} events; raise the limit with --max-events", path_,
                        limits_.max_events);
    auto sep = separator();
    if (!sep.ok()) return sep.take_error();
    if (*sep == Separator::kClosed) return {};
  }
}

bool DocumentReader::parse_batch(size_t from, size_t to) {
  char saved_before = buf_[from - 1];
  char saved_after = buf_[to];
  buf_[from - 1] = '[';
  buf_[to] = ']';
  simdjson::padded_string_view view(buf_.data() + from - 1, to - from + 2, buf_.size() - from + 1);
  // Offsets in the view are one byte ahead of buf_[from].
  auto offset_of = [&](const char* p) { return offset_at(from) + (p - (buf_.data() + from)); };

  sink_.begin_batch();
  uint64_t count = 0;
  uint64_t element_offset = offset_at(from);
  simdjson::error_code error = simdjson::SUCCESS;
  simdjson::ondemand::document doc;
  bool iterated = !(error = parser_.iterate(view).get(doc));
  if (iterated) {
    simdjson::ondemand::array array;
    if (!(error = doc.get_array().get(array))) {
      for (auto element : array) {
        simdjson::ondemand::value value;
        if ((error = element.get(value))) break;
        const char* location = nullptr;
        if (!doc.current_location().get(location)) element_offset = offset_of(location);
        if ((error = sink_.event(value, element_offset))) break;
        ++count;
      }
      const char* trailing = nullptr;
      if (!error && !doc.current_location().get(trailing)) {
        error = simdjson::TRAILING_CONTENT;
        element_offset = offset_of(trailing);
      }
    }
  }
  buf_[from - 1] = saved_before;
  buf_[to] = saved_after;
  if (error) {
    sink_.rollback_batch();
    batch_error_code_ = error;
    const char* location = nullptr;
    bool located = iterated && !doc.current_location().get(location);
    batch_error_offset_ = located ? offset_of(location) : element_offset;
    return false;
  }
  sink_.commit_batch();
  stats_.events += count;
  return true;
}

Error DocumentReader::batch_error() const {
  return json_error(batch_error_offset_, simdjson::error_message(batch_error_code_));
}

}  // namespace

Result<DocumentStats> read_trace_document(ByteStream& stream, const std::string& path,
                                          const Limits& limits, TraceDocumentSink& sink,
                                          const ProgressCallback& progress) {
  DocumentReader reader(stream, path, limits, sink, progress);
  return reader.run();
}

}  // namespace attnprof
