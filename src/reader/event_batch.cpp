#include "reader/event_batch.h"

#include "reader/json_scan.h"

namespace attnprof {

namespace {

// The text of one element of a batch: from its first byte to `next` (the next element's first
// byte, or the batch's end), less the separator between them.
std::string_view element_text(const char* first, const char* next) {
  while (next > first && json_scan::is_space(next[-1])) --next;
  if (next > first && next[-1] == ',') --next;
  while (next > first && json_scan::is_space(next[-1])) --next;
  return {first, static_cast<size_t>(next - first)};
}

}  // namespace

// The byte offset of element number `index` (from 0) of a parsed batch.
uint64_t element_offset(const EventBatch& batch, uint64_t index) {
  std::string_view text(batch.text.data() + batch.from, batch.to - batch.from);
  size_t pos = 0;
  for (uint64_t i = 0; i < index; ++i) {
    pos = json_scan::skip_space(text, json_scan::scan_value(text, pos, true).end);
    pos = json_scan::skip_space(text, pos + 1);  // the comma
  }
  return batch.offset + pos;
}

// Parses `batch` as one array, handing each element to `sink`. Each element is held to `limits`
// once the next one's position tells its size: the sink has seen it by then, but a breach fails
// the batch, which rolls it back.
void parse_batch(simdjson::ondemand::parser& parser, EventBatchSink& sink, EventBatch& batch,
                 const EventLimits& limits) {
  simdjson::padded_string_view view(batch.text.data() + batch.from - 1, batch.to - batch.from + 2,
                                    batch.text.size() - batch.from + 1);
  // Offsets in the view are one byte ahead of the batch's first byte.
  const char* first = batch.text.data() + batch.from;
  auto offset_of = [&](const char* p) { return batch.offset + (p - first); };
  const char* previous = nullptr;  // the element before, not yet held to the limits
  auto check_previous = [&](const char* next) {
    if (!previous || static_cast<uint64_t>(next - previous) < limits.scan_threshold) return true;
    batch.breach = find_limit_breach(element_text(previous, next), offset_of(previous),
                                     limits.enclosing_depth, /*is_event=*/true, *limits.limits);
    return !batch.breach;
  };

  sink.begin_batch(batch.sequence);
  uint64_t count = 0;
  uint64_t element_offset = batch.offset;
  simdjson::error_code error = simdjson::SUCCESS;
  simdjson::ondemand::document doc;
  bool iterated = !(error = parser.iterate(view).get(doc));
  if (iterated) {
    simdjson::ondemand::array array;
    if (!(error = doc.get_array().get(array))) {
      for (auto element : array) {
        simdjson::ondemand::value value;
        if ((error = element.get(value))) break;
        const char* location = nullptr;
        if (!doc.current_location().get(location)) {
          element_offset = offset_of(location);
          if (!check_previous(location)) break;
          previous = location;
        }
        if ((error = sink.event(value, element_offset))) break;
        ++count;
      }
      const char* trailing = nullptr;
      if (!error && !batch.breach && !doc.current_location().get(trailing)) {
        error = simdjson::TRAILING_CONTENT;
        element_offset = offset_of(trailing);
      }
      if (!error && !batch.breach) check_previous(batch.text.data() + batch.to);
    }
  }
  sink.end_batch(!error && !batch.breach);
  batch.events = count;
  batch.error = error;
  if (error) {
    const char* location = nullptr;
    bool located = iterated && !doc.current_location().get(location);
    batch.error_offset = located ? offset_of(location) : element_offset;
  }
}

}  // namespace attnprof
