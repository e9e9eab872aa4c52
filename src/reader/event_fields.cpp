#include "reader/event_fields.h"

#include <cmath>

#include "reader/kineto_format.h"
#include "reader/time_parse.h"

namespace attnprof {

namespace {

using simdjson::ondemand::json_type;
using simdjson::ondemand::value;
using Field = EventFields::Field;

// Kineto writes integers, but other producers write 1.0 or "7": take what is unambiguous.
bool read_integer(value v, int64_t& out) {
  json_type type;
  if (v.type().get(type)) return false;
  if (type != json_type::number) return false;
  if (!v.get_int64().get(out)) return true;
  double d;
  if (v.get_double().get(d) || !std::isfinite(d) || std::fabs(d) > 9e18) return false;
  out = static_cast<int64_t>(std::llround(d));
  return true;
}

bool read_time(value v, int64_t& out_ns) {
  json_type type;
  if (v.type().get(type) || type != json_type::number) return false;
  std::string_view text = v.raw_json_token();
  auto ns = microseconds_text_to_ns(text);
  if (!ns) return false;
  out_ns = *ns;
  return true;
}

bool read_string(value v, std::string_view& out) {
  json_type type;
  if (v.type().get(type) || type != json_type::string) return false;
  return !v.get_string().get(out);
}

// pid and tid are integers, but the profiler's own spans use strings ("Spans", "Traces").
void read_id_or_text(value v, int64_t& number, std::string_view& text, EventFields& out, Field f) {
  json_type type;
  if (v.type().get(type)) {
    out.mistyped |= f;
    return;
  }
  if (type == json_type::string) {
    if (v.get_string().get(text)) out.mistyped |= f;
    return;
  }
  if (!read_integer(v, number)) out.mistyped |= f;
}

bool read_dim3(value v, std::array<int32_t, 3>& out) {
  simdjson::ondemand::array array;
  if (v.get_array().get(array)) return false;
  size_t i = 0;
  for (auto element : array) {
    int64_t n;
    value item;
    if (element.get(item) || !read_integer(item, n)) return false;
    if (i < 3) out[i] = static_cast<int32_t>(n);
    ++i;
  }
  return i == 3;
}

template <typename Reader>
void read_field(value v, EventFields& out, Field f, Reader&& reader) {
  out.present |= f;
  if (!reader(v)) out.mistyped |= f;
}

simdjson::error_code read_args(value v, EventFields& out) {
  simdjson::ondemand::object args;
  if (v.get_object().get(args)) return simdjson::SUCCESS;  // args of another type: nothing used
  for (auto field : args) {
    simdjson::ondemand::raw_json_string key;
    if (auto error = field.key().get(key)) return error;
    value item;
    if (auto error = field.value().get(item)) return error;
    auto integer = [](int64_t& slot) { return [&slot](value x) { return read_integer(x, slot); }; };
    if (key == kineto::kExternalId) {
      read_field(item, out, Field::kExternalId, integer(out.external_id));
    } else if (key == kineto::kCorrelation) {
      read_field(item, out, Field::kCorrelation, integer(out.correlation));
    } else if (key == kineto::kDevice) {
      read_field(item, out, Field::kDevice, integer(out.device));
    } else if (key == kineto::kStream) {
      read_field(item, out, Field::kStream, integer(out.stream));
    } else if (key == kineto::kGrid) {
      read_field(item, out, Field::kGrid, [&](value x) { return read_dim3(x, out.grid); });
    } else if (key == kineto::kBlock) {
      read_field(item, out, Field::kBlock, [&](value x) { return read_dim3(x, out.block); });
    } else if (key == kineto::kRegistersPerThread) {
      read_field(item, out, Field::kRegisters, [&](value x) {
        int64_t n;
        if (!read_integer(x, n)) return false;
        out.registers = static_cast<int32_t>(n);
        return true;
      });
    } else if (key == kineto::kSharedMemory) {
      read_field(item, out, Field::kSharedMemory, integer(out.shared_memory));
    } else if (key == kineto::kEstAchievedOccupancy) {
      read_field(item, out, Field::kOccupancy, [&](value x) {
        double d;
        return !x.get_double().get(d) && std::isfinite(d) && (out.occupancy_pct = d, true);
      });
    } else if (key == kineto::kBytes) {
      read_field(item, out, Field::kBytes, integer(out.bytes));
    } else if (key == kineto::kMetadataName) {
      read_field(item, out, Field::kMetadataName,
                 [&](value x) { return read_string(x, out.metadata_name); });
    } else if (key == kineto::kMemoryBytes) {
      read_field(item, out, Field::kMemoryBytes, integer(out.memory_bytes));
    } else if (key == kineto::kMemoryTotalAllocated) {
      read_field(item, out, Field::kMemoryTotalAllocated, integer(out.memory_total_allocated));
    } else if (key == kineto::kMemoryDeviceId) {
      read_field(item, out, Field::kMemoryDeviceId, integer(out.memory_device_id));
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

simdjson::error_code read_event_fields(value event, EventFields& out) {
  out = EventFields{};
  simdjson::ondemand::object object;
  if (auto error = event.get_object().get(object)) return error;
  for (auto field : object) {
    simdjson::ondemand::raw_json_string key;
    if (auto error = field.key().get(key)) return error;
    value v;
    if (auto error = field.value().get(v)) return error;
    if (key == kineto::kPhase) {
      read_field(v, out, Field::kPhase, [&](value x) {
        std::string_view ph;
        if (!read_string(x, ph) || ph.size() != 1) return false;
        out.phase = ph[0];
        return true;
      });
    } else if (key == kineto::kCategory) {
      read_field(v, out, Field::kCategory, [&](value x) { return read_string(x, out.category); });
    } else if (key == kineto::kName) {
      read_field(v, out, Field::kName, [&](value x) { return read_string(x, out.name); });
    } else if (key == kineto::kPid) {
      out.present |= Field::kPid;
      read_id_or_text(v, out.pid, out.pid_text, out, Field::kPid);
    } else if (key == kineto::kTid) {
      out.present |= Field::kTid;
      read_id_or_text(v, out.tid, out.tid_text, out, Field::kTid);
    } else if (key == kineto::kTs) {
      read_field(v, out, Field::kTs, [&](value x) { return read_time(x, out.ts_ns); });
    } else if (key == kineto::kDur) {
      read_field(v, out, Field::kDur, [&](value x) { return read_time(x, out.dur_ns); });
    } else if (key == kineto::kId) {
      out.present |= Field::kId;
      std::string_view text;
      read_id_or_text(v, out.id, text, out, Field::kId);
      if (!text.empty()) out.mistyped |= Field::kId;
    } else if (key == kineto::kArgs) {
      if (auto error = read_args(v, out)) return error;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace attnprof
