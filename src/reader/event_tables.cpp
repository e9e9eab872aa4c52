// The storage of a worker's tables: where each batch begins, and forgetting a batch whole.
// The rules that make rows of events are event_rows.cpp.

#include "reader/event_tables.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "model/op_input_text.h"

namespace attnprof {

EventTables::EventTables() = default;

EventTables::HostRow EventTables::compact(const HostEvent& e, std::vector<HostEvent>& wide) {
  auto fits = [](int64_t v) {
    return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
  };
  if (fits(e.dur_ns) && fits(e.external_id) && fits(e.correlation) && e.name < (1u << 24)) {
    return {e.start_ns, static_cast<int32_t>(e.dur_ns), static_cast<int32_t>(e.external_id),
            static_cast<int32_t>(e.correlation), e.name << 8 | static_cast<uint32_t>(e.kind)};
  }
  wide.push_back(e);
  return {e.start_ns, 0, static_cast<int32_t>(wide.size() - 1), 0, HostRow::kWide};
}

HostEvent EventTables::expand(const HostRow& r, const std::vector<HostEvent>& wide) {
  if (r.name_kind == HostRow::kWide) return wide[static_cast<uint32_t>(r.external_id)];
  HostEvent e;
  e.start_ns = r.start_ns;
  e.dur_ns = r.dur_ns;
  e.external_id = r.external_id;
  e.correlation = r.correlation;
  e.name = r.name_kind >> 8;
  e.kind = static_cast<HostKind>(r.name_kind & 0xff);
  return e;
}

namespace {

constexpr uint64_t kMix = 0x9E3779B97F4A7C15;  // Fibonacci hashing: the high bits are mixed

// `h` with the bytes of `text` mixed in, eight at a time: a multiply and a shift a word, inline.
// It only picks a slot of the inputs cache (a collision costs a miss, never a wrong text), and
// std::hash, called once per text, costs 1.5 % of analyze's instructions (docs/PERFORMANCE.md).
uint64_t mix_text(uint64_t h, std::string_view text) {
  size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    uint64_t word;
    std::memcpy(&word, text.data() + i, 8);
    h = (h ^ word) * kMix;
    h ^= h >> 29;
  }
  // The last bytes (up to seven) in fixed-size reads (a call of memcpy for a length unknown at
  // compile time cost as much as the loop), the length in the eighth: "a" and "a\0" differ.
  const size_t left = text.size() - i;
  const char* p = text.data() + i;
  uint64_t tail = 0;
  if (left >= 4) {
    uint32_t front, back;  // overlapping when fewer than eight
    std::memcpy(&front, p, 4);
    std::memcpy(&back, p + left - 4, 4);
    tail = uint64_t{front} << 24 ^ back;
  } else if (left > 0) {
    tail = uint64_t{static_cast<uint8_t>(p[0])} << 16 |
           uint64_t{static_cast<uint8_t>(p[left / 2])} << 8 | static_cast<uint8_t>(p[left - 1]);
  }
  h = (h ^ tail ^ (uint64_t{text.size()} << 56)) * kMix;
  return h ^ h >> 29;
}

}  // namespace

StringId EventTables::op_inputs_id(StringId name, std::string_view dims, std::string_view types,
                                   std::string_view concrete) {
  const uint64_t h = mix_text(mix_text(mix_text(uint64_t{name} * kMix, dims), types), concrete);
  // Two slots a hash, the newest first: two texts that share a hash and alternate (layer after
  // layer) would evict each other from one.
  const size_t first = ((h * kMix) >> (64 - kInputsCacheBits)) & ~size_t{1};
  for (size_t i = first; i < first + 2 && inputs_cache_[i] != StringPool::kEmpty; ++i) {
    const auto f = split_op_input_fields(op_input_texts.view(inputs_cache_[i]));
    if (f && f->dims == dims && f->types == types && f->concrete == concrete)
      return inputs_cache_[i];
  }
  join_op_input_fields({dims, types, concrete}, joined_inputs_);
  inputs_cache_[first + 1] = inputs_cache_[first];
  inputs_cache_[first] = op_input_texts.intern(joined_inputs_);
  return inputs_cache_[first];
}

void EventTables::begin_batch(uint64_t sequence) {
  sequence_ = sequence;
  Mark m;
  m.sequence = sequence;
  m.gpu = gpu_activities.size();
  m.instants = instants.size();
  m.flows = flows.size();
  m.names = thread_names.size();
  m.op_input_texts = op_input_texts.size();
  m.strings = strings.size();
  m.instant_text_keys = instant_text_keys.size();
  m.flow_text_keys = flow_text_keys.size();
  m.name_text_keys = name_text_keys.size();
  m.events = events_read;
  m.events_with_phase = events_with_phase;
  m.diagnostic_counts = diagnostics.counts;
  m.diagnostics_kept = diagnostics.kept.size();
  batches.push_back(m);
}

void EventTables::truncate_to(const Mark& m) {
  for (HostThread& t : host_threads) {
    while (!t.batch_starts.empty() && t.batch_starts.back().first >= m.sequence) {
      t.rows.truncate(t.batch_starts.back().second);
      t.batch_starts.pop_back();
    }
    while (!t.inputs.empty() && t.inputs.back().first >= t.rows.size()) t.inputs.pop_back();
  }
  gpu_activities.truncate(m.gpu);
  instants.truncate(m.instants);
  flows.truncate(m.flows);
  thread_names.resize(m.names);
  op_input_texts.truncate(m.op_input_texts);
  std::fill(inputs_cache_.begin(), inputs_cache_.end(), StringPool::kEmpty);
  strings.truncate(m.strings);
  instant_text_keys.resize(m.instant_text_keys);
  flow_text_keys.resize(m.flow_text_keys);
  name_text_keys.resize(m.name_text_keys);
  events_read = m.events;
  events_with_phase = m.events_with_phase;
  diagnostics.counts = m.diagnostic_counts;
  diagnostics.kept.resize(m.diagnostics_kept);
}

void EventTables::end_batch(bool parsed) {
  if (parsed) return;
  truncate_to(batches.back());
  batches.pop_back();
}

void EventTables::discard_batches_from(uint64_t sequence) {
  auto first = std::find_if(batches.begin(), batches.end(),
                            [&](const Mark& m) { return m.sequence >= sequence; });
  if (first == batches.end()) return;
  truncate_to(*first);
  batches.erase(first, batches.end());
}

}  // namespace attnprof
