#include "study/run/run_summary.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <optional>
#include <sstream>
#include <string_view>

#include "io/side_file.h"
#include "study/run/run_summary_fields.h"

namespace attnprof {

namespace {

using simdjson::dom::element;
using simdjson::dom::object;

// A key of the wrong JSON type (`"variants": 5`, `"median_ms": "fast"`) was skipped as if absent:
// the helpers below note the first such key (and count the rest) while one summary.json is read,
// and read_run_summary fails with it. One reader at a time per thread.
struct SchemaProblems {
  std::string first;
  int count = 0;
};
thread_local SchemaProblems* t_problems = nullptr;

std::string_view json_type_word(const element& e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY:
      return "an array";
    case simdjson::dom::element_type::OBJECT:
      return "an object";
    case simdjson::dom::element_type::STRING:
      return "a string";
    case simdjson::dom::element_type::BOOL:
      return "a boolean";
    case simdjson::dom::element_type::NULL_VALUE:
      return "null";
    default:
      return "a number";
  }
}

// The smallest magnitude a number of a summary may have other than 0 (SummaryReader::read).
constexpr double kSmallestNumber = 1e-12;

void wrong_type(std::string_view key, const element& e, std::string_view expected) {
  if (!t_problems) return;
  if (t_problems->count++ == 0)
    t_problems->first =
        fmt::format("`{}` is {} where {} is expected", key, json_type_word(e), expected);
}

// summary.json is small (kilobytes): the DOM is the simple way to read it.
std::optional<element> field(const object& o, std::string_view key) {
  element e;
  if (o.at_key(key).get(e) != simdjson::SUCCESS || e.is_null()) return std::nullopt;
  return e;
}

std::string text(const object& o, std::string_view key) {
  std::string_view s;
  auto e = field(o, key);
  if (!e) return std::string();
  if (e->get_string().get(s) != simdjson::SUCCESS) {
    wrong_type(key, *e, "a string");
    return std::string();
  }
  return std::string(s);
}

std::optional<double> real(const object& o, std::string_view key) {
  double v;
  auto e = field(o, key);
  if (!e) return std::nullopt;
  if (e->get_double().get(v) != simdjson::SUCCESS) {
    wrong_type(key, *e, "a number");
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> integer(const object& o, std::string_view key) {
  int64_t v;
  auto e = field(o, key);
  if (!e) return std::nullopt;
  if (e->get_int64().get(v) == simdjson::SUCCESS) return v;
  double d;
  if (e->get_double().get(d) == simdjson::SUCCESS) return static_cast<int64_t>(d);
  wrong_type(key, *e, "a number");
  return std::nullopt;
}

std::optional<object> child(const object& o, std::string_view key) {
  object c;
  auto e = field(o, key);
  if (!e) return std::nullopt;
  if (e->get_object().get(c) != simdjson::SUCCESS) {
    wrong_type(key, *e, "an object");
    return std::nullopt;
  }
  return c;
}

std::optional<simdjson::dom::array> list(const object& o, std::string_view key) {
  simdjson::dom::array a;
  auto e = field(o, key);
  if (!e) return std::nullopt;
  if (e->get_array().get(a) != simdjson::SUCCESS) {
    wrong_type(key, *e, "an array");
    return std::nullopt;
  }
  return a;
}

// A median read back: summary.json keeps no min..max.
Spread median_of(const std::optional<double>& value, int64_t regions) {
  const double v = value.value_or(0);
  return Spread{v, v, v, static_cast<int>(regions)};
}

// The medians and the main kernel of a region, which render/facts_json.cpp writes from the region
// facts catalog. `regions` is read before them.
void read_region_facts(const object& o, RegionFacts& f) {
  f.kernels = median_of(real(o, "kernels"), f.regions);
  f.memcpy = median_of(real(o, "memcpy"), f.regions);
  f.memset = median_of(real(o, "memset"), f.regions);
  if (auto kinds = child(o, "memcpy_by_kind")) {
    for (auto [key, value] : *kinds) {
      double n;
      if (value.get_double().get(n) == simdjson::SUCCESS)
        f.memcpy_by_kind[std::string(key)] = median_of(n, f.regions);
    }
  }
  auto ns = [&o](std::string_view key) {
    std::optional<double> us = real(o, key);
    return us ? std::optional<double>(*us * 1e3) : std::nullopt;
  };
  f.gpu_busy_ns = median_of(ns("gpu_busy_us"), f.regions);
  f.wall_ns = median_of(ns("wall_us"), f.regions);
  f.cpu_ns = median_of(ns("cpu_us"), f.regions);
  if (std::string main = text(o, "main_kernel"); !main.empty()) {
    MainKernel k;
    k.short_name = std::move(main);
    k.duration_ns = std::llround(ns("main_kernel_us").value_or(0));
    k.launch_api = text(o, "launch_api");
    k.occupancy_pct = real(o, "occupancy_pct");
    k.occupancy_limiter = text(o, "occupancy_limiter");
    k.kineto_occupancy_pct = real(o, "kineto_occupancy_pct");
    f.main_kernel = std::move(k);
  }
}

// Reads an object through its field table (study/run/run_summary_fields.h). A key of the wrong type
// is noted (wrong_type) and read as absent; a list's items of the wrong type are skipped.
class SummaryReader {
 public:
  SummaryReader(const object& o, uint32_t& additions) : object_(o), additions_(additions) {}

  template <typename Value>
  void operator()(std::string_view key, Value& value, const FieldOptions& o = {}) {
    note_addition(key, o);
    if (auto e = field(object_, key)) read(key, *e, value, o);
  }

  template <typename Body>
  void group(std::string_view key, bool /*present*/, Body body, const FieldOptions& o = {}) {
    bool present = false;
    flagged_group(key, present, body, o);
  }
  template <typename Body>
  void flagged_group(std::string_view key, bool& flag, Body body, const FieldOptions& o = {}) {
    note_addition(key, o);
    auto c = child(object_, key);
    if (!c) return;
    flag = true;
    const object outer = object_;
    object_ = *c;
    body();
    object_ = outer;
  }

  void word(std::string_view key, bool& flag, std::string_view if_true, std::string_view,
            bool /*present*/, const FieldOptions& o = {}) {
    note_addition(key, o);
    flag = text(object_, key) == if_true;
  }

  void derived(std::string_view, const std::optional<double>&) {}

  void region_facts(RegionFacts& facts) { read_region_facts(object_, facts); }

  void actual_values(std::string_view key, std::vector<ActualValue>& values) {
    auto c = child(object_, key);
    if (!c) return;
    for (auto [metric, e] : *c) {
      ActualValue v;
      v.metric = std::string(metric);
      double n;
      std::string_view s;
      if (e.get_double().get(n) == simdjson::SUCCESS) {
        v.available = true;
        v.number = n;
      } else if (e.get_string().get(s) == simdjson::SUCCESS) {
        v.available = true;
        v.text = std::string(s);
      }
      values.push_back(std::move(v));
    }
  }

 private:
  void note_addition(std::string_view key, const FieldOptions& o) {
    element e;
    if (o.addition && object_.at_key(key).get(e) == simdjson::SUCCESS)
      additions_ |= addition_bit(*o.addition);
  }

  // One value; false where it has the wrong type (noted when `key` is not empty: the items of
  // a list of lists are skipped silently).
  bool read(std::string_view key, element e, double& out, const FieldOptions& o) {
    double v;
    if (e.get_double().get(v) != simdjson::SUCCESS) return mistyped(key, e, "a number");
    if (o.least > 0 && !(v >= o.least)) {
      if (t_problems && t_problems->count++ == 0)
        t_problems->first =
            fmt::format("`{}` is {}, below the least real rate {}", key, v, o.least);
      return false;
    }
    // A number other than 0 is at least kSmallestNumber in magnitude: a rate divides by a time,
    // and a counter duration of 1e-300 ns made an infinite TFLOP/s.
    if (v != 0 && std::abs(v) < kSmallestNumber) {
      if (t_problems && t_problems->count++ == 0)
        t_problems->first = fmt::format("`{}` is {}, where a number other than 0 is at least {}",
                                        key, v, kSmallestNumber);
      return false;
    }
    out = o.scale == 1 ? v : v * o.scale;
    return true;
  }
  bool read(std::string_view key, element e, int64_t& out, const FieldOptions&) {
    int64_t v;
    double d;
    if (e.get_int64().get(v) == simdjson::SUCCESS)
      out = v;
    else if (e.get_double().get(d) == simdjson::SUCCESS)
      out = static_cast<int64_t>(d);
    else
      return mistyped(key, e, "a number");
    return true;
  }
  bool read(std::string_view key, element e, int& out, const FieldOptions& o) {
    int64_t v = 0;
    if (!read(key, e, v, o)) return false;
    out = static_cast<int>(v);
    return true;
  }
  bool read(std::string_view key, element e, bool& out, const FieldOptions&) {
    if (e.get_bool().get(out) != simdjson::SUCCESS) return mistyped(key, e, "a boolean");
    return true;
  }
  bool read(std::string_view key, element e, std::string& out, const FieldOptions&) {
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) return mistyped(key, e, "a string");
    out = std::string(s);
    return true;
  }
  // An enum: one of the words of its names table (enum_names).
  template <typename E>
  requires std::is_enum_v<E>
  bool read(std::string_view key, element e, E& out, const FieldOptions&) {
    std::string_view s;
    if (e.get_string().get(s) != simdjson::SUCCESS) return mistyped(key, e, "a string");
    const auto& names = enum_names(E{});
    if (const std::optional<E> value = parse_name_in(names, s)) {
      out = *value;
      return true;
    }
    if (t_problems && t_problems->count++ == 0) {
      std::string words;
      for (const auto& [value, name] : names)
        words += fmt::format("{}{}", words.empty() ? "" : ", ", name);
      t_problems->first = fmt::format("`{}` is \"{}\", not one of {}", key, s, words);
    }
    return false;
  }
  template <typename T>
  bool read(std::string_view key, element e, std::optional<T>& out, const FieldOptions& o) {
    T v{};
    if (!read(key, e, v, o)) return false;
    out = std::move(v);
    return true;
  }
  template <typename T>
  bool read(std::string_view key, element e, std::vector<T>& out, const FieldOptions& o) {
    simdjson::dom::array items;
    if (e.get_array().get(items) != simdjson::SUCCESS) return mistyped(key, e, "an array");
    size_t index = 0;
    for (element item : items) {
      T v{};
      // An element of the wrong type is a problem of the file, named by its place
      // (`points[0].variants[2]`), never skipped as if absent.
      const std::string place = key.empty() ? std::string() : fmt::format("{}[{}]", key, index);
      ++index;
      if (!item.is_null() && read(place, item, v, o)) out.push_back(std::move(v));
    }
    return true;
  }
  // A nested object: its own table.
  template <typename T>
  bool read(std::string_view key, element e, T& out, const FieldOptions&) {
    object o;
    if (e.get_object().get(o) != simdjson::SUCCESS) return mistyped(key, e, "an object");
    SummaryReader nested(o, additions_);
    summary_fields(nested, out);
    settle(o, out);
    return true;
  }

  bool mistyped(std::string_view key, const element& e, std::string_view expected) {
    if (!key.empty()) wrong_type(key, e, expected);
    return false;
  }

  // What an object's table cannot say alone: a problem of a file written before GQA, decode and
  // windows has the heads for its K/V heads and the seq for its queries.
  template <typename T>
  static void settle(const object&, T&) {}
  static void settle(const object& o, RunProblem& p) {
    if (!field(o, "kv_heads")) p.kv_heads = p.heads;
    if (!field(o, "q_seq")) p.q_seq = p.seq;
  }

  object object_;
  uint32_t& additions_;
};

// Splits one CSV record (RFC 4180 quoting; the bench never writes a newline inside a field).
std::vector<std::string> csv_fields(std::string_view line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        fields.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        fields.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      fields.emplace_back();
    } else if (c != '\r') {
      fields.back() += c;
    }
  }
  return fields;
}

