// The C++ half of the Python module (`import attnprof`, python/attnprof/__init__.py): the core's
// reader and analyses, returning plain columns (numpy arrays: of numbers, and of str objects for
// text) that the Python half turns into pandas DataFrames. The GIL is released while traces are
// read, so other Python threads run meanwhile.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "io/trace_directory.h"

namespace py = pybind11;

namespace attnprof::python {

namespace {

// One column of numbers, filled row by row, handed to Python as a numpy array.
template <typename T>
class Column {
 public:
  void push(T v) { values_.push_back(v); }
  py::object to_python() const {
    py::array_t<T> out(static_cast<py::ssize_t>(values_.size()));
    std::copy(values_.begin(), values_.end(), out.mutable_data());
    return out;
  }

 private:
  std::vector<T> values_;
};

// One column of text, handed to Python as a numpy array of str objects, which pandas takes as
// its object column without copying or inspecting it (a list it would convert, 30 ms of the
// 200 MB trace's first read). A trace repeats its names (each kernel, region and op chain
// thousands of times), so each distinct value becomes one Python object that its rows share.
class TextColumn {
 public:
  void push(std::string_view v) {
    // Rows come region by region, so a column often repeats the row before it (the region, the
    // trace, the launch API): one compare instead of hashing a 100-character kernel name.
    if (!rows_.empty() && v == last_) {
      rows_.push_back(rows_.back());
      return;
    }
    auto it = objects_.find(v);
    if (it == objects_.end())
      it = objects_.emplace(std::string(v), py::str(v.data(), v.size())).first;
    last_ = it->first;  // the map's key: node-based, it stays where it is
    rows_.push_back(it->second.ptr());
  }
  py::object to_python() const {
    // numpy fills a new object array with references to None; each is swapped for the row's str.
    py::array out = py::module_::import("numpy").attr("empty")(rows_.size(), "object");
    auto** cells = static_cast<PyObject**>(out.mutable_data());
    for (size_t i = 0; i < rows_.size(); ++i) {
      Py_INCREF(rows_[i]);
      Py_XDECREF(cells[i]);
      cells[i] = rows_[i];
    }
    return out;
  }

 private:
  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view v) const { return std::hash<std::string_view>{}(v); }
  };
  std::unordered_map<std::string, py::object, Hash, std::equal_to<>> objects_;
  std::vector<PyObject*> rows_;  // borrowed from objects_, which outlives them
  std::string_view last_;        // the last row's value
};

constexpr double kMissing = std::numeric_limits<double>::quiet_NaN();

const char* kind_name(ActivityKind kind) {
  return kind == ActivityKind::kKernel   ? "kernel"
         : kind == ActivityKind::kMemcpy ? "memcpy"
                                         : "memset";
}

// Where each row comes from: the trace (its path and rank), the region (name and index).
struct Origin {
  TextColumn trace;
  Column<int64_t> rank;
  void push(const TraceAnalysis& t) {
    trace.push(t.path);
    rank.push(t.rank);
  }
  void into(py::dict& d) const {
    d["trace"] = trace.to_python();
    d["rank"] = rank.to_python();
  }
};

py::dict region_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn name;
  Column<int64_t> index, pid, kernels, memcpy, memset;
  Column<double> start_us, wall_us, cpu_us, gpu_busy_us;
  Column<bool> typical;
  for (const TraceAnalysis& t : traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      const RegionSummary& r = t.regions[i];
      origin.push(t);
      name.push(r.name);
      index.push(int64_t(i));
      pid.push(r.pid);
      typical.push(int(i) == t.typical_region);
      start_us.push(r.start_ns / 1000.0);
      wall_us.push(r.wall_ns / 1000.0);
      cpu_us.push(r.cpu_ns / 1000.0);
      gpu_busy_us.push(r.gpu_busy_ns / 1000.0);
      kernels.push(r.kernels);
      memcpy.push(r.memcpy);
      memset.push(r.memset);
    }
  }
  py::dict d;
  origin.into(d);
  d["region"] = name.to_python();
  d["region_index"] = index.to_python();
  d["region_pid"] = pid.to_python();
  d["typical"] = typical.to_python();
  d["start_us"] = start_us.to_python();
  d["wall_us"] = wall_us.to_python();
  d["cpu_us"] = cpu_us.to_python();
  d["gpu_busy_us"] = gpu_busy_us.to_python();
  d["kernels"] = kernels.to_python();
  d["memcpy"] = memcpy.to_python();
  d["memset"] = memset.to_python();
  return d;
}

