// The trace summary's one owner: a table of fields per type drives both the writer and the
// reader, so that the two sides cannot drift (docs/DISTRIBUTED.md has the format). A number or
// text added to the summary is one line of a table below.

#include <simdjson.h>

#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <variant>

#include "analysis/regions/region_facts.h"
#include "analysis/time_breakdown.h"
#include "attnprof/launch_queue.h"
#include "attnprof/trace_summary.h"
#include "render/json_writer.h"

namespace attnprof {

namespace {

// Whether a line must hold a field: one added within its version is absent from the lines of an
// earlier writer, and reads as its default there.
enum class Presence : uint8_t { kRequired, kAddedWithinVersion };

template <typename Owner>
struct SummaryField {
  std::string_view key;
  std::variant<int64_t Owner::*, int32_t Owner::*, uint64_t Owner::*, double Owner::*,
               std::string Owner::*, std::vector<int64_t> Owner::*>
      member;
  Presence presence = Presence::kRequired;
};

// The trace as a whole. Its regions, devices and distributedInfo are written beside these.
const std::array<SummaryField<TraceAnalysis>, 4> kTraceFields = {{
    {"json_bytes", &TraceAnalysis::json_bytes},
    {"events", &TraceAnalysis::events},
    {"region_pattern", &TraceAnalysis::region_pattern},
    {"typical_region", &TraceAnalysis::typical_region},
}};

// distributedInfo, as analyze's JSON spells it (-1: the trace does not say).
const std::array<SummaryField<TraceAnalysis>, 3> kDistributedFields = {{
    {"backend", &TraceAnalysis::distributed_backend},
    {"rank", &TraceAnalysis::rank},
    {"world_size", &TraceAnalysis::world_size},
}};

const std::array<SummaryField<DeviceSummary>, 8> kDeviceFields = {{
    {"id", &DeviceSummary::id},
    {"name", &DeviceSummary::name},
    {"vendor", &DeviceSummary::vendor},
    {"sm_count", &DeviceSummary::sm_count},
    {"compute_major", &DeviceSummary::compute_major},
    {"compute_minor", &DeviceSummary::compute_minor},
    {"arch", &DeviceSummary::arch},
    {"description", &DeviceSummary::description},
}};

// A time breakdown (attnprof/time_breakdown.h), of a region or of the whole trace.
const std::array<SummaryField<TimeBreakdown>, 8> kBreakdownFields = {{
    {"span_ns", &TimeBreakdown::span_ns},
    {"busy_ns", &TimeBreakdown::busy_ns},
    {"idle_ns", &TimeBreakdown::idle_ns},
    {"compute_ns", &TimeBreakdown::compute_ns},
    {"communication_ns", &TimeBreakdown::communication_ns},
    {"memory_ns", &TimeBreakdown::memory_ns},
    {"communication_union_ns", &TimeBreakdown::communication_union_ns},
    {"communication_overlap_ns", &TimeBreakdown::communication_overlap_ns},
}};

// What a region waited on (analysis/regions/region_waits.h reads these): each stream's idle time by
// cause, the launch delays' statistics (not their five longest) and each stream's queue.
const std::array<SummaryField<StreamIdle>, 5> kStreamIdleFields = {{
    {"stream", &StreamIdle::stream},
    {"host_wait_ns", &StreamIdle::host_wait_ns},
    {"kernel_gap_ns", &StreamIdle::kernel_gap_ns},
    {"other_ns", &StreamIdle::other_ns},
    {"busy_ns", &StreamIdle::busy_ns},
}};
const std::array<SummaryField<LaunchDelays>, 5> kLaunchDelayFields = {{
    {"launched", &LaunchDelays::launched},
    {"median_ns", &LaunchDelays::median_ns},
    {"p95_ns", &LaunchDelays::p95_ns},
    {"max_ns", &LaunchDelays::max_ns},
    {"op_to_launch_median_ns", &LaunchDelays::op_to_launch_median_ns},
}};
const std::array<SummaryField<StreamQueue>, 5> kQueueFields = {{
    {"stream", &StreamQueue::stream},
    {"max_length", &StreamQueue::max_length},
    {"mean_length", &StreamQueue::mean_length},
    {"full_ns", &StreamQueue::full_ns},
    // HTA's mean over the queue's points.
    {"point_mean_length", &StreamQueue::point_mean_length, Presence::kAddedWithinVersion},
}};

// A region's collectives (attnprof/collectives.h), a list added within version 2.
const std::array<SummaryField<CollectiveTotals>, 12> kCollectiveFields = {{
    {"name", &CollectiveTotals::name},
    {"dtype", &CollectiveTotals::dtype},
    {"group_size", &CollectiveTotals::group_size},
    {"count", &CollectiveTotals::count},
    {"gpu_ns", &CollectiveTotals::gpu_ns},
    {"sized", &CollectiveTotals::sized},
    {"bytes", &CollectiveTotals::bytes},
    {"sized_gpu_ns", &CollectiveTotals::sized_gpu_ns},
    {"algbw_gbps", &CollectiveTotals::algbw_gbps},
    {"bus_factor", &CollectiveTotals::bus_factor},
    {"busbw_gbps", &CollectiveTotals::busbw_gbps},
    {"starts_ns", &CollectiveTotals::starts_ns},
}};

// A region's collectives one by one (attnprof/collectives.h), a list added within version 2: the
// job's path across ranks matches them.
const std::array<SummaryField<CollectiveVisit>, 5> kCollectiveVisitFields = {{
    {"name", &CollectiveVisit::name},
    {"group", &CollectiveVisit::group},
    {"start_ns", &CollectiveVisit::start_ns},
    {"end_ns", &CollectiveVisit::end_ns},
    {"held_by", &CollectiveVisit::held_by},
}};

// Each region's own numbers: everything the comparison across ranks and the facts read. Its
// copies by kind ("memcpy_by_kind") and its breakdown ("breakdown") are written beside these.
const std::array<SummaryField<RegionSummary>, 12> kRegionFields = {{
    {"name", &RegionSummary::name},
    {"pid", &RegionSummary::pid},
    {"start_ns", &RegionSummary::start_ns},
    {"wall_ns", &RegionSummary::wall_ns},
    {"cpu_ns", &RegionSummary::cpu_ns},
    {"gpu_busy_ns", &RegionSummary::gpu_busy_ns},
    {"kernels", &RegionSummary::kernels},
    {"memcpy", &RegionSummary::memcpy},
    {"memset", &RegionSummary::memset},
    {"gpu_syncs", &RegionSummary::gpu_syncs},
    // The cross-rank comparison matches the n-th collective of each rank.
    {"communication_starts_ns", &RegionSummary::communication_starts_ns},
    {"held_after_collectives", &RegionSummary::held_after_collectives,
     Presence::kAddedWithinVersion},
}};

template <typename Owner, size_t N>
void write_fields(JsonWriter& w, const Owner& owner,
                  const std::array<SummaryField<Owner>, N>& fields);

// An array of objects under `key`, each written with `fields`: what read_objects reads.
template <typename Owner, size_t N>
void write_objects(JsonWriter& w, std::string_view key, const std::vector<Owner>& items,
                   const std::array<SummaryField<Owner>, N>& fields) {
  w.key(key).begin_array();
  for (const Owner& item : items) {
    w.begin_object();
    write_fields(w, item, fields);
    w.end_object();
  }
  w.end_array();
}

template <typename Owner, size_t N>
void write_fields(JsonWriter& w, const Owner& owner,
                  const std::array<SummaryField<Owner>, N>& fields) {
  for (const auto& f : fields) {
    w.key(f.key);
    std::visit(
        [&](auto member) {
          const auto& value = owner.*member;
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::string>) {
            w.string(value);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            w.begin_array();
            for (int64_t v : value) w.number(v);
            w.end_array();
          } else {
            w.number(value);
          }
        },
        f.member);
  }
}

void write_head(JsonWriter& w, const std::string& path) {
  w.key("format").string(kTraceSummaryFormat);
  w.key("version").number(kTraceSummaryVersion);
  w.key("path").string(path);
}

// --- reading ---------------------------------------------------------------------------------

using simdjson::dom::element;
using simdjson::dom::object;

// Where a value sits, for messages: "regions[3].wall_ns".
struct Reading {
  const std::string& origin;
  size_t line;
  size_t line_offset;
  std::optional<Error> error;

