// The C++ half of the Python module (`import attnprof`, python/attnprof/__init__.py): the core's
// reader and analyses, returning plain columns (numpy arrays: of numbers, and of str objects for
// text) that the Python half turns into pandas DataFrames. The GIL is released while traces are
// read, so other Python threads run meanwhile.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <cmath>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "attnprof/trace_summary.h"
#include "command_bindings.h"
#include "pipeline/analyze_run.h"
#include "pipeline/merge_run.h"
#include "pipeline/table_catalogs.h"
#include "pipeline/trace_inputs.h"

namespace py = pybind11;

namespace attnprof::python {

namespace {

// Text from a trace or a file name as Python's str: bytes that are not UTF-8 (a Linux file name
// may hold any) decode as os.fsdecode decodes them (surrogateescape), so that one such name is
// its own row, never a UnicodeDecodeError for the whole call.
py::str python_text(std::string_view text) {
  PyObject* decoded =
      PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "surrogateescape");
  if (!decoded) throw py::error_already_set();
  return py::reinterpret_steal<py::str>(decoded);
}

// One column of numbers, filled row by row, handed to Python as a numpy array.
template <typename T>
class Column {
 public:
  void push(T v) { values_.push_back(v); }
  void append(const Column& other) {
    values_.insert(values_.end(), other.values_.begin(), other.values_.end());
  }
  py::object to_python() const {
    py::array_t<T> out(static_cast<py::ssize_t>(values_.size()));
    std::copy(values_.begin(), values_.end(), out.mutable_data());
    return out;
  }

 private:
  std::vector<T> values_;
};

// One column of text, filled without Python (with the GIL released): each distinct value is kept
// once and each row holds its index. It reaches Python as a numpy array of str objects, one per
// value and shared by its rows (a trace repeats each kernel, region and op chain thousands of
// times), which pandas takes as its object column without copying or inspecting it (from a
// list, it would convert: 30 ms of the 200 MB trace's first read).
class TextColumn {
 public:
  void push(std::string_view v) {
    // Rows come region by region, so a column often repeats the row before it (the region, the
    // trace, the launch API): one compare instead of hashing a 100-character kernel name.
    if (!rows_.empty() && v == values_[rows_.back()]) {
      rows_.push_back(rows_.back());
      return;
    }
    auto [it, added] = index_.try_emplace(std::string(v), uint32_t(values_.size()));
    if (added) values_.push_back(it->first);
    rows_.push_back(it->second);
  }
  // Appends `other`'s rows (another trace's), its values merged into these.
  void append(const TextColumn& other) {
    std::vector<uint32_t> mapped(other.values_.size());
    for (size_t i = 0; i < other.values_.size(); ++i) {
      auto [it, added] =
          index_.try_emplace(std::string(other.values_[i]), uint32_t(values_.size()));
      if (added) values_.push_back(it->first);
      mapped[i] = it->second;
    }
    for (uint32_t row : other.rows_) rows_.push_back(mapped[row]);
  }
  py::object to_python() const {
    std::vector<py::object> objects;
    objects.reserve(values_.size());
    for (std::string_view v : values_) objects.push_back(python_text(v));
    // numpy fills a new object array with references to None; each is swapped for the row's str.
    py::array out = py::module_::import("numpy").attr("empty")(rows_.size(), "object");
    auto** cells = static_cast<PyObject**>(out.mutable_data());
    for (size_t i = 0; i < rows_.size(); ++i) {
      PyObject* value = objects[rows_[i]].ptr();
      Py_INCREF(value);
      Py_XDECREF(cells[i]);
      cells[i] = value;
    }
    return out;
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  std::unordered_map<std::string, uint32_t, Hash, std::equal_to<>> index_;
  std::vector<std::string_view> values_;  // by index: views of index_'s keys, which stay put
  std::vector<uint32_t> rows_;
};

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

// What the trace does not give (the core's -1) is NaN, never -1, so that a mean is not silently
// wrong: null in JSON, empty in CSV, NaN here (docs/METRICS.md, "Unknown values").
double known(int64_t value) {
  return value < 0 ? kMissing : static_cast<double>(value);
}

// Where each row comes from: the trace (its path and rank), the region (name and index).
struct Origin {
  TextColumn trace;
  Column<double> rank;  // NaN without distributedInfo
  void push(const TraceAnalysis& t) {
    trace.push(t.path);
    rank.push(known(t.rank));
  }
  void append(const Origin& other) {
    trace.append(other.trace);
    rank.append(other.rank);
  }
  void into(py::dict& d) const {
    d["trace"] = trace.to_python();
    d["rank"] = rank.to_python();
  }
};

py::dict region_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn name;
  Column<int64_t> index, pid;
  Column<double> start_us;
  Column<bool> typical;
  // One column per fact of the catalog's `regions` table (analysis/regions/region_fact_catalog.h),
  // under its name: an integer column for whole numbers, else microseconds for a time; NaN where
  // the region lacks the value (a launch delay without the region's launch calls in the trace, the
  // communication overlap without communication).
  std::vector<const RegionFact*> facts;
  for (const RegionFact& f : region_fact_catalog())
    if (f.python_region) facts.push_back(&f);
  std::vector<Column<double>> values(facts.size());
  std::vector<Column<int64_t>> counts(facts.size());
  for (const TraceAnalysis& t : traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& r = t.regions[i];
      origin.push(t);
      name.push(r.name);
      index.push(int64_t(i));
      pid.push(r.pid);
      typical.push(int(i) == t.typical_region);
      start_us.push(r.start_ns / 1000.0);
      for (size_t m = 0; m < facts.size(); ++m) {
        const MetricValue v = facts[m]->of_region(r);
        if (facts[m]->whole)
          counts[m].push(v.available ? static_cast<int64_t>(v.number.median) : 0);
        else
          values[m].push(v.available ? v.number.median : kMissing);
      }
    }
  }
  py::dict d;
  origin.into(d);
  d["region"] = name.to_python();
  d["region_index"] = index.to_python();
  d["region_pid"] = pid.to_python();
  d["typical"] = typical.to_python();
  d["start_us"] = start_us.to_python();
  for (size_t m = 0; m < facts.size(); ++m)
    d[py::str(facts[m]->name)] = facts[m]->whole ? counts[m].to_python() : values[m].to_python();
  return d;
}