template <typename T>
std::optional<T> parse_number(const std::string& s) {
  T v{};
  auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || error != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

// Every number of a summary must lie within +-1e18, inside int64's range: a bigger one (1e300)
// would wrap to INT64_MIN when read as an integer (docs/SECURITY.md). Real summaries hold nothing
// near.
constexpr double kLargestNumber = 1e18;

// The first number out of range, as "its key path: its value"; empty when there is none.
std::string number_out_of_range(element e, const std::string& where) {
  switch (e.type()) {
    case simdjson::dom::element_type::OBJECT:
      for (auto [key, value] : object(e)) {
        std::string found = number_out_of_range(value, where + "." + std::string(key));
        if (!found.empty()) return found;
      }
      return {};
    case simdjson::dom::element_type::ARRAY: {
      size_t i = 0;
      for (element value : simdjson::dom::array(e)) {
        std::string found = number_out_of_range(value, fmt::format("{}[{}]", where, i++));
        if (!found.empty()) return found;
      }
      return {};
    }
    case simdjson::dom::element_type::UINT64:
      if (uint64_t(e) > uint64_t(kLargestNumber)) return fmt::format("{}: {}", where, uint64_t(e));
      return {};
    case simdjson::dom::element_type::INT64:
      if (std::abs(double(int64_t(e))) > kLargestNumber)
        return fmt::format("{}: {}", where, int64_t(e));
      return {};
    case simdjson::dom::element_type::DOUBLE:
      if (!(std::abs(double(e)) <= kLargestNumber)) return fmt::format("{}: {}", where, double(e));
      return {};
    default:
      return {};
  }
}

// A trace named by a summary must lie inside the run's folder: not absolute, no `..`
// (docs/SECURITY.md:
// `../../etc/passwd` was opened and quoted in the page).
bool leaves_its_folder(const std::string& file) {
  if (file.empty()) return false;
  if (file.front() == '/') return true;
  size_t start = 0;
  for (;;) {
    const size_t slash = file.find('/', start);
    if (file.compare(start, slash == std::string::npos ? std::string::npos : slash - start, "..") ==
        0)
      return true;
    if (slash == std::string::npos) return false;
    start = slash + 1;
  }
}

// The fields of a summary.json whose top level is `top` (read_run_summary checks the rest).
Result<RunSummary> read_fields(const std::string& path, const object& top);

}  // namespace

