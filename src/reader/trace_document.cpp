#include "reader/trace_document.h"

#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "io/byte_stream.h"
#include "reader/document_limits.h"
#include "reader/event_batch.h"
#include "reader/json_scan.h"
#include "reader/worker_pool.h"

namespace attnprof {

namespace {

constexpr size_t kChunkBytes = size_t{1} << 20;
// Batches cut ahead of the oldest one not yet committed, per sink: enough to keep the worker
// threads busy while the reading thread parses one too (measured on a 1 GB trace: 2 per sink left
// the worker waiting 0.1 s for batches, 4 per sink 0.04 s).
constexpr size_t kBatchesInFlightPerWorker = 4;

std::string printable(char c) {
  if (c >= 0x20 && c < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", static_cast<unsigned char>(c));
}

// A key of the input, as an error message quotes it: bytes outside printable ASCII as \xNN and
// at most kQuotedKeyBytes of them, so that the message stays one line whatever the key holds
// (fuzz/trace_fuzzer: tests/data/fuzz-regressions/error-echoes-raw-key.json).
constexpr size_t kQuotedKeyBytes = 64;
std::string quoted_key(std::string_view key) {
  std::string out = "\"";
  for (char c : key.substr(0, kQuotedKeyBytes)) {
    if (c >= 0x20 && c < 0x7f)
      out += c;
    else
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
  }
  out += key.size() > kQuotedKeyBytes ? "\"..." : "\"";
  return out;
}

class DocumentReader {
 public:
  DocumentReader(ByteStream& stream, const std::string& path, const Limits& limits,
                 DocumentSink& sink, std::span<EventBatchSink* const> workers,
                 const ProgressCallback& progress)
      : stream_(stream),
        path_(path),
        limits_(limits),
        sink_(sink),
        workers_(workers),
        progress_(progress),
        max_in_flight_(kBatchesInFlightPerWorker * workers.size()) {
    event_limits_.limits = &limits_;
    pool_ = std::make_unique<WorkerPool>(workers, event_limits_);
  }
  ~DocumentReader() { pool_->cancel_all(); }

  Result<DocumentStats> run();

 private:
  // The separator after an element of traceEvents.
  enum class Separator { kMore, kClosed };
  // How cutting traceEvents stopped.
  enum class Cut { kClosed, kBatchFailed };
  // What committing found at the front of the batches in flight.
  enum class Front { kClear, kFailed, kTooManyEvents };
  // Whom committing waits for: none, the oldest batch in flight, all of them.
  enum class Wait { kNone, kOldest, kAll };

  std::string_view data() const { return {buf_.data() + begin_, end_ - begin_}; }
  uint64_t offset_at(size_t index) const { return abs_begin_ + (index - begin_); }
  void advance_to(size_t index) {
    abs_begin_ += index - begin_;
    begin_ = index;
  }

  Error json_error(uint64_t offset, std::string_view what) const {
    return make_error(ErrorKind::kMalformed, "{}: invalid JSON at byte {}: {}", path_, offset,
                      what);
  }
  Error truncated(std::string_view inside) const {
    return make_error(ErrorKind::kTruncated,
                      "{}: the JSON ends early (after {} bytes, inside {}): the file is truncated; "
                      "record or download it again",
                      path_, abs_begin_ + (end_ - begin_), inside);
  }
  Error too_many_events() const {
    return too_many_events_error(path_, first_event_past_limit_, limits_);
  }

  Status refill();
  // The depth and string limits on the value at begin_, read so far: checked before each refill
  // that grows one value, so that a limit stops the read while the bytes arrive. Each refill at
  // least doubles what is held, so the scans add up to a few times the value's bytes.
  Status limits_so_far(uint32_t enclosing_depth) const;
  // Skips whitespace (reading more as needed) and returns the next byte, or nothing at the end.
  Result<std::optional<char>> peek();
  Status members();
  Status events();
  Result<Cut> cut_events();
  Result<Separator> separator();

  // Hands the whole elements in buf_[begin_, to) to a worker as batch number next_sequence_,
  // with buf_; the reader goes on from `to` in a buffer of its own.
  void submit(size_t to, bool speculative);
  // Commits the parsed batches at the front of those in flight, in order, up to the first that
  // failed (left at the front) or is still being parsed.
  Front commit_front(Wait wait);
  // Waits for every batch in flight and commits them in order. A failed batch stops it: a
  // speculative one rewinds the reader to its first byte (true), another one is the document's
  // error.
  Result<bool> settle();
  void rewind_to(const EventBatch& failed);
  EventBatch* new_batch();
  std::vector<char> new_buffer();

  ByteStream& stream_;
  const std::string& path_;
  const Limits& limits_;
  DocumentSink& sink_;
  std::span<EventBatchSink* const> workers_;
  const ProgressCallback& progress_;
  EventLimits event_limits_;  // set by run() before the first batch

  // Text lives in buf_[begin_, end_); begin_ >= 1 keeps a byte free before it, and
  // SIMDJSON_PADDING + 1 readable bytes follow end_.
  std::vector<char> buf_;
  std::vector<std::vector<char>> free_buffers_;  // given back by committed batches
  // Bytes read ahead of a rewound window (rewind_to): refill() serves them before the stream.
  std::vector<char> pushback_;
  size_t pushback_at_ = 0;
  size_t begin_ = 1;
  size_t end_ = 1;
  uint64_t abs_begin_ = 0;
  bool eof_ = false;
  bool exact_next_ = false;  // the next batch is cut exactly: its quick cut failed
  bool too_many_events_ = false;
  uint64_t first_event_past_limit_ = 0;  // the byte offset of event max_events + 1

  const size_t max_in_flight_;
  std::deque<EventBatch*> in_flight_;  // in document order
  std::vector<std::unique_ptr<EventBatch>> batches_;
  std::vector<EventBatch*> free_batches_;
  uint64_t next_sequence_ = 0;
  std::unique_ptr<WorkerPool> pool_;  // last: its threads stop before the rest goes
  DocumentStats stats_;
};

Status DocumentReader::refill() {
  if (eof_) return {};
  // While batches are in flight the buffer starts where the last one ended: the separator after
  // it stays, for a rewind (rewind_to). Else only the unread bytes are kept.
  const size_t keep = in_flight_.empty() ? begin_ : 1;
  if (keep > 1) {
    std::memmove(buf_.data() + 1, buf_.data() + keep, end_ - keep);
    end_ -= keep - 1;
    begin_ -= keep - 1;
  }
  // Read at least as much as is held, so an event larger than a chunk costs O(n), not O(n^2).
  size_t want = std::max(kChunkBytes, end_ - begin_);
  size_t needed = end_ + want + simdjson::SIMDJSON_PADDING + 1;
  if (needed > buf_.size()) buf_.resize(needed);
  size_t got = 0;
  while (got < want) {
    if (pushback_at_ < pushback_.size()) {
      const size_t n = std::min(want - got, pushback_.size() - pushback_at_);
      std::memcpy(buf_.data() + end_ + got, pushback_.data() + pushback_at_, n);
      pushback_at_ += n;
      got += n;
      continue;
    }
    auto n = stream_.read(buf_.data() + end_ + got, want - got);
    if (!n.ok()) return n.take_error();
    if (*n == 0) {
      eof_ = true;
      break;
    }
    got += *n;
    stats_.json_bytes += *n;
  }
  end_ += got;
  ++stats_.chunks;
  if (progress_) progress_(stream_.compressed_bytes_read(), stats_.events);
  return {};
}

Status DocumentReader::limits_so_far(uint32_t enclosing_depth) const {
  if (end_ - begin_ < event_limits_.scan_threshold) return {};
  if (auto breach =
          find_limit_breach(data(), abs_begin_, enclosing_depth, /*is_event=*/false, limits_))
    return limit_error(path_, *breach, limits_);
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
      return make_error(ErrorKind::kNotATrace,
                        "{}: the file is empty: a PyTorch profiler trace is a JSON object (was the "
                        "recording or the copy interrupted?)",
                        path_);
    return make_error(
        ErrorKind::kNotATrace,
        "{}: the file holds only whitespace ({} bytes): a PyTorch profiler trace is a "
        "JSON object (was the recording or the copy interrupted?)",
        path_, stats_.json_bytes);
  }
  char c = **first;
  // Events sit in traceEvents in the top-level object, or in a bare top-level array.
  event_limits_.enclosing_depth = c == '[' ? 1 : 2;
  event_limits_.scan_threshold = scan_threshold(event_limits_.enclosing_depth, limits_);
  if (limits_.max_depth < 1)
    return limit_error(path_, {LimitBreach::Kind::kDepth, abs_begin_, 1}, limits_);
  if (c == '[') {  // The Trace Event Format also allows a bare array of events.
    advance_to(begin_ + 1);
    stats_.saw_trace_events = true;
    stats_.bare_array = true;
    ATTNPROF_RETURN_IF_ERROR(events());
  } else if (c == '{') {
    advance_to(begin_ + 1);
    ATTNPROF_RETURN_IF_ERROR(members());
  } else {
    return make_error(ErrorKind::kNotATrace,
                      "{}: not a JSON trace: byte {} is {}, where a PyTorch profiler trace opens "
                      "its JSON object with '{{' (is this the right file?)",
                      path_, abs_begin_,
                      c >= 0x20 && c < 0x7f
                          ? printable(c)
                          : fmt::format("0x{:02x}", static_cast<unsigned char>(c)));
  }
  auto rest = peek();
  if (!rest.ok()) return rest.take_error();
  if (*rest)
    return json_error(abs_begin_, fmt::format("unexpected {} after the end of the top-level value",
                                              printable(**rest)));
  if (!stats_.saw_trace_events)
    return make_error(ErrorKind::kNotATrace,
                      "{}: not a trace: a JSON object of {} bytes without \"traceEvents\", where a "
                      "PyTorch profiler trace lists its events (is this the right file?)",
                      path_, stats_.json_bytes);
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
    while ((key_extent = json_scan::scan_string(data(), 0)).outcome ==
           json_scan::Outcome::kNeedMore) {
      if (eof_) return truncated("a key of the top-level object");
      if (end_ - begin_ - 1 > limits_.max_string_bytes)
        return limit_error(path_, {LimitBreach::Kind::kStringBytes, abs_begin_, 0}, limits_);
      ATTNPROF_RETURN_IF_ERROR(refill());
    }
    if (key_extent.end - 2 > limits_.max_string_bytes)
      return limit_error(path_, {LimitBreach::Kind::kStringBytes, abs_begin_, key_extent.end - 2},
                         limits_);
    std::string key(buf_.data() + begin_ + 1, key_extent.end - 2);
    advance_to(begin_ + key_extent.end);
    auto colon = peek();
    if (!colon.ok()) return colon.take_error();
    if (!*colon) return truncated("the top-level object");
    if (**colon != ':')
      return json_error(abs_begin_, fmt::format("expected ':' after key {}", quoted_key(key)));
    advance_to(begin_ + 1);
    auto value = peek();
    if (!value.ok()) return value.take_error();
    if (!*value) return truncated("the top-level object");
    if (key == "traceEvents") {
      if (**value != '[')
        return make_error(ErrorKind::kNotATrace,
                          "{}: not a trace: \"traceEvents\" at byte {} is not an array (it starts "
                          "with {}), where a PyTorch profiler trace lists its events (is this the "
                          "right file?)",
                          path_, abs_begin_, printable(**value));
      if (limits_.max_depth < 2)
        return limit_error(path_, {LimitBreach::Kind::kDepth, abs_begin_, 2}, limits_);
      stats_.saw_trace_events = true;
      advance_to(begin_ + 1);
      ATTNPROF_RETURN_IF_ERROR(events());
    } else {
      json_scan::ValueExtent extent;
      while ((extent = json_scan::scan_value(data(), 0, eof_)).outcome ==
             json_scan::Outcome::kNeedMore) {
        if (eof_) return truncated(fmt::format("the value of {}", quoted_key(key)));
        if (end_ - begin_ > limits_.max_event_bytes)
          return value_too_large_error(
              path_, fmt::format("the top-level value {}", quoted_key(key)), abs_begin_, limits_);
        ATTNPROF_RETURN_IF_ERROR(limits_so_far(1));
        ATTNPROF_RETURN_IF_ERROR(refill());
      }
      if (extent.outcome == json_scan::Outcome::kInvalid)
        return json_error(offset_at(begin_ + extent.end), "unexpected character");
      if (extent.end > limits_.max_event_bytes)
        return value_too_large_error(path_, fmt::format("the top-level value {}", quoted_key(key)),
                                     abs_begin_, limits_);
      const std::string_view value(buf_.data() + begin_, extent.end);
      if (auto breach = find_limit_breach(value, abs_begin_, 1, /*is_event=*/false, limits_))
        return limit_error(path_, *breach, limits_);
      ATTNPROF_RETURN_IF_ERROR(sink_.top_level_member(key, value, abs_begin_));
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
    return json_error(abs_begin_,
                      fmt::format("expected ',' or ']' between events, found {}", printable(**c)));
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
  if (stats_.events == 0 && in_flight_.empty()) stats_.first_event_offset = abs_begin_;
  for (;;) {
    Result<Cut> cut = cut_events();
    // Whatever stopped the cutting, the batches in flight come first: one that failed before
    // this point decides (its cut was wrong, or the JSON is bad there).
    if (cut.ok() || !too_many_events_) {
      Result<bool> rewound = settle();
      if (!rewound.ok()) return rewound.take_error();
      if (*rewound) continue;  // cut again from the failed batch's first byte
    }
    if (!cut.ok()) return cut.take_error();
    return {};
  }
}

Result<DocumentReader::Cut> DocumentReader::cut_events() {
  for (;;) {
    // begin_ is at the first byte of an element.
    if (!eof_ && end_ - begin_ < kChunkBytes) {
      ATTNPROF_RETURN_IF_ERROR(refill());
      continue;
    }
    size_t cut = exact_next_ ? 0 : quick_cut(data());
    if (cut > 0) {
      submit(begin_ + cut, /*speculative=*/true);
    } else {
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
          return value_too_large_error(path_, "the event", abs_begin_, limits_);
        ATTNPROF_RETURN_IF_ERROR(limits_so_far(event_limits_.enclosing_depth));
        ATTNPROF_RETURN_IF_ERROR(refill());
        continue;
      }
      submit(begin_ + last_end, /*speculative=*/false);
      exact_next_ = false;
    }
    // With the most batches in flight, parse one here rather than wait for the oldest.
    if (in_flight_.size() >= max_in_flight_) pool_->help();
    switch (commit_front(in_flight_.size() >= max_in_flight_ ? Wait::kOldest : Wait::kNone)) {
      case Front::kClear:
        break;
      case Front::kFailed:
        return Cut::kBatchFailed;
      case Front::kTooManyEvents:
        too_many_events_ = true;
        return too_many_events();
    }
    auto sep = separator();
    if (!sep.ok()) return sep.take_error();
    if (*sep == Separator::kClosed) return Cut::kClosed;
  }
}

EventBatch* DocumentReader::new_batch() {
  if (free_batches_.empty()) {
    batches_.push_back(std::make_unique<EventBatch>());
    free_batches_.push_back(batches_.back().get());
  }
  EventBatch* b = free_batches_.back();
  free_batches_.pop_back();
  return b;
}

std::vector<char> DocumentReader::new_buffer() {
  if (free_buffers_.empty()) return {};
  std::vector<char> b = std::move(free_buffers_.back());
  free_buffers_.pop_back();
  return b;
}

void DocumentReader::submit(size_t to, bool speculative) {
  // The reader goes on in another buffer, from the bytes after the batch.
  std::vector<char> rest = new_buffer();
  const size_t carry = end_ - to;
  const size_t needed = 1 + carry + simdjson::SIMDJSON_PADDING + 1;
  if (rest.size() < needed) rest.resize(kChunkBytes + needed);  // room for the next refill
  std::memcpy(rest.data() + 1, buf_.data() + to, carry);

  EventBatch* b = new_batch();
  b->sequence = next_sequence_++;
  b->offset = abs_begin_;
  b->speculative = speculative;
  b->from = begin_;
  b->to = to;
  b->end = end_;
  b->eof = eof_;
  b->before = buf_[begin_ - 1];
  b->after = buf_[to];
  buf_[begin_ - 1] = '[';
  buf_[to] = ']';
  b->text.swap(buf_);
  b->worker = 0;
  b->events = 0;
  b->error = simdjson::SUCCESS;
  b->breach.reset();
  b->done = false;

  buf_.swap(rest);
  abs_begin_ += to - begin_;
  begin_ = 1;
  end_ = 1 + carry;

  in_flight_.push_back(b);
  ++stats_.batches;
  pool_->submit(b);
}

DocumentReader::Front DocumentReader::commit_front(Wait wait) {
  while (!in_flight_.empty()) {
    EventBatch* b = in_flight_.front();
    if (wait != Wait::kNone)
      pool_->wait(b);
    else if (!pool_->done(b))
      break;
    if (b->failed()) return Front::kFailed;
    if (b->events > limits_.max_events - stats_.events) {
      first_event_past_limit_ = element_offset(*b, limits_.max_events - stats_.events);
      return Front::kTooManyEvents;
    }
    in_flight_.pop_front();
    sink_.commit_batch(b->sequence, b->worker);
    stats_.events += b->events;
    free_buffers_.push_back(std::move(b->text));
    free_batches_.push_back(b);
    if (wait == Wait::kOldest) wait = Wait::kNone;
  }
  return Front::kClear;
}

Result<bool> DocumentReader::settle() {
  switch (commit_front(Wait::kAll)) {
    case Front::kClear:
      break;
    case Front::kTooManyEvents:
      return too_many_events();
    case Front::kFailed: {
      const EventBatch& failed = *in_flight_.front();
      if (!failed.speculative) {
        if (failed.breach) return limit_error(path_, *failed.breach, limits_);
        return json_error(failed.error_offset, simdjson::error_message(failed.error));
      }
      rewind_to(failed);
      return true;
    }
  }
  // Waiting for all, commit_front returns kClear only once every batch is committed.
  return false;
}

void DocumentReader::rewind_to(const EventBatch& failed) {
  pool_->cancel_all();
  const uint64_t sequence = failed.sequence;
  for (EventBatchSink* w : workers_) w->discard_batches_from(sequence);
  // The document from the failed batch's first byte: that batch, then each later one with the
  // separator before it (each buffer starts where the batch before it ended, and is not
  // compacted while batches are in flight), then the bytes the reader holds.
  std::vector<char> text(1);
  for (EventBatch* b : in_flight_) {
    b->text[b->from - 1] = b->before;
    b->text[b->to] = b->after;
    size_t first = b == &failed ? b->from : 1;
    text.insert(text.end(), b->text.begin() + first, b->text.begin() + b->to);
  }
  text.insert(text.end(), buf_.begin() + 1, buf_.begin() + end_);
  // The reader goes back to the failed batch's window as it was, and the bytes read since wait
  // to be read again: the cuts from here on are those of a one-thread read.
  const size_t window = 1 + failed.end - failed.from;
  pushback_.erase(pushback_.begin(), pushback_.begin() + pushback_at_);
  pushback_.insert(pushback_.begin(), text.begin() + window, text.end());
  pushback_at_ = 0;
  text.resize(window);
  end_ = window;
  text.resize(end_ + simdjson::SIMDJSON_PADDING + 1);
  buf_.swap(text);
  free_buffers_.push_back(std::move(text));
  begin_ = 1;
  abs_begin_ = failed.offset;
  eof_ = failed.eof;
  for (EventBatch* b : in_flight_) {
    free_buffers_.push_back(std::move(b->text));
    free_batches_.push_back(b);
  }
  in_flight_.clear();
  next_sequence_ = sequence;
  exact_next_ = true;
  ++stats_.recuts;
}

}  // namespace

Result<DocumentStats> read_trace_document(ByteStream& stream, const std::string& path,
                                          const Limits& limits, DocumentSink& sink,
                                          std::span<EventBatchSink* const> workers,
                                          const ProgressCallback& progress) {
  DocumentReader reader(stream, path, limits, sink, workers, progress);
  return reader.run();
}

}  // namespace attnprof