// The columns of `attnprof analyze --format csv`, with the same names: where the row is, then the
// activity column catalog's (analysis/activity_columns.h), with its rule for unknown values (NaN).
// Filled region by region as the core hands the rows over (AnalyzeOptions::take_activities):
// that runs beside the findings, and without the GIL.
class ActivityColumns {
 public:
  ActivityColumns() {
    for (const ActivityColumn& c : activity_columns()) {
      if (c.type == ActivityColumnType::kText)
        columns_.emplace_back(TextColumn());
      else if (c.type == ActivityColumnType::kInteger)
        columns_.emplace_back(Column<int64_t>());
      else
        columns_.emplace_back(Column<double>());
    }
  }

  void add(const TraceAnalysis& t, size_t region, const std::vector<ActivityRow>& rows) {
    const RegionSummary& r = t.regions[region];
    const bool is_typical = int(region) == t.typical_region;
    const auto catalog = activity_columns();
    for (const ActivityRow& a : rows) {
      origin_.push(t);
      region_.push(r.name);
      region_index_.push(int64_t(region));
      region_pid_.push(int64_t(r.pid));
      typical_.push(is_typical);
      for (size_t i = 0; i < catalog.size(); ++i) {
        const ActivityColumn& c = catalog[i];
        if (auto* text = std::get_if<TextColumn>(&columns_[i])) {
          text->push(c.text(a, scratch_));
        } else if (auto* integer = std::get_if<Column<int64_t>>(&columns_[i])) {
          integer->push(static_cast<int64_t>(c.number(a).value_or(0)));
        } else {
          std::get<Column<double>>(columns_[i]).push(c.number(a).value_or(kMissing));
        }
      }
    }
  }

  // Appends another trace's columns after these.
  void append(const ActivityColumns& o) {
    origin_.append(o.origin_);
    region_.append(o.region_);
    region_index_.append(o.region_index_);
    region_pid_.append(o.region_pid_);
    typical_.append(o.typical_);
    for (size_t i = 0; i < columns_.size(); ++i)
      std::visit(
          [&](auto& mine) { mine.append(std::get<std::decay_t<decltype(mine)>>(o.columns_[i])); },
          columns_[i]);
  }