std::string variant_label(const RunVariant& v) {
  return v.chosen_backend.empty() ? v.variant : v.variant + " (" + v.chosen_backend + ")";
}

namespace {

// Visits every value under `v`, as a reader that reads the whole document would: the on-demand
// parser stops at the first token that is out of place.
simdjson::error_code visit_all(simdjson::ondemand::value v) {
  simdjson::ondemand::json_type type;
  if (auto error = v.type().get(type)) return error;
  switch (type) {
    case simdjson::ondemand::json_type::object: {
      simdjson::ondemand::object object;
      if (auto error = v.get_object().get(object)) return error;
      for (auto field : object) {
        simdjson::ondemand::value inner;
        if (auto error = field.value().get(inner)) return error;
        if (auto error = visit_all(inner)) return error;
      }
      return simdjson::SUCCESS;
    }
    case simdjson::ondemand::json_type::array: {
      simdjson::ondemand::array array;
      if (auto error = v.get_array().get(array)) return error;
      for (auto element : array) {
        simdjson::ondemand::value inner;
        if (auto error = element.get(inner)) return error;
        if (auto error = visit_all(inner)) return error;
      }
      return simdjson::SUCCESS;
    }
    case simdjson::ondemand::json_type::string:
      return v.get_string().error();
    case simdjson::ondemand::json_type::number:
      return v.get_number().error();
    case simdjson::ondemand::json_type::boolean:
      return v.get_bool().error();
    case simdjson::ondemand::json_type::null:
      return v.is_null().error();
  }
  return simdjson::SUCCESS;
}

// Where a document that the DOM parser refused goes wrong. A document cut short (a bench killed
// while writing, a partial copy) ends inside a string or with brackets open, which deserves its
// own words rather than the parser's "improper structure"; a closing bracket with nothing open is
// its own byte. Otherwise the DOM parser says what is wrong but not where, so the on-demand parser
// walks the document again and tells the byte it stopped at. Nothing when it cannot tell (an
// error found before any token is read, such as bytes that are not UTF-8).
struct JsonFault {
  uint64_t offset = 0;
  bool ends_early = false;
};

std::optional<JsonFault> bracket_fault(std::string_view json) {
  uint64_t depth = 0;
  bool in_string = false, escaped = false;
  for (size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (in_string) {
      if (escaped)
        escaped = false;
      else if (c == '\\')
        escaped = true;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      ++depth;
    } else if (c == ']' || c == '}') {
      if (depth == 0) return JsonFault{i, false};
      --depth;
    }
  }
  if (in_string || depth > 0) return JsonFault{json.size(), true};
  return std::nullopt;
}

std::optional<JsonFault> malformed_json_fault(const simdjson::padded_string& json) {
  if (std::optional<JsonFault> fault = bracket_fault(json)) return fault;
  simdjson::ondemand::parser parser;
  simdjson::ondemand::document doc;
  if (parser.iterate(json).get(doc)) return std::nullopt;
  simdjson::ondemand::value top;
  simdjson::error_code error = doc.get_value().get(top);
  if (!error) error = visit_all(top);
  // Where the walk found no fault, the value was whole and what follows it is the fault; past
  // the document's end there is no location.
  const char* at = nullptr;
  if (doc.current_location().get(at)) return std::nullopt;
  return JsonFault{static_cast<uint64_t>(at - json.data()), false};
}

// The entries of a summary.json's lists, counted on the parsed document before any is read
// into the model, whose entries cost far more memory than their JSON (Limits::max_variants).
struct ListCounts {
  uint64_t variants = 0, expectations = 0, items = 0;
};

void count_lists(const element& e, std::string_view key, ListCounts& counts) {
  simdjson::dom::array items;
  if (e.get_array().get(items) == simdjson::SUCCESS) {
    const uint64_t n = items.size();
    counts.items += n;
    if (key == "variants") counts.variants += n;
    if (key == "expectations") counts.expectations += n;
    for (element item : items) count_lists(item, {}, counts);
    return;
  }
  object o;
  if (e.get_object().get(o) != simdjson::SUCCESS) return;
  for (auto [inner_key, value] : o) count_lists(value, inner_key, counts);
}

// The first count past its limit, as the error's words; empty when all are within.
std::string list_over_limit(const ListCounts& counts, const Limits& limits) {
  const auto over = [](uint64_t n, uint64_t limit, std::string_view what, std::string_view flag) {
    return n > limit ? fmt::format(
                           "{} {}, more than {} allows ({}): not a bench run's summary (a "
                           "run holds tens); raise {} if it is one",
                           n, what, flag, limit, flag)
                     : std::string();
  };
  if (std::string s = over(counts.variants, limits.max_variants, "variants", "--max-variants");
      !s.empty())
    return s;
  if (std::string s = over(counts.expectations, limits.max_expectations, "expectation results",
                           "--max-expectations");
      !s.empty())
    return s;
  return over(counts.items, limits.max_side_file_items, "list items in all",
              "--max-side-file-items");
}

}  // namespace