  void fail(std::string_view where, std::string_view what) {
    if (error) return;
    error = make_error(ErrorKind::kMalformed,
                       "{}: line {} (byte {}): not a trace summary: {} {} (write it again with "
                       "`attnprof analyze --format summary`)",
                       origin, line, line_offset, where, what);
  }
};

std::string_view type_name(const element& e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::INT64:
    case simdjson::dom::element_type::UINT64:
      return "an integer";
    case simdjson::dom::element_type::DOUBLE:
      return "a number with a fraction";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "true or false";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
  }
  return "a value";
}

// Numbers are validated on read, so that no sum or difference merge makes can wrap: a clock value
// (a region's start, the collectives' starts) lies within half of int64's range, so their
// differences fit; a launch delay, which clock skew makes negative, within +-1e15; every other
// number, a count or a duration, within [-1 (unknown), 1e15] (11.6 days in nanoseconds, a
// quadrillion events), so that a sum over thousands of traces fits too.
constexpr double kLargestCount = 1e15;
constexpr double kLargestClock = 4e18;

bool is_clock(std::string_view key) {
  return key == "start_ns" || key == "end_ns" || key == "communication_starts_ns" ||
         key == "starts_ns";
}

bool is_delay(std::string_view key) {
  return key == "median_ns" || key == "p95_ns" || key == "max_ns" ||
         key == "op_to_launch_median_ns";
}

