#pragma once
// The limits on the JSON text itself (Limits::max_event_bytes, max_depth, max_string_bytes,
// max_events): where a value breaks one, and the one-line error that says so with the flag that
// raises it. The reader checks every event without scanning it: an event can break a limit only
// when its size passes scan_threshold(), and only such (rare) events are scanned.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "attnprof/limits.h"
#include "attnprof/result.h"

namespace attnprof {

struct LimitBreach {
  enum class Kind { kEventBytes, kDepth, kStringBytes };
  Kind kind;
  uint64_t offset = 0;  // in the JSON: the event, the bracket one level too deep, the string
  uint64_t size = 0;    // the event's or the string's bytes (0: a string not read whole), the depth
};

// The first place where `value` (the whole text of one JSON value, starting at byte `offset`,
// nested in `enclosing_depth` arrays and objects) breaks max_depth or max_string_bytes; an event
// (`is_event`) is also held to max_event_bytes. Strings are measured as JSON text between their
// quotes. The text is valid JSON (simdjson parsed it, or the exact scanner cut it) or the start
// of a value still being read, where a string not closed yet breaks the limit once its bytes so
// far do (size 0), so that a limit applies while the bytes arrive.
std::optional<LimitBreach> find_limit_breach(std::string_view value, uint64_t offset,
                                             uint32_t enclosing_depth, bool is_event,
                                             const Limits& limits);

// The smallest text an event nested in `enclosing_depth` levels needs in order to break a limit:
// events shorter than this are within every limit and are not scanned.
uint64_t scan_threshold(uint32_t enclosing_depth, const Limits& limits);

// `path: <what> at byte <offset> ...; raise the limit with --<flag>`.
Error limit_error(const std::string& path, const LimitBreach& breach, const Limits& limits);
// A value (`what`: "the event", "the top-level value \"x\"") still growing past max_event_bytes.
Error value_too_large_error(const std::string& path, std::string_view what, uint64_t offset,
                            const Limits& limits);
// The event numbered max_events + 1 (from 1), at byte `offset`.
Error too_many_events_error(const std::string& path, uint64_t offset, const Limits& limits);

}  // namespace attnprof