Result<RunSummary> read_run_summary(const std::string& path, const Limits& limits) {
  Result<std::string> bytes = read_side_file(path, limits.max_side_file_bytes, "bench summary");
  if (!bytes) return bytes.take_error();
  const simdjson::padded_string json(*bytes);
  simdjson::dom::parser parser;
  element doc;
  if (auto error = parser.parse(json).get(doc); error != simdjson::SUCCESS) {
    if (const std::optional<JsonFault> fault = malformed_json_fault(json)) {
      if (fault->ends_early)
        return make_error(ErrorKind::kTruncated,
                          "{}: the JSON ends early (after {} bytes): the file is truncated; run "
                          "the bench again to write it whole",
                          path, fault->offset);
      return make_error(ErrorKind::kMalformed, "{}: not valid JSON at byte {} ({})", path,
                        fault->offset, simdjson::error_message(error));
    }
    return make_error(ErrorKind::kMalformed, "{}: not valid JSON ({})", path,
                      simdjson::error_message(error));
  }
  object top;
  if (doc.get_object().get(top) != simdjson::SUCCESS)
    return make_error(ErrorKind::kMalformed,
                      "{}: not a bench summary (the top level is not an object)", path);
  if (std::string bad = number_out_of_range(doc, "$"); !bad.empty())
    return make_error(ErrorKind::kMalformed,
                      "{}: number out of range at {}: a bench summary's numbers lie within +-1e18",
                      path, bad);
  ListCounts counts;
  count_lists(doc, {}, counts);
  if (std::string over = list_over_limit(counts, limits); !over.empty())
    return make_error(ErrorKind::kLimit, "{}: {}", path, over);
  SchemaProblems problems;
  t_problems = &problems;
  Result<RunSummary> read = read_fields(path, top);
  t_problems = nullptr;
  if (!read.ok() || problems.count == 0) return read;
  return make_error(
      ErrorKind::kMalformed, "{}: not a bench summary as docs/json-schema.md says: {}{}", path,
      problems.first, problems.count > 1 ? fmt::format(" (and {} more)", problems.count - 1) : "");
}

