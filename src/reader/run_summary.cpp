#include "reader/run_summary.h"

#include <simdjson.h>

#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>

#include "io/side_file.h"
#include "reader/run_summary_fields.h"

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

// The least rates a GPU's memory and arithmetic can have: a megabyte and a mega-FLOP a second.
constexpr double kLeastBytesPerSecond = 1e6;
constexpr double kLeastFlopPerSecond = 1e6;

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

// A rate the roofline divides by (bytes or FLOP per second, TFLOP/s): zero or a tiny one made
// "inf %" and points far off the chart. Nothing measured is below `least`.
std::optional<double> rate(const object& o, std::string_view key, double least) {
  std::optional<double> v = real(o, key);
  if (v && !(*v >= least)) {
    if (t_problems && t_problems->count++ == 0)
      t_problems->first = fmt::format("`{}` is {}, below the least real rate {}", key, *v, least);
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

// The keys render/facts_json.cpp writes.
RunRegionFacts read_region(const object& o) {
  RunRegionFacts r;
  RegionFacts& f = r.facts;
  f.regions = integer(o, "regions").value_or(0);
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
  if (auto findings = list(o, "findings")) {
    for (element e : *findings) {
      object fo;
      if (e.get_object().get(fo) != simdjson::SUCCESS) continue;
      r.findings.push_back({text(fo, "id"), text(fo, "summary"), text(fo, "suggestion")});
    }
  }
  return r;
}

// The keys render/counters_json.cpp writes.
KernelCounters read_kernel_counters(const object& o) {
  KernelCounters k;
  k.name = text(o, "name");
  k.grid = text(o, "grid");
  k.block = text(o, "block");
  k.duration_ns = real(o, "duration_ns");
  k.achieved_occupancy_pct = real(o, "achieved_occupancy_pct");
  k.theoretical_occupancy_pct = real(o, "theoretical_occupancy_pct");
  k.tensor_pipe_pct = real(o, "tensor_pipe_pct");
  k.fp32_pipe_pct = real(o, "fp32_pipe_pct");
  k.dram_read_bytes = real(o, "dram_read_bytes");
  k.dram_write_bytes = real(o, "dram_write_bytes");
  k.dram_throughput_pct = real(o, "dram_throughput_pct");
  k.l2_hit_rate_pct = real(o, "l2_hit_rate_pct");
  k.sm_throughput_pct = real(o, "sm_throughput_pct");
  k.sm_clock_hz = real(o, "sm_clock_hz");
  k.tensor_flop = real(o, "tensor_flop");
  k.fp32_flop = real(o, "fp32_flop");
  return k;
}

CounterTotals read_counter_totals(const object& o) {
  CounterTotals t;
  t.kernels = static_cast<int>(integer(o, "kernels").value_or(0));
  t.duration_ns = real(o, "duration_ns").value_or(0);
  t.dram_read_bytes = real(o, "dram_read_bytes");
  t.dram_write_bytes = real(o, "dram_write_bytes");
  t.tensor_flop = real(o, "tensor_flop");
  t.fp32_flop = real(o, "fp32_flop");
  t.achieved_occupancy_pct = real(o, "achieved_occupancy_pct");
  t.tensor_pipe_pct = real(o, "tensor_pipe_pct");
  t.fp32_pipe_pct = real(o, "fp32_pipe_pct");
  t.dram_throughput_pct = real(o, "dram_throughput_pct");
  t.l2_hit_rate_pct = real(o, "l2_hit_rate_pct");
  t.sm_throughput_pct = real(o, "sm_throughput_pct");
  return t;
}

void read_variant_counters(const object& o, RunVariant& v) {
  v.counters_error = text(o, "error");
  if (auto total = child(o, "total")) v.counters = read_counter_totals(*total);
  if (auto kernels = list(o, "kernels")) {
    for (element e : *kernels) {
      object ko;
      if (e.get_object().get(ko) == simdjson::SUCCESS)
        v.kernel_counters.push_back(read_kernel_counters(ko));
    }
  }
  v.intensity = real(o, "intensity_flop_per_byte");
  v.percent_of_roof = real(o, "percent_of_roof");
}

RunCounters read_run_counters(const object& o) {
  RunCounters c;
  c.tool = text(o, "tool");
  c.unavailable = text(o, "unavailable");
  c.seconds = real(o, "seconds").value_or(0);
  if (auto copy = child(o, "copy")) {
    c.bandwidth_bytes_per_s = rate(*copy, "bandwidth_bytes_per_s", kLeastBytesPerSecond);
    c.datasheet_bandwidth_bytes_per_s =
        rate(*copy, "datasheet_bandwidth_bytes_per_s", kLeastBytesPerSecond);
  }
  if (auto roofs = list(o, "roofs")) {
    for (element e : *roofs) {
      object ro;
      if (e.get_object().get(ro) != simdjson::SUCCESS) continue;
      if (auto flop = rate(ro, "flop_per_s", kLeastFlopPerSecond))
        c.roofs.push_back({text(ro, "name"), *flop});
    }
  }
  return c;
}

RunFromTrace read_from_trace(const object& o) {
  RunFromTrace t;
  t.trace = text(o, "trace");
  t.region = text(o, "region");
  t.regions = integer(o, "regions").value_or(0);
  t.region_gpu_ns = real(o, "region_gpu_ms").value_or(0) * 1e6;
  if (auto calls = list(o, "calls")) {
    for (element e : *calls) {
      object co;
      if (e.get_object().get(co) != simdjson::SUCCESS) continue;
      RunTraceCall c;
      c.point = static_cast<int>(integer(co, "point").value_or(-1));
      c.calls = integer(co, "calls").value_or(0);
      c.trace_ns = real(co, "trace_ms").value_or(0) * 1e6;
      c.backend = text(co, "backend");
      c.op = text(co, "op");
      c.assumed = text(co, "assumed");
      if (c.point >= 0) t.calls.push_back(std::move(c));
    }
  }
  if (auto skipped = list(o, "skipped")) {
    for (element e : *skipped) {
      std::string_view line;
      if (e.get_string().get(line) == simdjson::SUCCESS) t.skipped.emplace_back(line);
    }
  }
  return t;
}

RunVariant read_variant(const object& o) {
  RunVariant v;
  v.variant = text(o, "variant");
  v.status = text(o, "status");
  v.reason = text(o, "reason");
  v.chosen_backend = text(o, "chosen_backend");
  if (auto c = child(o, "correctness")) {
    v.output_error = real(*c, "output_error");
    v.grad_error = real(*c, "grad_error");
  }
  if (auto t = child(o, "timing")) v.median_ms = real(*t, "median_ms");
  v.tflops = real(o, "tflops");
  v.percent_of_peak = real(o, "percent_of_peak");
  v.kv_gbps = real(o, "kv_gbps");
  v.percent_of_hbm = real(o, "percent_of_hbm");
  v.peak_allocated_bytes = integer(o, "peak_allocated_bytes");
  if (auto t = child(o, "trace")) {
    v.trace_file = text(*t, "file");
    v.trace_error = text(*t, "error");
    if (auto f = child(*t, "forward")) v.forward = read_region(*f);
    if (auto b = child(*t, "backward")) v.backward = read_region(*b);
  }
  if (auto c = child(o, "counters")) read_variant_counters(*c, v);
  return v;
}

// Reads the fields of one table into `out`; an absent field keeps its default.
template <typename Owner, size_t N>
void read_fields(const object& o, const std::array<SummaryField<Owner>, N>& fields, Owner& out) {
  for (const SummaryField<Owner>& f : fields) {
    switch (f.type) {
      case SummaryType::kInteger:
        if (auto v = integer(o, f.key)) out.*f.integer = *v;
        break;
      case SummaryType::kText:
        out.*f.text = text(o, f.key);
        break;
      case SummaryType::kBoolean:
        if (auto e = field(o, f.key)) {
          bool v = false;
          if (e->get_bool().get(v) == simdjson::SUCCESS)
            out.*f.boolean = v;
          else
            wrong_type(f.key, *e, "a boolean");
        }
        break;
    }
  }
}

RunProblem read_problem(const object& o) {
  RunProblem p;
  read_fields(o, kProblemFields, p);
  // Absent (files written before these options): as kProblemFields says.
  if (!field(o, "kv_heads")) p.kv_heads = p.heads;
  if (!field(o, "q_seq")) p.q_seq = p.seq;
  return p;
}

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

Result<RunSummary> read_run_summary(const std::string& path, uint64_t max_bytes) {
  Result<std::string> bytes = read_side_file(path, max_bytes, "bench summary");
  if (!bytes) return bytes.take_error();
  simdjson::dom::parser parser;
  element doc;
  if (auto error = parser.parse(simdjson::padded_string(*bytes)).get(doc);
      error != simdjson::SUCCESS)
    return make_error(ErrorKind::kMalformed, "{}: not valid JSON ({})", path,
                      simdjson::error_message(error));
  object top;
  if (doc.get_object().get(top) != simdjson::SUCCESS)
    return make_error(ErrorKind::kMalformed,
                      "{}: not a bench summary (the top level is not an object)", path);
  if (std::string bad = number_out_of_range(doc, "$"); !bad.empty())
    return make_error(ErrorKind::kMalformed,
                      "{}: number out of range at {}: a bench summary's numbers lie within +-1e18",
                      path, bad);
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
  if (auto env = child(top, "environment")) read_fields(*env, kEnvironmentFields, s);
  if (auto methods = list(top, "methods")) {
    for (element e : *methods) {
      std::string_view note;
      if (e.get_string().get(note) == simdjson::SUCCESS) s.methods.emplace_back(note);
    }
  }
  if (auto axes = list(top, "sweep")) {
    for (element e : *axes) {
      object axis;
      if (e.get_object().get(axis) != simdjson::SUCCESS) continue;
      auto& values = s.sweep[text(axis, "key")];
      if (auto items = list(axis, "values")) {
        for (element v : *items) {
          int64_t n;
          if (v.get_int64().get(n) == simdjson::SUCCESS) values.push_back(n);
        }
      }
    }
  }
  if (auto counters = child(top, "counters")) s.counters = read_run_counters(*counters);
  if (auto from_trace = child(top, "from_trace")) s.from_trace = read_from_trace(*from_trace);
  auto points = list(top, "points");
  if (!points)
    return make_error(ErrorKind::kMalformed, "{}: not a bench summary (no `points`)", path);
  for (element e : *points) {
    object po;
    if (e.get_object().get(po) != simdjson::SUCCESS) continue;
    RunPoint point;
    if (auto problem = child(po, "problem")) point.problem = read_problem(*problem);
    point.flops_per_call = real(po, "flops_per_call").value_or(0);
    if (auto peak = child(po, "peak")) {
      point.peak_tflops = rate(*peak, "tflops", kLeastFlopPerSecond / 1e12);
      point.peak_precision = text(*peak, "precision");
    }
    if (auto bytes = child(po, "bytes_per_call")) {
      point.minimal_bytes_per_call = real(*bytes, "minimal");
      point.kv_bytes_per_call = real(*bytes, "kv");
    }
    point.intensity_flop_per_byte = real(po, "intensity_flop_per_byte");
    if (auto hbm = child(po, "hbm")) {
      point.hbm_bytes_per_s = rate(*hbm, "bytes_per_s", kLeastBytesPerSecond);
      point.hbm_source = text(*hbm, "source");
    }
    point.ridge_flop_per_byte = real(po, "ridge_flop_per_byte");
    point.memory_bound = text(po, "bound") == "memory";
    if (auto variants = list(po, "variants")) {
      for (element v : *variants) {
        object vo;
        if (v.get_object().get(vo) == simdjson::SUCCESS) point.variants.push_back(read_variant(vo));
      }
    }
    s.points.push_back(std::move(point));
  }
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

std::vector<SweepRow> sweep_rows(const RunSummary& summary) {
  std::vector<SweepRow> rows;
  for (const RunPoint& point : summary.points) {
    for (const RunVariant& v : point.variants)
      rows.push_back({point.problem, v.variant, v.status, v.median_ms, v.peak_allocated_bytes});
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
            status = column("status"), median = column("gpu_median_ms"),
            peak = column("peak_allocated_bytes"), kv_heads = column("kv_heads"),
            q_seq = column("q_seq"), window = column("window");
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
    row.problem.mask = at(mask);
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
    row.status = at(status);
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