// HTA's mean queue over its points counts a start before its launch, which skewed CPU and GPU
// clocks make (tests/data/odd/clock_skew.json: -3.5): the summary keeps it as analyze gives it.
bool is_signed_mean(std::string_view key) {
  return key == "point_mean_length";
}

bool in_range(std::string_view key, double v) {
  if (is_clock(key)) return v >= -kLargestClock && v <= kLargestClock;
  if (is_delay(key) || is_signed_mean(key)) return v >= -kLargestCount && v <= kLargestCount;
  return v >= -1 && v <= kLargestCount;
}

std::string out_of_range(std::string_view key, double v) {
  if (is_clock(key)) return fmt::format("is {}, outside +-4e18 (a clock value)", v);
  if (is_delay(key)) return fmt::format("is {}, outside +-1e15 (a delay)", v);
  if (is_signed_mean(key)) return fmt::format("is {}, outside +-1e15 (a mean queue length)", v);
  return fmt::format("is {}, outside -1 to 1e15 (a count or a duration)", v);
}

template <typename Owner, size_t N>
void read_fields(Reading& r, const object& o, std::string_view where, Owner& owner,
                 const std::array<SummaryField<Owner>, N>& fields) {
  for (const auto& f : fields) {
    const std::string at = where.empty() ? std::string(f.key) : fmt::format("{}.{}", where, f.key);
    element e;
    if (o.at_key(f.key).get(e) != simdjson::SUCCESS) {
      if (f.presence == Presence::kAddedWithinVersion) continue;
      r.fail(at, "is missing");
      return;
    }
    std::visit(
        [&](auto member) {
          auto& value = owner.*member;
          using T = std::decay_t<decltype(value)>;
          if constexpr (std::is_same_v<T, std::string>) {
            std::string_view s;
            if (e.get_string().get(s) != simdjson::SUCCESS)
              return r.fail(at, fmt::format("is {} where a string belongs", type_name(e)));
            value = std::string(s);
          } else if constexpr (std::is_same_v<T, std::vector<int64_t>>) {
            simdjson::dom::array list;
            if (e.get_array().get(list) != simdjson::SUCCESS)
              return r.fail(at,
                            fmt::format("is {} where an array of integers belongs", type_name(e)));
            value.clear();
            for (element item : list) {
              int64_t v;
              if (item.get_int64().get(v) != simdjson::SUCCESS)
                return r.fail(at,
                              fmt::format("holds {} where an integer belongs", type_name(item)));
              if (!in_range(f.key, static_cast<double>(v)))
                return r.fail(at, out_of_range(f.key, static_cast<double>(v)));
              value.push_back(v);
            }
          } else if constexpr (std::is_same_v<T, uint64_t>) {
            if (e.get_uint64().get(value) != simdjson::SUCCESS)
              return r.fail(at, fmt::format("is {} where a count belongs", type_name(e)));
            if (!in_range(f.key, static_cast<double>(value)))
              return r.fail(at, out_of_range(f.key, static_cast<double>(value)));
          } else if constexpr (std::is_same_v<T, double>) {
            if (e.get_double().get(value) != simdjson::SUCCESS || !std::isfinite(value))
              return r.fail(at, fmt::format("is {} where a number belongs", type_name(e)));
            if (!in_range(f.key, value)) return r.fail(at, out_of_range(f.key, value));
          } else {
            int64_t v;
            if (e.get_int64().get(v) != simdjson::SUCCESS || v < std::numeric_limits<T>::min() ||
                v > std::numeric_limits<T>::max())
              return r.fail(at, fmt::format("is {} where an integer belongs", type_name(e)));
            if (!in_range(f.key, static_cast<double>(v)))
              return r.fail(at, out_of_range(f.key, static_cast<double>(v)));
            value = static_cast<T>(v);
          }
        },
        f.member);
    if (r.error) return;
  }
}