namespace {

Result<RunSummary> read_fields(const std::string& path, const object& top) {
  RunSummary s;
  s.path = path;
  s.schema_version = integer(top, "schemaVersion").value_or(0);
  if (s.schema_version == 1) {
    return make_error(
        ErrorKind::kMalformed,
        "{}: a bench summary of schemaVersion 1 (camelCase keys); convert it to version 2 with "
        "tools/summary_json_v2.py",
        path);
  }
  if (s.schema_version != kRunSummarySchemaVersion) {
    return make_error(ErrorKind::kMalformed,
                      "{}: not a bench summary of schemaVersion {} (found {})", path,
                      kRunSummarySchemaVersion, s.schema_version);
  }
  if (!list(top, "points"))
    return make_error(ErrorKind::kMalformed, "{}: not a bench summary (no `points`)", path);
  s.additions = 0;
  SummaryReader reader(top, s.additions);
  summary_fields(reader, s);
  if (s.points.empty())
    return make_error(ErrorKind::kMalformed,
                      "{}: a bench summary with no points (`points` is empty): nothing was "
                      "measured; record the run again",
                      path);
  for (const RunPoint& point : s.points)
    for (const RunVariant& v : point.variants)
      if (leaves_its_folder(v.trace_file))
        return make_error(
            ErrorKind::kMalformed,
            "{}: variant {} names the trace '{}', outside the run's folder: refused; a bench "
            "summary names its traces relative to its folder",
            path, v.variant, v.trace_file);
  return s;
}

}  // namespace

