#include "command_bindings.h"

#include <pybind11/stl.h>

#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/trace_diff.h"
#include "io/input_guard.h"
#include "pipeline/check_run.h"
#include "pipeline/diff_run.h"
#include "pipeline/report_file.h"
#include "pipeline/table_catalogs.h"
#include "render/output_format.h"
#include "render/text_wrap.h"

namespace py = pybind11;

namespace attnprof::python {

namespace {

// A failure as the Python half raises it: TraceReadError(message, kind).
py::dict failure(const Error& error) {
  py::dict out;
  out["error"] = error.message;
  out["error_kind"] = std::string(error_kind_name(error.kind));
  return out;
}

// Rows of a table as a dict of lists, which pandas takes as columns.
class Rows {
 public:
  explicit Rows(std::vector<const char*> names) : names_(std::move(names)) {
    for (const char* name : names_) columns_[name] = py::list();
  }
  void add(std::initializer_list<py::object> cells) {
    size_t i = 0;
    for (const py::object& cell : cells) columns_[names_[i++]].cast<py::list>().append(cell);
  }
  py::dict columns() const { return columns_; }

 private:
  std::vector<const char*> names_;
  py::dict columns_;
};

// A spread's median, min and max in `divisor` units (1000: ns to us); NaN where a side has none.
void add_quantity(Rows& rows, const std::string& name, const QuantityDiff& q, double divisor) {
  rows.add({py::str(name), py::float_(q.a.median / divisor), py::float_(q.a.min / divisor),
            py::float_(q.a.max / divisor), py::float_(q.b.median / divisor),
            py::float_(q.b.min / divisor), py::float_(q.b.max / divisor),
            py::float_(q.delta / divisor), py::float_(q.threshold / divisor),
            py::bool_(q.changed)});
}

// attnprof diff A B: what changed from A to B, with the JSON output's names
// (docs/check-and-diff.md).
py::dict diff(const std::string& a_path, const std::string& b_path, const std::string& region) {
  Result<TraceDiff> made = [&] {
    py::gil_scoped_release unlocked;
    return run_diff(DiffRequest{a_path, b_path, region, Limits{}});
  }();
  if (!made.ok()) return failure(made.error());
  const TraceDiff& d = *made;
  Rows per_region({"quantity", "a_median", "a_min", "a_max", "b_median", "b_min", "b_max", "delta",
                   "threshold", "changed"});
  // Every quantity of the JSON's per_region, named as there; a count by kind as "memcpy DtoD".
  for (const FactDiff& q : d.per_region) {
    const FactComparison& how = *find_region_fact(q.fact)->diff;
    if (q.counts_by_kind) {
      for (const auto& [kind, by_kind] : q.by_kind)
        add_quantity(per_region, how.label + " " + kind, by_kind, 1);
      continue;
    }
    add_quantity(per_region, how.name, q.quantity, measured_per_unit(how.unit));
  }

  Rows classes({"class", "a_count", "b_count", "a_time_us", "b_time_us", "delta_us", "changed"});
  for (const ClassDiff& c : d.classes)
    classes.add({py::str(std::string(kernel_class_id(c.kernel_class))),
                 py::float_(c.count.a.median), py::float_(c.count.b.median),
                 py::float_(c.time_ns.a.median / 1000), py::float_(c.time_ns.b.median / 1000),
                 py::float_(c.time_ns.delta / 1000),
                 py::bool_(c.count.changed || c.time_ns.changed)});

  Rows activities({"change", "class", "kind", "short_name", "name", "a_duration_us",
                   "b_duration_us", "what_changed"});
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const ActivityDiff& x : d.activities) {
    const ActivityRow& row = x.b ? x.b->row : x.a->row;
    std::string what;
    for (ActivityAspect w : x.what_changed) {
      if (!what.empty()) what += ", ";
      what += activity_aspect_id(w);
    }
    activities.add({py::str(activity_change_id(x.change)),
                    py::str(std::string(kernel_class_id(x.kernel_class))),
                    py::str(row.kind == ActivityKind::kKernel   ? "kernel"
                            : row.kind == ActivityKind::kMemcpy ? "memcpy"
                                                                : "memset"),
                    py::str(row.short_name), py::str(row.name),
                    py::float_(x.a ? x.a->duration_ns.median / 1000 : nan),
                    py::float_(x.b ? x.b->duration_ns.median / 1000 : nan), py::str(what)});
  }
  py::dict out;
  out["a"] = d.a.path;
  out["b"] = d.b.path;
  out["unlike"] = d.unlike;
  const auto view = [](const std::vector<DiffRow>& rows) {
    Rows table({"name", "full_names", "a_ran", "b_ran", "a_count", "b_count", "a_us", "b_us",
                "delta_us", "delta_pct", "threshold_us", "beyond_noise"});
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (const DiffRow& r : rows) {
      std::string names;
      for (const std::string& n : r.full_names) names += (names.empty() ? "" : "; ") + n;
      table.add({py::str(r.name), py::str(names), py::str(r.a_detail), py::str(r.b_detail),
                 py::float_(r.a_count), py::float_(r.b_count), py::float_(r.a_ns / 1000),
                 py::float_(r.b_ns / 1000), py::float_(r.delta_ns / 1000),
                 py::float_(r.delta_pct().value_or(nan)), py::float_(r.threshold_ns / 1000),
                 py::bool_(r.changed)});
    }
    return table.columns();
  };
  out["by_kernel"] = view(d.views.by_kernel);
  out["by_op"] = view(d.views.by_op);
  out["by_module"] = view(d.views.by_module);
  out["attention"] = view(d.views.attention);
  auto explained = [&view](const Explanation& e) {
    py::dict d;
    d["view"] = explained_by_id(e.view);
    d["a_us"] = e.total_a_ns / 1000;
    d["b_us"] = e.total_b_ns / 1000;
    d["delta_us"] = e.total_delta_ns / 1000;
    d["beyond_noise"] = e.total_changed;
    d["covered_pct"] = e.covered_pct;
    d["rows"] = view(e.rows);
    return d;
  };
  out["explained_gpu"] = explained(d.explained_gpu);
  // None where a region of either side has no critical path.
  out["explained_wall"] =
      d.explained_wall ? py::object(explained(*d.explained_wall)) : py::object(py::none());
  out["changed_only_in"] = d.changed_only_in;
  out["aligned_in_order"] = d.aligned_in_order;
  out["per_region"] = per_region.columns();
  out["classes"] = classes.columns();
  out["activities"] = activities.columns();
  return out;
}

// attnprof check TARGET: the expectations' results, one row per expectation (per variant of a
// study). An expression that does not parse raises ValueError with the CLI's words.
py::dict check(const std::string& target, const std::vector<std::string>& expressions,
               const std::string& expectations_file, const std::string& region,
               const std::string& baseline) {
  CheckRequest request;
  request.target = target;
  request.region = region;
  request.expectations_file = expectations_file;
  request.baseline = baseline;
  auto parsed = parse_expressions(expressions);
  if (const auto* e = std::get_if<ExpressionError>(&parsed))
    throw py::value_error("expect: " + e->description);
  request.expressions = std::get<std::vector<Expectation>>(std::move(parsed));
  Result<CheckRun> run = [&] {
    py::gil_scoped_release unlocked;
    return run_check(request);
  }();
  if (!run.ok()) return failure(run.error());
  Rows results({"trace", "variant", "expression", "source", "holds", "actual"});
  for (const CheckReport& report : run->reports)
    for (const ExpectationResult& r : report.results)
      results.add({py::str(report.analysis.path), py::str(report.variant), py::str(r.text),
                   py::str(r.source), py::bool_(r.holds), py::str(r.actual)});
  py::dict out;
  out["passed"] = run->holds();
  out["results"] = results.columns();
  out["unchecked"] = run->unchecked_lines();
  return out;
}

OutputFormat report_format(const std::string& format) {
  const std::optional<OutputFormat> f = parse_output_format(format);
  if (f == OutputFormat::kHtml || f == OutputFormat::kMarkdown || f == OutputFormat::kText ||
      f == OutputFormat::kHeadline)
    return *f;
  throw py::value_error("format must be html, md, text or headline, not '" + format + "'");
}

// attnprof report INPUTS: the page or table as text, or written to `output` (whole or not at
// all, never over an input) when it is not empty, then "".
py::object report(const std::vector<std::string>& inputs, const std::string& format,
                  const std::string& region, const std::string& output, bool wide) {
  // As the CLI writes to a file or a pipe: within 120 columns unless wide.
  const size_t width = wide ? 0 : kDefaultTextWidth;
  const OutputFormat chosen = report_format(format);
  ReportOptions options;
  options.region_pattern = region;
  if (!output.empty()) {
    if (Status refused = refuse_output_over_inputs(output, inputs); !refused.ok())
      return failure(refused.error());
    Status written = [&] {
      py::gil_scoped_release unlocked;
      return write_report(inputs, options, chosen, output, width);
    }();
    if (!written.ok()) return failure(written.error());
    return py::str("");
  }
  Result<std::string> made = [&] {
    py::gil_scoped_release unlocked;
    return report_output(inputs, options, chosen, width);
  }();
  if (!made.ok()) return failure(made.error());
  return py::str(*made);
}

}  // namespace

void add_command_bindings(py::module_& m) {
  m.def("diff", &diff, py::arg("a"), py::arg("b"), py::arg("region") = "",
        "What changed from trace A to trace B, as `attnprof diff` says it");
  m.def("check", &check, py::arg("target"), py::arg("expressions"),
        py::arg("expectations_file") = "", py::arg("region") = "", py::arg("baseline") = "",
        "Expectations checked against a trace or a study folder, as `attnprof check`");
  m.def("report", &report, py::arg("inputs"), py::arg("format"), py::arg("region") = "",
        py::arg("output") = "", py::arg("wide") = false,
        "The report of a run folder or traces, as `attnprof report`");
}

}  // namespace attnprof::python