// The columns of `attnprof analyze --format csv` (render/activity_csv.h), with the same names.
py::dict activity_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn region, kind, short_name, name, launch_api, op_chain, memcpy_kind, limiter;
  Column<int64_t> region_index, grid_x, grid_y, grid_z, block_x, block_y, block_z, registers,
      shared_memory, bytes, stream;
  Column<double> occupancy, kineto_occupancy, start_us, duration_us;
  Column<bool> typical;
  std::string chain;
  for (const TraceAnalysis& t : traces) {
    for (size_t i = 0; i < t.regions.size(); ++i) {
      for (const ActivityRow& a : t.regions[i].activities) {
        origin.push(t);
        region.push(t.regions[i].name);
        region_index.push(int64_t(i));
        typical.push(int(i) == t.typical_region);
        kind.push(kind_name(a.kind));
        short_name.push(a.short_name);
        name.push(a.name);
        launch_api.push(a.launch_api);
        chain.clear();  // one buffer for every row's chain: no allocation per row
        for (const auto& op : a.op_chain) {
          if (!chain.empty()) chain += " > ";
          chain += op;
        }
        op_chain.push(chain);
        memcpy_kind.push(a.memcpy_kind);
        grid_x.push(a.grid[0]);
        grid_y.push(a.grid[1]);
        grid_z.push(a.grid[2]);
        block_x.push(a.block[0]);
        block_y.push(a.block[1]);
        block_z.push(a.block[2]);
        registers.push(a.registers_per_thread);
        shared_memory.push(a.shared_memory_bytes);
        occupancy.push(a.occupancy_pct.value_or(kMissing));
        limiter.push(a.occupancy_limiter);
        kineto_occupancy.push(a.kineto_occupancy_pct.value_or(kMissing));
        bytes.push(a.bytes);
        stream.push(a.stream);
        start_us.push(a.start_ns / 1000.0);
        duration_us.push(a.duration_ns / 1000.0);
      }
    }
  }
  py::dict d;
  origin.into(d);
  d["region"] = region.to_python();
  d["region_index"] = region_index.to_python();
  d["typical"] = typical.to_python();
  d["kind"] = kind.to_python();
  d["short_name"] = short_name.to_python();
  d["name"] = name.to_python();
  d["launch_api"] = launch_api.to_python();
  d["op_chain"] = op_chain.to_python();
  d["memcpy_kind"] = memcpy_kind.to_python();
  d["grid_x"] = grid_x.to_python();
  d["grid_y"] = grid_y.to_python();
  d["grid_z"] = grid_z.to_python();
  d["block_x"] = block_x.to_python();
  d["block_y"] = block_y.to_python();
  d["block_z"] = block_z.to_python();
  d["registers_per_thread"] = registers.to_python();
  d["shared_memory_bytes"] = shared_memory.to_python();
  d["occupancy_pct"] = occupancy.to_python();
  d["occupancy_limiter"] = limiter.to_python();
  d["kineto_occupancy_pct"] = kineto_occupancy.to_python();
  d["bytes"] = bytes.to_python();
  d["stream"] = stream.to_python();
  d["start_us"] = start_us.to_python();
  d["duration_us"] = duration_us.to_python();
  return d;
}