  py::dict to_python() const {
    py::dict d;
    origin_.into(d);
    d["region"] = region_.to_python();
    d["region_index"] = region_index_.to_python();
    d["region_pid"] = region_pid_.to_python();
    d["typical"] = typical_.to_python();
    const auto catalog = activity_columns();
    for (size_t i = 0; i < catalog.size(); ++i)
      d[py::str(catalog[i].name.data(), catalog[i].name.size())] =
          std::visit([](const auto& column) { return column.to_python(); }, columns_[i]);
    return d;
  }

 private:
  Origin origin_;
  TextColumn region_;
  Column<int64_t> region_index_, region_pid_;
  Column<bool> typical_;
  std::vector<std::variant<TextColumn, Column<int64_t>, Column<double>>> columns_;
  std::string scratch_;  // one buffer for every row's op chain: no allocation per row
};

py::dict finding_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn id, summary, suggestion, evidence;
  Column<int64_t> regions_affected, regions;
  Column<double> explains_us;  // NaN where a finding is about no time
  for (const TraceAnalysis& t : traces) {
    for (const Finding& f : t.findings) {
      origin.push(t);
      explains_us.push(f.explains_ns < 0 ? kMissing : f.explains_ns / 1000.0);
      id.push(std::string(finding_id(f.kind)));
      summary.push(f.summary);
      suggestion.push(f.suggestion);
      std::string lines;
      for (const auto& e : f.evidence) lines += (lines.empty() ? "" : "\n") + e;
      evidence.push(std::move(lines));
      regions_affected.push(f.regions_affected);
      regions.push(int64_t(t.regions.size()));
    }
  }
  py::dict d;
  origin.into(d);
  d["id"] = id.to_python();
  d["summary"] = summary.to_python();
  d["evidence"] = evidence.to_python();
  d["suggestion"] = suggestion.to_python();
  d["regions_affected"] = regions_affected.to_python();
  d["regions"] = regions.to_python();
  d["explains_us"] = explains_us.to_python();
  return d;
}

// The top tables (attnprof/top_tables.h) of every region, with the columns of
// `attnprof analyze --format csv --table kernels|ops|modules`.
struct RegionOrigin {
  Origin origin;
  TextColumn region;
  Column<int64_t> region_index;
  Column<bool> typical;
  void push(const TraceAnalysis& t, size_t r) {
    origin.push(t);
    region.push(t.regions[r].name);
    region_index.push(int64_t(r));
    typical.push(int(r) == t.typical_region);
  }
  void into(py::dict& d) const {
    origin.into(d);
    d["region"] = region.to_python();
    d["region_index"] = region_index.to_python();
    d["typical"] = typical.to_python();
  }
};

py::dict kernel_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn short_name, name, kernel_class;
  Column<int64_t> count;
  Column<double> total_us, mean_us, min_us, max_us, busy_share_pct;
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const KernelTotal& k : t.regions[r].tables.kernels) {
        where.push(t, r);
        short_name.push(k.short_name);
        name.push(k.name);
        kernel_class.push(std::string(kernel_class_id(k.kernel_class)));
        count.push(k.count);
        total_us.push(k.total_ns / 1000.0);
        mean_us.push(k.total_ns / 1000.0 / static_cast<double>(k.count));
        min_us.push(k.min_ns / 1000.0);
        max_us.push(k.max_ns / 1000.0);
        const int64_t busy = t.regions[r].gpu_busy_ns;
        busy_share_pct.push(busy > 0 ? 100.0 * static_cast<double>(k.total_ns) /
                                           static_cast<double>(busy)
                                     : std::numeric_limits<double>::quiet_NaN());
      }
  py::dict d;
  where.into(d);
  d["short_name"] = short_name.to_python();
  d["name"] = name.to_python();
  d["class"] = kernel_class.to_python();
  d["count"] = count.to_python();
  d["total_us"] = total_us.to_python();
  d["mean_us"] = mean_us.to_python();
  d["min_us"] = min_us.to_python();
  d["max_us"] = max_us.to_python();
  d["busy_share_pct"] = busy_share_pct.to_python();
  return d;
}