// An array of objects under `key`, each read with `fields` into a new element of `out`.
template <typename Owner, size_t N>
void read_objects(Reading& r, const object& o, std::string_view key, const std::string& where,
                  std::vector<Owner>& out, const std::array<SummaryField<Owner>, N>& fields,
                  Presence presence = Presence::kRequired) {
  const std::string at = fmt::format("{}.{}", where, key);
  element e;
  simdjson::dom::array list;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) {
    if (presence == Presence::kAddedWithinVersion) return;
    return r.fail(at, "is missing");
  }
  if (e.get_array().get(list) != simdjson::SUCCESS)
    return r.fail(at, fmt::format("is {} where an array belongs", type_name(e)));
  size_t i = 0;
  for (element item : list) {
    const std::string item_at = fmt::format("{}[{}]", at, i++);
    object io;
    if (item.get_object().get(io) != simdjson::SUCCESS)
      return r.fail(item_at, fmt::format("is {} where an object belongs", type_name(item)));
    read_fields(r, io, item_at, out.emplace_back(), fields);
    if (r.error) return;
  }
}

std::optional<object> object_at(Reading& r, const object& o, std::string_view key,
                                std::string_view where) {
  element e;
  object found;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) {
    r.fail(where, "is missing");
    return std::nullopt;
  }
  if (e.get_object().get(found) != simdjson::SUCCESS) {
    r.fail(where, fmt::format("is {} where an object belongs", type_name(e)));
    return std::nullopt;
  }
  return found;
}

std::optional<simdjson::dom::array> array_at(Reading& r, const object& o, std::string_view key) {
  element e;
  simdjson::dom::array found;
  if (o.at_key(key).get(e) != simdjson::SUCCESS) {
    r.fail(key, "is missing");
    return std::nullopt;
  }
  if (e.get_array().get(found) != simdjson::SUCCESS) {
    r.fail(key, fmt::format("is {} where an array belongs", type_name(e)));
    return std::nullopt;
  }
  return found;
}

std::optional<ErrorKind> error_kind_named(std::string_view name) {
  for (ErrorKind k :
       {ErrorKind::kIo, ErrorKind::kNotATrace, ErrorKind::kMalformed, ErrorKind::kTruncated,
        ErrorKind::kLimit, ErrorKind::kUsage, ErrorKind::kUnmatched})
    if (error_kind_name(k) == name) return k;
  return std::nullopt;
}