py::dict finding_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn id, summary, suggestion, evidence;
  Column<int64_t> regions_affected, regions;
  for (const TraceAnalysis& t : traces) {
    for (const Finding& f : t.findings) {
      origin.push(t);
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
  return d;
}

py::dict trace_columns(const std::vector<TraceAnalysis>& traces) {
  Origin origin;
  TextColumn pattern, backend, device;
  Column<int64_t> world_size, events, json_bytes, regions, typical, warnings, markers;
  for (const TraceAnalysis& t : traces) {
    origin.push(t);
    pattern.push(t.region_pattern);
    backend.push(t.distributed_backend);
    world_size.push(t.world_size);
    device.push(t.devices.empty() ? std::string() : t.devices.front().name);
    events.push(int64_t(t.events));
    json_bytes.push(int64_t(t.json_bytes));
    regions.push(int64_t(t.regions.size()));
    typical.push(t.typical_region);
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
py::dict across_columns(const CrossTraceSummary& across, const std::vector<TraceAnalysis>& traces) {
  TextColumn region, slowest_gpu, slowest_wall;
  Column<int64_t> traces_with_it;
  Column<double> gpu_spread, wall_spread, gpu_median_us, wall_median_us;
  auto label = [&](int i) { return i < 0 ? std::string() : across.labels[size_t(i)].text; };
  for (const RegionAcrossTraces& r : across.regions) {
    region.push(r.name);
    traces_with_it.push(int64_t(r.traces.size()));
    gpu_median_us.push(r.gpu_busy_ns.median / 1000.0);
    gpu_spread.push(r.gpu_busy_ns.spread);
    slowest_gpu.push(label(r.gpu_busy_ns.slowest));
    wall_median_us.push(r.wall_ns.median / 1000.0);
    wall_spread.push(r.wall_ns.spread);
    slowest_wall.push(label(r.wall_ns.slowest));
  }
  (void)traces;
  py::dict d;
  d["region"] = region.to_python();
  d["traces"] = traces_with_it.to_python();
  d["gpu_busy_median_us"] = gpu_median_us.to_python();
  d["gpu_busy_spread"] = gpu_spread.to_python();
  d["gpu_busy_slowest"] = slowest_gpu.to_python();
  d["wall_median_us"] = wall_median_us.to_python();
  d["wall_spread"] = wall_spread.to_python();
  d["wall_slowest"] = slowest_wall.to_python();
  return d;
}

// Files and folders (each folder's traces, as `attnprof analyze DIR` reads them).
std::vector<std::string> expand(const std::vector<std::string>& arguments) {
  std::vector<std::string> paths;
  for (const auto& a : arguments) {
    auto listed = list_trace_directory(a);
    if (listed.ok()) {
      for (auto& p : *listed) paths.push_back(std::move(p));
    } else {
      paths.push_back(a);  // a file, or a folder the reader will say is not a trace
    }
  }
  return paths;
}

py::dict analyze(const std::vector<std::string>& arguments, const std::string& region, bool explain,
                 size_t jobs) {
  const std::vector<std::string> paths = expand(arguments);
  AnalyzeOptions options;
  options.region_pattern = region;
  options.explain = explain;
  options.activities_of_every_region = true;
  ManyTracesOptions many;
  many.jobs = jobs;
  std::vector<Result<TraceAnalysis>> outcomes;
  {
    py::gil_scoped_release unlocked;
    outcomes = analyze_files(paths, options, many);
  }
  std::vector<TraceAnalysis> read;
  py::list errors, error_kinds;
  for (auto& outcome : outcomes) {
    if (outcome.ok()) {
      read.push_back(std::move(outcome).value());
    } else {
      errors.append(outcome.error().message);
      error_kinds.append(std::string(error_kind_name(outcome.error().kind)));
    }
  }
  py::dict out;
  out["traces"] = trace_columns(read);
  out["regions"] = region_columns(read);
  out["activities"] = activity_columns(read);
  out["findings"] = finding_columns(read);
  out["errors"] = errors;
  out["error_kinds"] = error_kinds;
  if (are_ranks_of_one_run(read))
    out["across"] = across_columns(summarize_across_traces(read), read);
  else
    out["across"] = py::none();
  return out;
}

}  // namespace

}  // namespace attnprof::python

PYBIND11_MODULE(_attnprof, m) {
  m.doc() = "attnprof's C++ reader and analyses; use the attnprof package, which wraps this";
  m.def("analyze", &attnprof::python::analyze, py::arg("paths"), py::arg("region") = "",
        py::arg("explain") = true, py::arg("jobs") = 0,
        "Reads the traces (files or folders) and returns their tables as columns");
}