py::dict op_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn name, input_shapes, roof;
  Column<int64_t> calls;
  Column<double> cpu_us, self_cpu_us, gpu_us, self_gpu_us;
  // NaN where JSON has null: no recorded shapes, or an op outside the cost model.
  Column<double> flops, bytes, costed_gpu_us, tflops_per_s, gb_per_s, roof_pct;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const OpTotal& o : t.regions[r].tables.ops) {
        where.push(t, r);
        name.push(o.name);
        input_shapes.push(o.input_shapes);
        calls.push(o.calls);
        cpu_us.push(o.cpu_ns / 1000.0);
        self_cpu_us.push(o.self_cpu_ns / 1000.0);
        gpu_us.push(o.gpu_ns / 1000.0);
        self_gpu_us.push(o.self_gpu_ns / 1000.0);
        flops.push(o.flops.value_or(nan));
        bytes.push(o.bytes.value_or(nan));
        costed_gpu_us.push(o.costed_gpu_ns / 1000.0);
        const std::optional<double> rate = o.achieved_per_s();
        tflops_per_s.push(rate && !o.memory_bound ? *rate / 1e12 : nan);
        gb_per_s.push(rate && o.memory_bound ? *rate / 1e9 : nan);
        roof_pct.push(o.roof_pct.value_or(nan));
        roof.push(o.roof);
      }
  py::dict d;
  where.into(d);
  d["name"] = name.to_python();
  d["calls"] = calls.to_python();
  d["cpu_us"] = cpu_us.to_python();
  d["self_cpu_us"] = self_cpu_us.to_python();
  d["gpu_us"] = gpu_us.to_python();
  d["self_gpu_us"] = self_gpu_us.to_python();
  d["input_shapes"] = input_shapes.to_python();
  d["flops"] = flops.to_python();
  d["bytes"] = bytes.to_python();
  d["costed_gpu_us"] = costed_gpu_us.to_python();
  d["tflops_per_s"] = tflops_per_s.to_python();
  d["gb_per_s"] = gb_per_s.to_python();
  d["roof_pct"] = roof_pct.to_python();
  d["roof"] = roof.to_python();
  return d;
}

py::dict module_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn name, module_class;
  Column<int64_t> depth, calls, gpu_activities;
  Column<double> cpu_us, gpu_us;
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const ModuleTotal& m : t.regions[r].tables.module_instances) {
        where.push(t, r);
        name.push(m.name);
        module_class.push(std::string(module_class_name(m.name)));
        depth.push(m.depth);
        calls.push(m.calls);
        cpu_us.push(m.cpu_ns / 1000.0);
        gpu_us.push(m.gpu_ns / 1000.0);
        gpu_activities.push(m.activities);
      }
  py::dict d;
  where.into(d);
  d["name"] = name.to_python();
  d["class"] = module_class.to_python();
  d["depth"] = depth.to_python();
  d["calls"] = calls.to_python();
  d["cpu_us"] = cpu_us.to_python();
  d["gpu_us"] = gpu_us.to_python();
  d["gpu_activities"] = gpu_activities.to_python();
  return d;
}

py::dict trace_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn pattern, backend, device;
  Column<int64_t> events, json_bytes, regions, warnings, markers;
  Column<double> world_size, typical;  // NaN when unknown
  for (const TraceAnalysis& t : traces) {
    origin.push(t);
    pattern.push(t.region_pattern);
    backend.push(t.distributed_backend);
    world_size.push(known(t.world_size));
    device.push(t.devices.empty() ? std::string() : t.devices.front().name);
    events.push(int64_t(t.events));
    json_bytes.push(int64_t(t.json_bytes));
    regions.push(int64_t(t.regions.size()));
    typical.push(known(t.typical_region));
    warnings.push(int64_t(t.diagnostics.total()));
    markers.push(int64_t(t.markers.size()));
  }
  py::dict d;
  origin.into(d);
  d["region_pattern"] = pattern.to_python();
  d["distributed_backend"] = backend.to_python();
  d["world_size"] = world_size.to_python();
  d["device"] = device.to_python();
  d["events"] = events.to_python();
  d["json_bytes"] = json_bytes.to_python();
  d["regions"] = regions.to_python();
  d["typical_region"] = typical.to_python();
  d["warnings"] = warnings.to_python();
  d["markers"] = markers.to_python();
  return d;
}

