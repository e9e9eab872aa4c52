// `attnprof diff --format csv`: one row per entry of a view (--table by_kernel, by_op, by_module,
// attention), or, by default, one row per activity of the aligned typical regions
// (docs/check-and-diff.md): what happened to it, its columns (render/activity_csv.h: B's activity,
// or A's when removed), and its median duration over the regions of A and of B.

#include <string>

#include "analysis/kernels/kernel_class.h"
#include "render/activity_csv.h"
#include "render/csv_writer.h"
#include "render/diff/diff_output.h"
#include "render/diff/diff_views_output.h"

namespace attnprof {

namespace {

std::string activities_csv(const TraceDiff& diff) {
  std::vector<std::string_view> header{"change", "class", "what_changed"};
  const auto& activity = activity_csv_header();
  header.insert(header.end(), activity.begin(), activity.end());
  for (std::string_view column : {"a_duration_median_us", "b_duration_median_us", "delta_us"})
    header.push_back(column);
  CsvWriter csv(header);
  for (const ActivityDiff& x : diff.activities) {
    csv.text(activity_change_id(x.change)).text(kernel_class_id(x.kernel_class));
    std::string what;
    for (ActivityAspect w : x.what_changed) {
      if (!what.empty()) what += "; ";
      what += activity_aspect_id(w);
    }
    csv.text(what);
    activity_csv_fields(csv, x.b ? x.b->row : x.a->row);
    const auto median_us = [](const std::optional<TracedActivity>& t) -> std::optional<double> {
      if (!t) return std::nullopt;
      return t->duration_ns.median / 1000.0;
    };
    const std::optional<double> a = median_us(x.a), b = median_us(x.b);
    csv.number(a).number(b);
    csv.number(a && b ? std::optional<double>(*b - *a) : std::nullopt);
    csv.end_row();
  }
  return csv.take();
}

}  // namespace

std::string render_diff_csv(const TraceDiff& diff, DiffCsvTable table) {
  switch (table) {
    case DiffCsvTable::kByKernel:
      return csv_diff_view(diff, DiffView::kByKernel);
    case DiffCsvTable::kByOp:
      return csv_diff_view(diff, DiffView::kByOp);
    case DiffCsvTable::kByModule:
      return csv_diff_view(diff, DiffView::kByModule);
    case DiffCsvTable::kAttention:
      return csv_diff_view(diff, DiffView::kAttention);
    case DiffCsvTable::kActivities:
      break;
  }
  return activities_csv(diff);
}

}  // namespace attnprof