std::optional<SummarizedTrace> read_summary(Reading& r, const object& o) {
  std::string_view format;
  if (o["format"].get_string().get(format) != simdjson::SUCCESS || format != kTraceSummaryFormat) {
    r.fail("format", fmt::format("is not \"{}\"", kTraceSummaryFormat));
    return std::nullopt;
  }
  int64_t version = 0;
  if (o["version"].get_int64().get(version) != simdjson::SUCCESS || version < 1) {
    r.fail("version", "is not a version number");
    return std::nullopt;
  }
  if (version > kTraceSummaryVersion) {
    r.error = make_error(ErrorKind::kMalformed,
                         "{}: line {} (byte {}): a trace summary of version {}, written by a later "
                         "attnprof; this one reads version {} (use the attnprof that wrote it)",
                         r.origin, r.line, r.line_offset, version, kTraceSummaryVersion);
    return std::nullopt;
  }
  std::string_view path;
  if (o["path"].get_string().get(path) != simdjson::SUCCESS) {
    r.fail("path", "is missing or not a string");
    return std::nullopt;
  }
  SummarizedTrace out{std::string(path), Error{}};

  element error;
  if (o.at_key("error").get(error) == simdjson::SUCCESS) {
    object eo;
    std::string_view kind, message;
    std::optional<ErrorKind> known;
    if (error.get_object().get(eo) != simdjson::SUCCESS ||
        eo["kind"].get_string().get(kind) != simdjson::SUCCESS ||
        !(known = error_kind_named(kind)) ||
        eo["message"].get_string().get(message) != simdjson::SUCCESS) {
      r.fail("error", "is not {\"kind\": a kind of error, \"message\": its line}");
      return std::nullopt;
    }
    out.outcome = Error{*known, std::string(message)};
    return out;
  }

  TraceAnalysis t;
  t.path = out.path;
  read_fields(r, o, "", t, kTraceFields);
  element distributed;
  if (!r.error && o.at_key("distributed").get(distributed) == simdjson::SUCCESS &&
      !distributed.is_null()) {
    if (auto d = object_at(r, o, "distributed", "distributed"))
      read_fields(r, *d, "distributed", t, kDistributedFields);
  }
  if (!r.error)
    if (auto b = object_at(r, o, "breakdown", "breakdown"))
      read_fields(r, *b, "breakdown", t.breakdown, kBreakdownFields);
  if (auto devices = r.error ? std::nullopt : array_at(r, o, "devices")) {
    size_t i = 0;
    for (element e : *devices) {
      const std::string at = fmt::format("devices[{}]", i++);
      object d;
      if (e.get_object().get(d) != simdjson::SUCCESS) {
        r.fail(at, fmt::format("is {} where an object belongs", type_name(e)));
        break;
      }
      read_fields(r, d, at, t.devices.emplace_back(), kDeviceFields);
      if (r.error) break;
    }
  }
  if (auto regions = r.error ? std::nullopt : array_at(r, o, "regions")) {
    size_t i = 0;
    for (element e : *regions) {
      const std::string at = fmt::format("regions[{}]", i++);
      object ro;
      if (e.get_object().get(ro) != simdjson::SUCCESS) {
        r.fail(at, fmt::format("is {} where an object belongs", type_name(e)));
        break;
      }
      RegionSummary& region = t.regions.emplace_back();
      read_fields(r, ro, at, region, kRegionFields);
      if (r.error) break;
      if (auto b = object_at(r, ro, "breakdown", at + ".breakdown"))
        read_fields(r, *b, at + ".breakdown", region.breakdown, kBreakdownFields);
      if (r.error) break;
      if (version >= 2) {  // version 1 summaries had no waits: they read as none
        read_objects(r, ro, "idle_by_stream", at, region.idle_by_stream, kStreamIdleFields);
        if (r.error) break;
        if (auto d = object_at(r, ro, "launch_delays", at + ".launch_delays"))
          read_fields(r, *d, at + ".launch_delays", region.launch_delays, kLaunchDelayFields);
        if (r.error) break;
        read_objects(r, ro, "queues", at, region.queues, kQueueFields);
        if (r.error) break;
        read_objects(r, ro, "collectives", at, region.collectives, kCollectiveFields,
                     Presence::kAddedWithinVersion);
        if (r.error) break;
        read_objects(r, ro, "collective_visits", at, region.collective_visits,
                     kCollectiveVisitFields, Presence::kAddedWithinVersion);
        if (r.error) break;
      }
      if (auto kinds = object_at(r, ro, "memcpy_by_kind", at + ".memcpy_by_kind")) {
        for (auto [kind, count] : *kinds) {
          int64_t n;
          if (count.get_int64().get(n) != simdjson::SUCCESS || n < 0 || n > kLargestCount) {
            r.fail(fmt::format("{}.memcpy_by_kind.{}", at, kind), "is not a count");
            break;
          }
          // The kinds are a fixed set (analysis/kernels/kernel_names.h), never a name's own text.
          if (kind != "HtoD" && kind != "DtoH" && kind != "DtoD" && kind != "HtoH" &&
              kind != "PtoP" && kind != "other") {
            r.fail(fmt::format("{}.memcpy_by_kind", at),
                   "holds a kind that is not HtoD, DtoH, DtoD, HtoH, PtoP or other");
            break;
          }
          region.memcpy_by_kind[std::string(kind)] = n;
        }
      }
      if (r.error) break;
    }
  }
  if (r.error) return std::nullopt;
  if (t.typical_region < -1 || t.typical_region >= static_cast<int>(t.regions.size())) {
    r.fail("typical_region", "is not the index of one of its regions (or -1)");
    return std::nullopt;
  }
  t.facts = facts_of_summaries(t.regions);
  t.facts.breakdown = breakdown_facts(t.regions);
  out.outcome = std::move(t);
  return out;
}

}  // namespace