// Per region of the comparison: the slowest trace and the spread of GPU busy and wall time.
py::dict across_columns(const CrossTraceSummary& across) {
  TextColumn region, slowest_gpu, slowest_wall, job_held_by, job_held_with;
  Column<int64_t> traces_with_it;
  Column<double> gpu_spread, wall_spread, gpu_median_us, wall_median_us, job_length_us, job_held_us;
  auto label = [&](int i) { return i < 0 ? std::string() : across.labels[size_t(i)].text; };
  for (const RegionAcrossTraces& r : across.regions) {
    // The job's path across ranks (attnprof/cross_trace.h): NaN and "" where there is none.
    double length = std::numeric_limits<double>::quiet_NaN(), held = length;
    std::string by, with;
    if (r.job_path) {
      length = r.job_path->length_ns / 1000.0;
      for (size_t i = 0; i < r.traces.size(); ++i)
        if (r.traces[i] == r.job_path->held_by) held = r.job_path->held_ns[i] / 1000.0;
      by = label(r.job_path->held_by);
      with = r.job_path->held_with;
    }
    job_length_us.push(length);
    job_held_us.push(held);
    job_held_by.push(by);
    job_held_with.push(with);
    region.push(r.name);
    traces_with_it.push(int64_t(r.traces.size()));
    gpu_median_us.push(r.gpu_busy_ns.median / 1000.0);
    gpu_spread.push(r.gpu_busy_ns.spread);
    slowest_gpu.push(label(r.gpu_busy_ns.slowest));
    wall_median_us.push(r.wall_ns.median / 1000.0);
    wall_spread.push(r.wall_ns.spread);
    slowest_wall.push(label(r.wall_ns.slowest));
  }
  py::dict d;
  d["region"] = region.to_python();
  d["traces"] = traces_with_it.to_python();
  d["gpu_busy_median_us"] = gpu_median_us.to_python();
  d["gpu_busy_spread"] = gpu_spread.to_python();
  d["gpu_busy_slowest"] = slowest_gpu.to_python();
  d["wall_median_us"] = wall_median_us.to_python();
  d["wall_spread"] = wall_spread.to_python();
  d["wall_slowest"] = slowest_wall.to_python();
  d["job_path_us"] = job_length_us.to_python();
  d["job_held_by"] = job_held_by.to_python();
  d["job_held_us"] = job_held_us.to_python();
  d["job_held_with"] = job_held_with.to_python();
  return d;
}

// The attention calls (attnprof/attention_calls.h) of every region, with the columns of
// `attnprof analyze --format csv --table attention`. Unknown numbers are NaN (the shapes are
// float64 columns for that reason), an unknown causal None.
py::dict attention_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn op, backend, dtype, backend_op, main_kernel, assumed, note, roof;
  Column<double> batch, heads, kv_heads, q_len, kv_len, head_dim, window, flops, gpu_us, tflops,
      bytes, roof_pct, allocated_bytes, freed_bytes;
  Column<bool> backward, explicit_mask;
  Column<int64_t> kernels;
  py::list causal;
  constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
  auto number = [&](Column<double>& column, const auto& v) {
    column.push(v ? static_cast<double>(*v) : kUnknown);
  };
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const AttentionCall& c : t.regions[r].attention.calls) {
        where.push(t, r);
        op.push(c.op);
        backend.push(attention_backend_id(c.backend));
        number(batch, c.batch);
        number(heads, c.heads);
        number(kv_heads, c.kv_heads);
        number(q_len, c.q_len);
        number(kv_len, c.kv_len);
        number(head_dim, c.head_dim);
        dtype.push(c.dtype);
        causal.append(c.causal ? py::object(py::bool_(*c.causal)) : py::object(py::none()));
        number(window, c.window);
        explicit_mask.push(c.explicit_mask);
        number(flops, c.flops);
        gpu_us.push(c.gpu_ns / 1000.0);
        number(tflops, c.tflops());
        number(bytes, c.bytes);
        number(roof_pct, c.roof_pct);
        roof.push(c.roof);
        backward.push(c.backward);
        backend_op.push(c.backend_op);
        kernels.push(c.kernels);
        main_kernel.push(c.main_kernel);
        assumed.push(c.assumed);
        note.push(c.note);
        number(allocated_bytes, c.allocated_bytes);
        number(freed_bytes, c.freed_bytes);
      }
  py::dict d;
  where.into(d);
  d["op"] = op.to_python();
  d["backend"] = backend.to_python();
  d["batch"] = batch.to_python();
  d["heads"] = heads.to_python();
  d["kv_heads"] = kv_heads.to_python();
  d["q_len"] = q_len.to_python();
  d["kv_len"] = kv_len.to_python();
  d["head_dim"] = head_dim.to_python();
  d["dtype"] = dtype.to_python();
  d["causal"] = causal;
  d["window"] = window.to_python();
  d["explicit_mask"] = explicit_mask.to_python();
  d["flops"] = flops.to_python();
  d["gpu_us"] = gpu_us.to_python();
  d["tflops_per_s"] = tflops.to_python();
  d["bytes"] = bytes.to_python();
  d["roof_pct"] = roof_pct.to_python();
  d["roof"] = roof.to_python();
  d["backward"] = backward.to_python();
  d["backend_op"] = backend_op.to_python();
  d["kernels"] = kernels.to_python();
  d["main_kernel"] = main_kernel.to_python();
  d["flops_assumed"] = assumed.to_python();
  d["note"] = note.to_python();
  d["allocated_bytes"] = allocated_bytes.to_python();
  d["freed_bytes"] = freed_bytes.to_python();
  return d;
}