int64_t sweep_size(const RunProblem& p, SweepKey key) {
  switch (key) {
    case SweepKey::kSeq:
      return p.seq;
    case SweepKey::kHeadDim:
      return p.head_dim;
    case SweepKey::kBatch:
      return p.batch;
    case SweepKey::kHeads:
      return p.heads;
    case SweepKey::kKvHeads:
      return p.kv_heads;
    case SweepKey::kQSeq:
      return p.q_seq;
    case SweepKey::kWindow:
      return p.window;
  }
  return p.seq;
}

std::vector<SweepRow> sweep_rows(const RunSummary& summary) {
  std::vector<SweepRow> rows;
  for (const RunPoint& point : summary.points) {
    for (const RunVariant& v : point.variants)
      rows.push_back({point.problem, v.variant, v.median_ms, v.peak_allocated_bytes});
  }
  return rows;
}

Result<std::vector<SweepRow>> read_sweep_csv(const std::string& path, uint64_t max_bytes) {
  Result<std::string> bytes = read_side_file(path, max_bytes, "sweep table");
  if (!bytes) return bytes.take_error();
  std::istringstream in(std::move(*bytes));
  std::string line;
  if (!std::getline(in, line))
    return make_error(ErrorKind::kMalformed, "{}: empty, expected a header line", path);
  std::vector<std::string> header = csv_fields(line);
  auto column = [&](std::string_view name) -> int {
    for (size_t i = 0; i < header.size(); ++i)
      if (header[i] == name) return static_cast<int>(i);
    return -1;
  };
  const int batch = column("batch"), heads = column("heads"), seq = column("seq"),
            head_dim = column("head_dim"), dtype = column("dtype"), mask = column("mask"),
            backward = column("backward"), device = column("device"), variant = column("variant"),
            median = column("gpu_median_ms"), peak = column("peak_allocated_bytes"),
            kv_heads = column("kv_heads"), q_seq = column("q_seq"), window = column("window");
  for (auto [index, name] : {std::pair{seq, "seq"},
                             {variant, "variant"},
                             {median, "gpu_median_ms"},
                             {peak, "peak_allocated_bytes"}}) {
    if (index < 0)
      return make_error(ErrorKind::kMalformed, "{}: line 1: no `{}` column, not a bench sweep.csv",
                        path, name);
  }
  std::vector<SweepRow> rows;
  int line_number = 1;
  while (std::getline(in, line)) {
    ++line_number;
    if (line.empty() || line == "\r") continue;
    std::vector<std::string> f = csv_fields(line);
    if (f.size() != header.size()) {
      return make_error(ErrorKind::kMalformed, "{}: line {}: {} fields where the header has {}",
                        path, line_number, f.size(), header.size());
    }
    auto at = [&](int index) { return index < 0 ? std::string() : f[index]; };
    SweepRow row;
    row.problem.batch = parse_number<int64_t>(at(batch)).value_or(0);
    row.problem.heads = parse_number<int64_t>(at(heads)).value_or(0);
    row.problem.head_dim = parse_number<int64_t>(at(head_dim)).value_or(0);
    row.problem.dtype = at(dtype);
    // Absent (older files): the bench's default, causal.
    if (mask >= 0) {
      const std::optional<RunMask> m = parse_name_in(kRunMaskNames, at(mask));
      if (!m)
        return make_error(ErrorKind::kMalformed,
                          "{}: line {}: mask `{}` is not one of causal, none, explicit", path,
                          line_number, at(mask));
      row.problem.mask = *m;
    }
    row.problem.backward = at(backward) == "1";
    row.problem.device = at(device);
    auto seq_value = parse_number<int64_t>(at(seq));
    if (!seq_value)
      return make_error(ErrorKind::kMalformed, "{}: line {}: seq `{}` is not a number", path,
                        line_number, at(seq));
    row.problem.seq = *seq_value;
    // Absent (older files): the defaults, as in read_problem.
    row.problem.kv_heads = parse_number<int64_t>(at(kv_heads)).value_or(row.problem.heads);
    row.problem.q_seq = parse_number<int64_t>(at(q_seq)).value_or(row.problem.seq);
    row.problem.window = parse_number<int64_t>(at(window)).value_or(0);
    row.variant = at(variant);
    row.median_ms = parse_number<double>(at(median));
    if (auto bytes = parse_number<double>(at(peak))) {
      if (!(std::abs(*bytes) <= kLargestNumber))
        return make_error(ErrorKind::kMalformed,
                          "{}: line {}: peak_allocated_bytes `{}` is out of range", path,
                          line_number, at(peak));
      row.peak_allocated_bytes = static_cast<int64_t>(*bytes);
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace attnprof
