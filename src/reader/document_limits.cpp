#include "reader/document_limits.h"

#include <algorithm>

#include "reader/json_scan.h"

namespace attnprof {

namespace {

uint64_t saturating_add(uint64_t a, uint64_t b) {
  return a + b < a ? UINT64_MAX : a + b;
}

}  // namespace

std::optional<LimitBreach> find_limit_breach(std::string_view value, uint64_t offset,
                                             uint32_t enclosing_depth, bool is_event,
                                             const Limits& limits) {
  using Kind = LimitBreach::Kind;
  if (is_event && value.size() > limits.max_event_bytes)
    return LimitBreach{Kind::kEventBytes, offset, value.size()};
  uint64_t depth = enclosing_depth;
  size_t i = 0;
  while (i < value.size()) {
    switch (value[i]) {
      case '"': {
        json_scan::ValueExtent s = json_scan::scan_string(value, i);
        if (s.outcome != json_scan::Outcome::kComplete) {
          // Text still arriving: a string already longer than the limit breaks it now.
          if (value.size() - i - 1 > limits.max_string_bytes)
            return LimitBreach{Kind::kStringBytes, offset + i, 0};
          return std::nullopt;
        }
        const uint64_t size = s.end - i - 2;
        if (size > limits.max_string_bytes)
          return LimitBreach{Kind::kStringBytes, offset + i, size};
        i = s.end;
        continue;
      }
      case '[':
      case '{':
        if (++depth > limits.max_depth) return LimitBreach{Kind::kDepth, offset + i, depth};
        break;
      case ']':
      case '}':
        --depth;
        break;
      default:
        break;
    }
    ++i;
  }
  return std::nullopt;
}

uint64_t scan_threshold(uint32_t enclosing_depth, const Limits& limits) {
  // A breach of max_depth needs max_depth - enclosing_depth + 1 nested containers in the event,
  // each at least two bytes; a string over the limit needs its quotes too.
  const uint64_t depth_bytes = limits.max_depth < enclosing_depth
                                   ? 0
                                   : 2 * (uint64_t{limits.max_depth} - enclosing_depth + 1);
  return std::min({saturating_add(limits.max_event_bytes, 1),
                   saturating_add(limits.max_string_bytes, 3), depth_bytes});
}

Error limit_error(const std::string& path, const LimitBreach& breach, const Limits& limits) {
  switch (breach.kind) {
    case LimitBreach::Kind::kEventBytes:
      return make_error(
          ErrorKind::kLimit,
          "{}: the event at byte {} is {} bytes, more than the limit of {}; raise it with "
          "--max-event-bytes",
          path, breach.offset, breach.size, limits.max_event_bytes);
    case LimitBreach::Kind::kDepth:
      return make_error(
          ErrorKind::kLimit,
          "{}: the JSON at byte {} is nested {} deep (arrays and objects), more than the limit of "
          "{}; raise it with --max-depth",
          path, breach.offset, breach.size, limits.max_depth);
    case LimitBreach::Kind::kStringBytes:
      if (breach.size == 0)
        return make_error(
            ErrorKind::kLimit,
            "{}: the string at byte {} is longer than the limit of {} bytes; raise it with "
            "--max-string-bytes",
            path, breach.offset, limits.max_string_bytes);
      break;
  }
  return make_error(
      ErrorKind::kLimit,
      "{}: the string at byte {} is {} bytes, more than the limit of {}; raise it with "
      "--max-string-bytes",
      path, breach.offset, breach.size, limits.max_string_bytes);
}

Error value_too_large_error(const std::string& path, std::string_view what, uint64_t offset,
                            const Limits& limits) {
  return make_error(
      ErrorKind::kLimit,
      "{}: {} at byte {} is larger than the limit of {} bytes; raise it with --max-event-bytes",
      path, what, offset, limits.max_event_bytes);
}

Error too_many_events_error(const std::string& path, uint64_t offset, const Limits& limits) {
  return make_error(
      ErrorKind::kLimit,
      "{}: the event at byte {} is event number {}, more than the limit of {} events; raise it "
      "with --max-events",
      path, offset, saturating_add(limits.max_events, 1), limits.max_events);
}

}  // namespace attnprof