// The memory (attnprof/region_memory.h) of every region, one row per CUDA device, with the
// columns of `attnprof analyze --format csv --table memory`; the holders at the peak as a list of
// (op, bytes, allocations) per row.
py::dict memory_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn peak_op, peak_module;
  Column<int64_t> device, events, peak, start, end, reserved, before;
  Column<double> peak_at_us;
  py::list holders;
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const RegionMemory& m : t.regions[r].memory) {
        where.push(t, r);
        device.push(m.device);
        events.push(m.events);
        peak.push(m.peak_allocated_bytes);
        peak_at_us.push(m.peak_at_ns / 1000.0);
        peak_op.push(m.peak_op);
        peak_module.push(m.peak_module);
        start.push(m.at_start_bytes);
        end.push(m.at_end_bytes);
        reserved.push(m.peak_reserved_bytes);
        before.push(m.allocated_before_trace_bytes);
        py::list top;
        for (const MemoryHolder& h : m.top_allocators)
          top.append(py::make_tuple(h.op, h.bytes, h.allocations));
        holders.append(top);
      }
  py::dict d;
  where.into(d);
  d["device"] = device.to_python();
  d["events"] = events.to_python();
  d["peak_allocated_bytes"] = peak.to_python();
  d["peak_at_us"] = peak_at_us.to_python();
  d["peak_op"] = peak_op.to_python();
  d["peak_module"] = peak_module.to_python();
  d["at_start_bytes"] = start.to_python();
  d["at_end_bytes"] = end.to_python();
  d["peak_reserved_bytes"] = reserved.to_python();
  d["allocated_before_trace_bytes"] = before.to_python();
  d["top_allocators"] = holders;
  return d;
}

// The collectives (attnprof/collectives.h) of every region, with the columns of `attnprof analyze
// --format csv --table collectives` (the whole trace's rows aside): NaN where a size or rate is
// unknown.
py::dict collective_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  TextColumn name, dtype, link;
  Column<int64_t> count, sized, bytes;
  Column<double> group_size, gpu_us, sized_gpu_us, algbw, factor, busbw, link_gbps;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  auto known = [&](double v) { return v < 0 ? nan : v; };
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r)
      for (const CollectiveTotals& c : t.regions[r].collectives) {
        where.push(t, r);
        name.push(c.name);
        dtype.push(c.dtype);
        group_size.push(known(static_cast<double>(c.group_size)));
        count.push(c.count);
        gpu_us.push(c.gpu_ns / 1000.0);
        sized.push(c.sized);
        bytes.push(c.bytes);
        sized_gpu_us.push(c.sized_gpu_ns / 1000.0);
        algbw.push(known(c.algbw_gbps));
        factor.push(known(c.bus_factor));
        busbw.push(known(c.busbw_gbps));
        link.push(t.link.name);
        link_gbps.push(t.link.gb_per_s_per_direction > 0 ? t.link.gb_per_s_per_direction : nan);
      }
  py::dict d;
  where.into(d);
  d["collective"] = name.to_python();
  d["dtype"] = dtype.to_python();
  d["group_size"] = group_size.to_python();
  d["count"] = count.to_python();
  d["gpu_us"] = gpu_us.to_python();
  d["sized"] = sized.to_python();
  d["bytes"] = bytes.to_python();
  d["sized_gpu_us"] = sized_gpu_us.to_python();
  d["algbw_gbps"] = algbw.to_python();
  d["bus_factor"] = factor.to_python();
  d["busbw_gbps"] = busbw.to_python();
  d["link"] = link.to_python();
  d["link_gbps_per_direction"] = link_gbps.to_python();
  return d;
}