std::string write_trace_summary(const TraceAnalysis& analysis) {
  JsonWriter w(JsonWriter::kCompact);
  w.begin_object();
  write_head(w, analysis.path);
  write_fields(w, analysis, kTraceFields);
  w.key("distributed");
  if (analysis.distributed_backend.empty()) {
    w.null();
  } else {
    w.begin_object();
    write_fields(w, analysis, kDistributedFields);
    w.end_object();
  }
  w.key("breakdown").begin_object();
  write_fields(w, analysis.breakdown, kBreakdownFields);
  w.end_object();
  write_objects(w, "devices", analysis.devices, kDeviceFields);
  w.key("regions").begin_array();
  for (const RegionSummary& r : analysis.regions) {
    w.begin_object();
    write_fields(w, r, kRegionFields);
    w.key("breakdown").begin_object();
    write_fields(w, r.breakdown, kBreakdownFields);
    w.end_object();
    w.key("memcpy_by_kind").begin_object();
    for (const auto& [kind, n] : r.memcpy_by_kind) w.key(kind).number(n);
    w.end_object();
    write_objects(w, "idle_by_stream", r.idle_by_stream, kStreamIdleFields);
    w.key("launch_delays").begin_object();
    write_fields(w, r.launch_delays, kLaunchDelayFields);
    w.end_object();
    write_objects(w, "queues", r.queues, kQueueFields);
    write_objects(w, "collectives", r.collectives, kCollectiveFields);
    write_objects(w, "collective_visits", r.collective_visits, kCollectiveVisitFields);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  w.text("\n");
  return w.take();
}

std::string write_trace_summary(const std::string& path, const Error& error) {
  JsonWriter w(JsonWriter::kCompact);
  w.begin_object();
  write_head(w, path);
  w.key("error").begin_object();
  w.key("kind").string(error_kind_name(error.kind));
  w.key("message").string(error.message);
  w.end_object();
  w.end_object();
  w.text("\n");
  return w.take();
}

Result<std::vector<SummarizedTrace>> read_trace_summaries(std::string_view text,
                                                          const std::string& origin) {
  std::vector<SummarizedTrace> out;
  ATTNPROF_RETURN_IF_ERROR(for_each_trace_summary(
      text, origin, [&](SummarizedTrace&& summary) { out.push_back(std::move(summary)); }));
  return out;
}

Status for_each_trace_summary(std::string_view text, const std::string& origin,
                              const std::function<void(SummarizedTrace&&)>& take) {
  size_t summaries = 0;
  simdjson::dom::parser parser;
  size_t line = 0;
  for (size_t start = 0; start < text.size();) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    std::string_view one = text.substr(start, end - start);
    const size_t offset = start;
    start = end + 1;
    if (one.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    Reading r{origin, line, offset, std::nullopt};
    element doc;
    if (auto err = parser.parse(one.data(), one.size()).get(doc); err != simdjson::SUCCESS)
      return make_error(ErrorKind::kMalformed,
                        "{}: line {} (byte {}): not JSON ({}); a trace summary is one JSON object "
                        "per line, as `attnprof analyze --format summary` writes it",
                        origin, line, offset, simdjson::error_message(err));
    object o;
    if (doc.get_object().get(o) != simdjson::SUCCESS) {
      r.fail("the line", fmt::format("is {} where a summary object belongs", type_name(doc)));
      return *r.error;
    }
    std::optional<SummarizedTrace> summary = read_summary(r, o);
    if (!summary) return *r.error;
    take(std::move(*summary));
    ++summaries;
  }
  if (summaries == 0)
    return make_error(ErrorKind::kMalformed,
                      "{}: holds no trace summary (write them with `attnprof analyze --format "
                      "summary TRACE... > FILE`)",
                      origin);
  return Status::success();
}

}  // namespace attnprof
