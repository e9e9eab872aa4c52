#include "study/render/report_table.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analysis/headline.h"
#include "base/format_units.h"
#include "render/fact_cells.h"
#include "study/render/study_columns.h"

namespace attnprof {

namespace {

// Findings that explain time first (a copy, an upcast, unfused kernels), then those that only
// describe how a kernel is built (persistent, cuLaunchKernelEx, occupancy by design): the
// renderers fold the latter away (tests/report_test.cpp). Stable, so each group keeps the rules'
// order.
std::vector<ReportNote> rank_notes(std::vector<ReportNote> notes) {
  std::stable_partition(notes.begin(), notes.end(),
                        [](const ReportNote& n) { return is_actionable_finding(n.id); });
  return notes;
}

constexpr const char* kNone = kNoCell;

ReportTable run_table(const ReportData& data, size_t index) {
  const RunPoint& point = data.run->points[index];
  ReportTable table;
  table.heading = study_heading(point);
  table.focus = static_cast<int>(index) == data.focus_point;
  StudyTable study =
      study_table(point.variants, {point.problem.backward, point.memory_bound}, CellWidth::kFull);
  table.header = std::move(study.header);
  table.numeric = std::move(study.numeric);
  table.kernel_names = std::move(study.kernel_names);
  table.statuses = std::move(study.statuses);
  for (size_t r = 0; r < point.variants.size(); ++r) {
    const RunVariant& v = point.variants[r];
    std::vector<ReportNote> notes;
    if (v.forward) {
      for (const RunFinding& finding : v.forward->findings)
        notes.push_back({finding.id, finding.summary, finding.suggestion});
    }
    const auto& problem = data.conclusions.problem_findings;
    if (index < problem.size() && r < problem[index].size())
      for (const RunFinding& finding : problem[index][r])
        notes.push_back({finding.id, finding.summary, finding.suggestion});
    table.variants.push_back(variant_label(v));
    table.rows.push_back(std::move(study.rows[r]));
    table.notes.push_back(rank_notes(std::move(notes)));
  }
  return table;
}

ReportTable trace_table(const ReportData& data) {
  ReportTable table;
  table.focus = true;
  // Each column's header, whether it holds numbers, and whether kernel names.
  struct TraceColumn {
    const char* header;
    bool numeric, kernel_names;
  };
  constexpr TraceColumn kColumns[] = {
      {"trace", false, false},    {"regions", true, false},     {"kernels", true, false},
      {"memcpy", true, false},    {"memset", true, false},      {"GPU busy", true, false},
      {"wall", true, false},      {"CPU", true, false},         {"main kernel", false, true},
      {"occupancy", true, false}, {"launch API", false, false},
  };
  for (const TraceColumn& column : kColumns) {
    table.header.emplace_back(column.header);
    table.numeric.push_back(column.numeric);
    table.kernel_names.push_back(column.kernel_names);
    table.statuses.push_back(false);
  }
  for (const ReportVariant& v : data.variants) {
    std::vector<std::string> cells(table.header.size(), kNone);
    std::vector<ReportNote> notes;
    cells[0] = v.name;
    if (v.analysis) {
      const TraceAnalysis& a = *v.analysis;
      const RegionFacts& m = a.facts;
      cells[1] = std::to_string(a.regions.size());
      cells[2] = kernels_cell(m);
      cells[3] = memcpy_cell(m);
      cells[4] = format_count(m.memset.median);
      cells[5] = format_duration(m.gpu_busy_ns.median);
      cells[6] = format_duration(m.wall_ns.median);
      cells[7] = cpu_time_cell(m);
      if (m.main_kernel) {
        cells[8] = main_kernel_cell(m);
        cells[9] = occupancy_cell(m);
        cells[10] = launch_api_cell(m);
      }
      for (const Finding& f : a.findings)
        notes.push_back({std::string(finding_id(f.kind)), f.summary, f.suggestion});
    }
    table.variants.push_back(v.name);
    table.rows.push_back(std::move(cells));
    table.notes.push_back(rank_notes(std::move(notes)));
  }
  return table;
}

}  // namespace

std::vector<ReportTable> report_tables(const ReportData& data) {
  std::vector<ReportTable> tables;
  if (data.run) {
    for (size_t i = 0; i < data.run->points.size(); ++i) tables.push_back(run_table(data, i));
  } else {
    tables.push_back(trace_table(data));
  }
  return tables;
}

std::vector<ReportTable> backward_tables(const ReportData& data) {
  std::vector<ReportTable> tables;
  if (!data.backward) return tables;
  ReportData backward;  // run_table reads a run's points from its ReportData; no timelines
  backward.run = data.backward->run;
  backward.conclusions = data.backward->conclusions;
  for (size_t i = 0; i < backward.run->points.size(); ++i) {
    ReportTable table = run_table(backward, i);
    // Each row's notes: the findings of its forward regions, then of its backward ones.
    const RunPoint& point = backward.run->points[i];
    for (size_t r = 0; r < point.variants.size() && r < table.notes.size(); ++r) {
      if (!point.variants[r].backward) continue;
      for (const RunFinding& f : point.variants[r].backward->findings)
        table.notes[r].push_back({f.id, "in the backward: " + f.summary, f.suggestion});
      table.notes[r] = rank_notes(std::move(table.notes[r]));
    }
    tables.push_back(std::move(table));
  }
  return tables;
}

std::vector<ReportTable> beside_tables(const ReportBeside& beside) {
  std::vector<ReportTable> tables;
  ReportData run;  // run_table reads a run's points from its ReportData; no timelines
  run.run = beside.run;
  run.conclusions = beside.conclusions;
  for (size_t i = 0; i < beside.run.points.size(); ++i) tables.push_back(run_table(run, i));
  return tables;
}

std::vector<std::string> methods_beside(const ReportData& data, const ReportBeside& beside) {
  std::vector<std::string> notes;
  for (const std::string& m : beside.run.methods) {
    const bool shared = data.run && std::find(data.run->methods.begin(), data.run->methods.end(),
                                              m) != data.run->methods.end();
    if (!shared) notes.push_back(m);
  }
  return notes;
}

std::string environment_line(const ReportData& data) {
  if (data.run) {
    const RunSummary& r = *data.run;
    std::string line = r.device;
    if (r.sm_count > 0) {
      std::string sm = r.compute_capability;
      sm.erase(std::remove(sm.begin(), sm.end(), '.'), sm.end());
      line += fmt::format(" ({} SMs, sm_{}, {})", r.sm_count, sm, format_bytes(r.memory_bytes));
    }
    if (!r.torch.empty()) line += ", torch " + r.torch;
    if (!r.cuda_runtime.empty()) line += ", CUDA " + r.cuda_runtime;
    if (!r.cudnn.empty()) line += ", cuDNN " + r.cudnn;
    return line;
  }
  std::set<std::string> devices;
  for (const ReportVariant& v : data.variants) {
    if (!v.analysis) continue;
    for (const DeviceSummary& d : v.analysis->devices) {
      devices.insert(fmt::format("{} ({})", d.name, d.description));
    }
  }
  std::string line;
  for (const std::string& d : devices) line += (line.empty() ? "" : "; ") + d;
  return line;
}

bool is_actionable_finding(const std::string& id) {
  return finding_explains_time(id);
}

}  // namespace attnprof