// Each region's critical path (attnprof/critical_path.h), with the columns of `attnprof analyze
// --format csv --table critical_path`: NaN where a region has no path (merged from summaries,
// which keep none) or no what-if.
py::dict critical_path_columns(const std::vector<TraceAnalysis>& traces) {
  RegionOrigin where;
  Column<double> length, cpu, launch, sync, compute, communication, memory, gap, attention,
      attention_cpu, before, after, selected;
  TextColumn bound_by;
  auto us = [](bool known_here, int64_t ns) { return known_here ? ns / 1000.0 : kMissing; };
  for (const TraceAnalysis& t : traces)
    for (size_t r = 0; r < t.regions.size(); ++r) {
      const CriticalPath& p = t.regions[r].critical_path;
      const std::optional<WhatIf>& w = t.regions[r].what_if;
      where.push(t, r);
      length.push(us(p.present, p.length_ns));
      cpu.push(us(p.present, p.categories.cpu_ns));
      launch.push(us(p.present, p.categories.launch_overhead_ns));
      sync.push(us(p.present, p.categories.sync_ns));
      compute.push(us(p.present, p.categories.compute_ns));
      communication.push(us(p.present, p.categories.communication_ns));
      memory.push(us(p.present, p.categories.memory_ns));
      gap.push(us(p.present, p.categories.kernel_gap_ns));
      attention.push(us(p.present, p.attention_ns));
      attention_cpu.push(us(p.present, p.attention_cpu_ns));
      bound_by.push(p.bound_by);
      before.push(us(w.has_value(), w ? w->length_before_ns : 0));
      after.push(us(w.has_value(), w ? w->length_after_ns : 0));
      selected.push(us(w.has_value(), w ? w->selected_ns : 0));
    }
  py::dict d;
  where.into(d);
  d["length_us"] = length.to_python();
  d["cpu_us"] = cpu.to_python();
  d["launch_overhead_us"] = launch.to_python();
  d["sync_us"] = sync.to_python();
  d["compute_us"] = compute.to_python();
  d["communication_us"] = communication.to_python();
  d["memory_us"] = memory.to_python();
  d["kernel_gap_us"] = gap.to_python();
  d["attention_us"] = attention.to_python();
  d["attention_cpu_us"] = attention_cpu.to_python();
  d["bound_by"] = bound_by.to_python();
  d["what_if_length_us_before"] = before.to_python();
  d["what_if_length_us_after"] = after.to_python();
  d["what_if_selected_us"] = selected.to_python();
  return d;
}

// Files, and each folder's traces (pipeline/trace_inputs.h), each name as bytes (os.fsencode's
// form): a file name need not be UTF-8.
py::list expand(const std::vector<std::string>& arguments) {
  py::list names;
  for (const std::string& path : expand_trace_paths(arguments)) names.append(py::bytes(path));
  return names;
}

// The line of a trace whose map task failed where no summary could be made (its worker was
// killed, for memory or otherwise, after every retry): the trace's error row.
std::string summary_of_failure(const std::string& path, const std::string& message) {
  return write_trace_summary(path, make_error(ErrorKind::kLimit, "{}", message));
}

// The traces read (or merged from summaries) and the errors of those that could not be, as the
// tables `attnprof.analyze` returns; `with_tables`: the top tables' rows too.
py::dict columns(const TracesRead& traces, const ActivityColumns& activities, bool with_tables) {
  static const std::vector<TraceAnalysis> kNone;
  const std::vector<TraceAnalysis>& read = traces.read;
  const std::vector<TraceAnalysis>& tabled = with_tables ? read : kNone;
  py::list errors, error_kinds;
  for (const UnreadTrace& u : traces.unread) {
    errors.append(python_text(u.error));
    error_kinds.append(std::string(error_kind_name(u.kind)));
  }
  py::dict out;
  out["traces"] = trace_columns(read);
  out["regions"] = region_columns(read);
  out["activities"] = activities.to_python();
  out["findings"] = finding_columns(read);
  out["kernels"] = kernel_columns(tabled);
  out["ops"] = op_columns(tabled);
  out["modules"] = module_columns(tabled);
  out["attention_calls"] = attention_columns(read);
  out["memory"] = memory_columns(read);
  out["critical_path"] = critical_path_columns(read);
  out["collectives"] = collective_columns(read);
  out["errors"] = errors;
  out["error_kinds"] = error_kinds;
  out["across"] = traces.across ? py::object(across_columns(*traces.across)) : py::none();
  return out;
}

