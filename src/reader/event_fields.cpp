#include "reader/event_fields.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <utility>

#include "reader/ascii_digits.h"
#include "reader/kineto_format.h"
#include "reader/time_parse.h"

namespace attnprof {

namespace {

using simdjson::ondemand::value;
using Field = EventFields::Field;

bool is_space(char c) {
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The common integer: an optional '-', then up to 18 digits without a leading zero (so no
// overflow), then the token's end. Exactly what simdjson's get_int64 reads the same way; other
// text goes to it. Reading the raw token leaves the value unconsumed: the iterator skips it.
// The token lies in simdjson's padded input, so the 8 bytes from its first are readable whatever
// its length: an id of up to eight digits (nearly all) is read in one word (reader/ascii_digits.h).
bool plain_integer(std::string_view token, int64_t& out) {
  const char* p = token.data();
  const char* end = p + token.size();
  while (end > p && is_space(end[-1])) --end;
  if (const auto n = static_cast<unsigned>(end - p); n >= 1 && n <= 8) {
    const uint64_t word = ascii_digits::load8(p);
    if (ascii_digits::leading_digits(word) == n) {
      if (n > 1 && *p == '0') return false;
      out = static_cast<int64_t>(ascii_digits::value(ascii_digits::padded(word, n)));
      return true;
    }
  }
  const bool negative = p < end && *p == '-';
  if (negative) ++p;
  const char* digits = p;
  uint64_t n = 0;
  while (p < end && static_cast<unsigned char>(*p - '0') < 10) n = n * 10 + (*p++ - '0');
  const ptrdiff_t count = p - digits;
  if (p != end || count == 0 || count > 18 || (count > 1 && *digits == '0')) return false;
  out = negative ? -static_cast<int64_t>(n) : static_cast<int64_t>(n);
  return true;
}

// Kineto writes integers, but other producers write 1.0: take what is unambiguous. (Each getter
// checks the type itself; asking type() first cost a second look at every value.)
bool read_integer(value& v, int64_t& out) {
  if (plain_integer(v.raw_json_token(), out)) return true;
  if (!v.get_int64().get(out)) return true;
  double d;
  if (v.get_double().get(d) || !std::isfinite(d) || std::fabs(d) > 9e18) return false;
  out = static_cast<int64_t>(std::llround(d));
  return true;
}

// A time further than this from the trace's clock origin is not a time but a mistyped field:
// within it, an end (ts + dur) and the difference of any two starts or ends fit in int64, which
// the model and the analyses rely on (fuzz regression time-beyond-int64.json). Kineto's ts are
// microseconds since boot, or since the epoch in old versions (1.8e18 ns in 2026; 2^61 ns is 73
// years, 2043 since the epoch).
constexpr int64_t kMaxTimeMagnitudeNs = int64_t{1} << 61;

bool read_time(value& v, int64_t& out_ns) {
  std::string_view text = v.raw_json_token();
  if (text.empty() || !(text[0] == '-' || (text[0] >= '0' && text[0] <= '9'))) return false;
  auto ns = microseconds_text_to_ns(text);
  if (!ns || *ns > kMaxTimeMagnitudeNs || *ns < -kMaxTimeMagnitudeNs) return false;
  out_ns = *ns;
  return true;
}

// Strings without escapes (nearly all) are taken in place; only escaped ones are unescaped. The
// raw token runs from the opening quote to the next structural character, so the closing quote
// is its last byte but whitespace; one look for a backslash tells whether the text is plain.
bool read_string(value& v, std::string_view& out) {
  std::string_view token = v.raw_json_token();
  if (token.empty() || token[0] != '"') return false;
  size_t end = token.size();
  while (end > 1 && is_space(token[end - 1])) --end;
  if (end >= 2 && token[end - 1] == '"') {
    const char* begin = token.data() + 1;
    const size_t size = end - 2;
    if (!std::memchr(begin, '\\', size)) {
      out = std::string_view(begin, size);
      return true;
    }
  }
  return !v.get_string().get(out);
}

// pid and tid are integers, but the profiler's own spans use strings ("Spans", "Traces").
void read_id_or_text(value& v, int64_t& number, std::string_view& text, EventFields& out, Field f) {
  std::string_view token = v.raw_json_token();
  if (!token.empty() && token[0] == '"') {
    if (!read_string(v, text)) out.mistyped |= f;
    return;
  }
  if (!read_integer(v, number)) out.mistyped |= f;
}

// A grid or block: three counts that fit the model's int32, whose product (the launch's blocks,
// or a block's threads) fits in int64 as the analyses compute it. Anything else is mistyped;
// CUDA's own limits are far inside (fuzz regression grid-product-beyond-int64.json).
bool read_dim3(value& v, std::array<int32_t, 3>& out) {
  simdjson::ondemand::array array;
  if (v.get_array().get(array)) return false;
  size_t i = 0;
  for (auto element : array) {
    int64_t n;
    value item;
    if (element.get(item) || !read_integer(item, n)) return false;
    if (n < 0 || n > std::numeric_limits<int32_t>::max()) return false;
    if (i < 3) out[i] = static_cast<int32_t>(n);
    ++i;
  }
  int64_t product;
  return i == 3 && !__builtin_mul_overflow(int64_t{out[0]} * out[1], int64_t{out[2]}, &product);
}

// Keys are matched on their raw bytes, dispatched by the first byte: most events have a dozen
// keys, and a chain of string compares per key showed in profiles. A key is `text` when its raw
// bytes are `text` followed by the closing quote (escaped keys never match: no key we use has
// escapes). Reading a few bytes past a short key is safe: the parser's input is padded.
bool key_is(const char* raw, std::string_view text) {
  return std::memcmp(raw, text.data(), text.size()) == 0 && raw[text.size()] == '"';
}

enum class Key {
  kOther,
  kPhase,
  kCategory,
  kName,
  kPid,
  kTid,
  kTs,
  kDur,
  kId,
  kArgs,
  kExternalId,
  kCorrelation,
  kDevice,
  kStream,
  kGrid,
  kBlock,
  kRegisters,
  kSharedMemory,
  kOccupancy,
  kBytes,
  kTransferSize,
  kWaitedRecord,
  kWaitedStream,
  kMemoryBytes,
  kMemoryTotalAllocated,
  kMemoryDeviceId,
  kMemoryTotalReserved,
  kMemoryDeviceType,
  kMemoryAddress,
  kInputDims,
  kInputType,
  kConcreteInputs,
  kCollectiveName,
  kInMsgNelems,
  kOutMsgNelems,
  kCollectiveDtype,
  kGroupSize,
  kProcessGroupName,
};

Key event_key(simdjson::ondemand::raw_json_string key) {
  const char* k = key.raw();
  switch (k[0]) {
    case 'p':
      if (key_is(k, kineto::kPhase)) return Key::kPhase;
      if (key_is(k, kineto::kPid)) return Key::kPid;
      break;
    case 'c':
      if (key_is(k, kineto::kCategory)) return Key::kCategory;
      break;
    case 'n':
      if (key_is(k, kineto::kName)) return Key::kName;
      break;
    case 't':
      if (key_is(k, kineto::kTs)) return Key::kTs;
      if (key_is(k, kineto::kTid)) return Key::kTid;
      break;
    case 'd':
      if (key_is(k, kineto::kDur)) return Key::kDur;
      break;
    case 'i':
      if (key_is(k, kineto::kId)) return Key::kId;
      break;
    case 'a':
      if (key_is(k, kineto::kArgs)) return Key::kArgs;
      break;
  }
  return Key::kOther;
}

Key arg_key(simdjson::ondemand::raw_json_string key) {
  const char* k = key.raw();
  switch (k[0]) {
    case 'E':
      if (key_is(k, kineto::kExternalId)) return Key::kExternalId;
      break;
    case 'c':
      if (key_is(k, kineto::kCorrelation)) return Key::kCorrelation;
      break;
    case 'd':
      if (key_is(k, kineto::kDevice)) return Key::kDevice;
      if (key_is(k, kineto::kCollectiveDtype)) return Key::kCollectiveDtype;
      break;
    case 's':
      if (key_is(k, kineto::kStream)) return Key::kStream;
      if (key_is(k, kineto::kSharedMemory)) return Key::kSharedMemory;
      if (key_is(k, kineto::kMtiaBytes)) return Key::kTransferSize;
      break;
    case 'g':
      if (key_is(k, kineto::kGrid)) return Key::kGrid;
      break;
    case 'b':
      if (key_is(k, kineto::kBlock)) return Key::kBlock;
      if (key_is(k, kineto::kBytes)) return Key::kBytes;
      break;
    case 'r':
      if (key_is(k, kineto::kRegistersPerThread)) return Key::kRegisters;
      break;
    case 'e':
      if (key_is(k, kineto::kEstAchievedOccupancy)) return Key::kOccupancy;
      if (key_is(k, kineto::kLegacyExternalId)) return Key::kExternalId;
      break;
    case 'n':
      if (key_is(k, kineto::kMetadataName)) return Key::kName;
      break;
    case 'w':
      if (key_is(k, kineto::kWaitOnEventRecordCorrelation)) return Key::kWaitedRecord;
      if (key_is(k, kineto::kWaitOnStream)) return Key::kWaitedStream;
      break;
    case 'B':
      if (key_is(k, kineto::kMemoryBytes)) return Key::kMemoryBytes;
      break;
    case 'T':
      if (key_is(k, kineto::kMemoryTotalAllocated)) return Key::kMemoryTotalAllocated;
      if (key_is(k, kineto::kMemoryTotalReserved)) return Key::kMemoryTotalReserved;
      break;
    case 'D':
      if (key_is(k, kineto::kMemoryDeviceId)) return Key::kMemoryDeviceId;
      if (key_is(k, kineto::kMemoryDeviceType)) return Key::kMemoryDeviceType;
      break;
    case 'A':
      if (key_is(k, kineto::kMemoryAddress)) return Key::kMemoryAddress;
      break;
    case 'I':
      if (key_is(k, kineto::kInputDims)) return Key::kInputDims;
      if (key_is(k, kineto::kInputType)) return Key::kInputType;
      if (key_is(k, kineto::kInMsgNelems)) return Key::kInMsgNelems;
      break;
    case 'C':
      if (key_is(k, kineto::kConcreteInputs)) return Key::kConcreteInputs;
      if (key_is(k, kineto::kCollectiveName)) return Key::kCollectiveName;
      break;
    case 'O':
      if (key_is(k, kineto::kOutMsgNelems)) return Key::kOutMsgNelems;
      break;
    case 'G':
      if (key_is(k, kineto::kGroupSize)) return Key::kGroupSize;
      break;
    case 'P':
      if (key_is(k, kineto::kProcessGroupName)) return Key::kProcessGroupName;
      break;
  }
  return Key::kOther;
}

// The raw text of an array value; empty for a value of another type.
std::string_view raw_array(value& v) {
  simdjson::ondemand::array array;
  std::string_view text;
  if (v.get_array().get(array) || array.raw_json().get(text)) return {};
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);  // up to the next token
  return text;
}

template <typename Reader>
void read_field(value& v, EventFields& out, Field f, Reader&& reader) {
  out.present |= f;
  if (!reader(v)) out.mistyped |= f;
}

simdjson::error_code read_args(value& v, EventFields& out) {
  simdjson::ondemand::object args;
  if (v.get_object().get(args)) return simdjson::SUCCESS;  // args of another type: nothing used
  for (auto result : args) {
    // The field by reference, never copied: copies of simdjson's small iterator structs, just
    // written, stalled on store forwarding (a quarter of this function's time on a 1 GB trace).
    if (auto error = result.error()) return error;
    simdjson::ondemand::field& field = result.value_unsafe();
    value& item = field.value();
    auto integer = [](int64_t& slot) {
      return [&slot](value& x) { return read_integer(x, slot); };
    };
    switch (arg_key(field.key())) {
      case Key::kExternalId:
        read_field(item, out, Field::kExternalId, integer(out.external_id));
        break;
      case Key::kCorrelation:
        read_field(item, out, Field::kCorrelation, integer(out.correlation));
        break;
      case Key::kDevice:
        read_field(item, out, Field::kDevice, integer(out.device));
        break;
      case Key::kStream:
        read_field(item, out, Field::kStream, integer(out.stream));
        break;
      case Key::kGrid:
        read_field(item, out, Field::kGrid, [&](value& x) { return read_dim3(x, out.grid); });
        break;
      case Key::kBlock:
        read_field(item, out, Field::kBlock, [&](value& x) { return read_dim3(x, out.block); });
        break;
      case Key::kRegisters:
        read_field(item, out, Field::kRegisters, [&](value& x) {
          int64_t n;
          if (!read_integer(x, n)) return false;
          out.registers = static_cast<int32_t>(n);
          return true;
        });
        break;
      case Key::kSharedMemory:
        read_field(item, out, Field::kSharedMemory, integer(out.shared_memory));
        break;
      case Key::kOccupancy:
        read_field(item, out, Field::kOccupancy, [&](value& x) {
          // The model keeps a float: a double beyond its range would not convert (undefined).
          double d;
          return !x.get_double().get(d) && std::fabs(d) <= std::numeric_limits<float>::max() &&
                 (out.occupancy_pct = d, true);
        });
        break;
      case Key::kBytes:
        read_field(item, out, Field::kBytes, integer(out.bytes));
        break;
      case Key::kTransferSize:
        read_field(item, out, Field::kTransferSize, integer(out.transfer_size));
        break;
      case Key::kWaitedRecord:
        read_field(item, out, Field::kWaitedRecord, integer(out.waited_record));
        break;
      case Key::kWaitedStream:
        read_field(item, out, Field::kWaitedStream, integer(out.waited_stream));
        break;
      case Key::kName:
        read_field(item, out, Field::kMetadataName,
                   [&](value& x) { return read_string(x, out.metadata_name); });
        break;
      case Key::kMemoryBytes:
        read_field(item, out, Field::kMemoryBytes, integer(out.memory_bytes));
        break;
      case Key::kMemoryTotalAllocated:
        read_field(item, out, Field::kMemoryTotalAllocated, integer(out.memory_total_allocated));
        break;
      case Key::kMemoryDeviceId:
        read_field(item, out, Field::kMemoryDeviceId, integer(out.memory_device_id));
        break;
      case Key::kMemoryTotalReserved:
        read_field(item, out, Field::kMemoryTotalReserved, integer(out.memory_total_reserved));
        break;
      case Key::kMemoryDeviceType:
        read_field(item, out, Field::kMemoryDeviceType, integer(out.memory_device_type));
        break;
      case Key::kMemoryAddress:
        read_field(item, out, Field::kMemoryAddress, integer(out.memory_address));
        break;
      case Key::kInputDims:
        out.input_dims = raw_array(item);
        break;
      case Key::kInputType:
        out.input_types = raw_array(item);
        break;
      case Key::kCollectiveName:
        read_field(item, out, Field::kCollective,
                   [&](value& x) { return read_string(x, out.collective_name); });
        break;
      case Key::kCollectiveDtype:
        read_field(item, out, Field::kCollective,
                   [&](value& x) { return read_string(x, out.collective_dtype); });
        break;
      case Key::kProcessGroupName:
        read_field(item, out, Field::kCollective,
                   [&](value& x) { return read_string(x, out.process_group); });
        break;
      case Key::kInMsgNelems:
        read_field(item, out, Field::kCollective, integer(out.in_nelems));
        break;
      case Key::kOutMsgNelems:
        read_field(item, out, Field::kCollective, integer(out.out_nelems));
        break;
      case Key::kGroupSize:
        read_field(item, out, Field::kCollective, integer(out.group_size));
        break;
      case Key::kConcreteInputs:
        out.concrete_inputs = raw_array(item);
        break;
      default:
        break;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace

std::string_view field_key(uint32_t fields) {
  // Kineto's keys (kineto_format.h) of the fields an event is rejected for.
  static constexpr std::pair<uint32_t, std::string_view> kKeys[] = {
      {Field::kPhase, kineto::kPhase},
      {Field::kCategory, kineto::kCategory},
      {Field::kName, kineto::kName},
      {Field::kPid, kineto::kPid},
      {Field::kTid, kineto::kTid},
      {Field::kTs, kineto::kTs},
      {Field::kDur, kineto::kDur},
      {Field::kId, kineto::kId},
      {Field::kExternalId, kineto::kExternalId},
      {Field::kCorrelation, kineto::kCorrelation},
      {Field::kGrid, kineto::kGrid},
      {Field::kBlock, kineto::kBlock},
      {Field::kBytes, kineto::kBytes}};
  for (const auto& [bit, key] : kKeys)
    if (fields & bit) return key;
  return "a field";
}

simdjson::error_code read_event_fields(value event, EventFields& out) {
  out = EventFields{};
  simdjson::ondemand::object object;
  if (auto error = event.get_object().get(object)) return error;
  for (auto result : object) {
    if (auto error = result.error()) return error;
    simdjson::ondemand::field& field = result.value_unsafe();  // see read_args
    value& v = field.value();
    switch (event_key(field.key())) {
      case Key::kPhase:
        read_field(v, out, Field::kPhase, [&](value& x) {
          std::string_view ph;
          if (!read_string(x, ph) || ph.size() != 1) return false;
          out.phase = ph[0];
          return true;
        });
        break;
      case Key::kCategory:
        read_field(v, out, Field::kCategory,
                   [&](value& x) { return read_string(x, out.category); });
        break;
      case Key::kName:
        read_field(v, out, Field::kName, [&](value& x) { return read_string(x, out.name); });
        break;
      case Key::kPid:
        out.present |= Field::kPid;
        read_id_or_text(v, out.pid, out.pid_text, out, Field::kPid);
        break;
      case Key::kTid:
        out.present |= Field::kTid;
        read_id_or_text(v, out.tid, out.tid_text, out, Field::kTid);
        break;
      case Key::kTs:
        read_field(v, out, Field::kTs, [&](value& x) { return read_time(x, out.ts_ns); });
        break;
      case Key::kDur:
        read_field(v, out, Field::kDur, [&](value& x) { return read_time(x, out.dur_ns); });
        break;
      case Key::kId: {
        out.present |= Field::kId;
        std::string_view text;
        read_id_or_text(v, out.id, text, out, Field::kId);
        if (!text.empty()) out.mistyped |= Field::kId;
        break;
      }
      case Key::kArgs:
        if (auto error = read_args(v, out)) return error;
        break;
      default:
        break;
    }
  }
  return simdjson::SUCCESS;
}

}  // namespace attnprof