py::dict analyze(const std::vector<std::string>& arguments, const std::string& region, bool explain,
                 size_t jobs, const std::vector<std::string>& what_if) {
  std::vector<TraceInput> inputs;
  for (std::string& path : expand_trace_paths(arguments)) inputs.push_back({std::move(path), {}});
  AnalyzeOptions options;
  if (Status rules = add_what_if_rules(options, what_if, "what_if"); !rules.ok())
    throw std::invalid_argument(rules.error().message);
  options.region_pattern = region;
  options.explain = explain;
  options.activities_of_every_region = true;
  ManyTracesOptions many;
  many.jobs = jobs;
  std::vector<ActivityColumns> activities(inputs.size());  // by trace: each filled by one thread
  many.take_activities = [&](size_t trace, const TraceAnalysis& analysis, size_t region,
                             std::vector<ActivityRow>&& rows) {
    activities[trace].add(analysis, region, rows);
  };
  TracesRead traces;
  ActivityColumns all_activities;
  {
    py::gil_scoped_release unlocked;
    traces = read_traces(inputs, options, many);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (!traces.input_failed[i]) {
        if (i == 0)
          all_activities = std::move(activities[0]);
        else
          all_activities.append(activities[i]);
      }
  }
  return columns(traces, all_activities, true);
}

// The map half of docs/DISTRIBUTED.md: a trace's summary line, or its error's line; never raises
// for a trace that cannot be read, so that a map over thousands of traces carries every outcome.
std::string summarize(const std::string& path, const std::string& region) {
  AnalyzeOptions options;
  options.region_pattern = region;
  options.reading_workers = 1;  // a map runs one trace per worker thread
  Result<TraceAnalysis> outcome = [&] {
    py::gil_scoped_release unlocked;
    return analyze_file(path, options);
  }();
  return outcome.ok() ? write_trace_summary(*outcome) : write_trace_summary(path, outcome.error());
}

// The reduce: summaries (each a string of one or more lines) into the tables `analyze` returns
// for the same traces read in one process, but their activities and findings (empty).
py::dict merge(const std::vector<std::string>& summaries) {
  std::vector<TraceSummaryText> texts;
  for (size_t i = 0; i < summaries.size(); ++i)
    texts.push_back({summaries[i], fmt::format("summary {}", i)});
  Result<TracesRead> merged = merge_trace_summaries(texts);
  if (!merged.ok()) throw std::invalid_argument(merged.error().message);
  // A summary keeps no activities or tables: their columns, with no rows.
  return columns(*merged, ActivityColumns(), false);
}

}  // namespace

}  // namespace attnprof::python

PYBIND11_MODULE(_attnprof, m) {
  m.doc() = "attnprof's C++ reader and analyses; use the attnprof package, which wraps this";
  m.def("analyze", &attnprof::python::analyze, py::arg("paths"), py::arg("region") = "",
        py::arg("explain") = true, py::arg("jobs") = 0,
        py::arg("what_if") = std::vector<std::string>(),
        "Reads the traces (files or folders) and returns their tables as columns");
  m.def("summarize", &attnprof::python::summarize, py::arg("path"), py::arg("region") = "",
        "One trace's summary line (JSON), or its error's line");
  m.def("merge", &attnprof::python::merge, py::arg("summaries"),
        "The tables of the traces the summary lines describe, compared across ranks");
  m.def("expand", &attnprof::python::expand, py::arg("paths"),
        "Files, and each folder's traces in natural order, as `attnprof analyze DIR` reads them");
  m.def("summary_of_failure", &attnprof::python::summary_of_failure, py::arg("path"),
        py::arg("message"), "The summary line of a trace whose map task failed: its error row");
  m.attr("summary_version") = attnprof::kTraceSummaryVersion;
  m.attr("__version__") = ATTNPROF_VERSION;
  attnprof::python::add_command_bindings(m);
}
