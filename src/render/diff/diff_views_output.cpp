#include "render/diff/diff_views_output.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/csv_writer.h"
#include "render/display_text.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

std::string pct_cell(const DiffRow& row) {
  const auto pct = row.delta_pct();
  return pct ? fmt::format("{:+.1f}%", *pct) : std::string("new");
}

// Names in a text table are cut to this many columns; the JSON and CSV keep them whole.
constexpr size_t kNameColumns = 46;
constexpr size_t kRanColumns = 36;
constexpr size_t kHeadlineNameColumns = 40;

// What a side's region is called in words: a step for the profiler's steps, else a region.
std::string region_word(const TraceSide& s) {
  if (s.region_pattern.find("ProfilerStep") != std::string::npos) return "step";
  return s.region_pattern.empty() ? "trace" : "region";
}

std::string plural(size_t n, std::string_view noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string plural(size_t n, std::string_view one, std::string_view many) {
  return fmt::format("{} {}", n, n == 1 ? one : many);
}

// A text table: names aligned left, numbers right, each column as wide as its widest cell.
class AlignedRows {
 public:
  // The first `left` columns and the last are aligned left, the others right.
  explicit AlignedRows(size_t left = 1) : left_(left) {}
  void add(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  void write(std::string& out) const {
    std::vector<size_t> width;
    for (const auto& row : rows_)
      for (size_t c = 0; c < row.size(); ++c) {
        if (width.size() <= c) width.push_back(0);
        width[c] = std::max(width[c], display_width(row[c]));
      }
    for (const auto& row : rows_) {
      std::string line = "  ";
      for (size_t c = 0; c < row.size(); ++c) {
        const std::string pad(width[c] - display_width(row[c]), ' ');
        line += c < left_ || c + 1 == row.size() ? row[c] + pad : pad + row[c];
        line += "  ";
      }
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
  }

 private:
  size_t left_;
  std::vector<std::vector<std::string>> rows_;
};

// "unfused bf16 -> flash bf16", or one side's alone where they agree; "-" for a side without
// such calls.
std::string ran_words(const DiffRow& r) {
  if (r.a_detail == r.b_detail) return r.a_detail;
  return fmt::format("{} -> {}", r.a_detail.empty() ? "-" : r.a_detail,
                     r.b_detail.empty() ? "-" : r.b_detail);
}

}  // namespace

// fmt, not `"+" + string`: g++ 12 at -O3 warns (-Wrestrict) about the latter, wrongly.
std::string signed_us(double ns) {
  return fmt::format("{}{}", ns > 0 ? "+" : "", format_us(ns));
}

std::string signed_count(double v) {
  return fmt::format("{}{}", v > 0 ? "+" : "", format_count(v));
}

std::string per_call(double ns, double calls) {
  return calls > 0 ? format_us(ns / calls) : std::string();
}

const std::vector<DiffRow>& diff_view(const DiffViews& views, DiffView view) {
  switch (view) {
    case DiffView::kByOp:
      return views.by_op;
    case DiffView::kByModule:
      return views.by_module;
    case DiffView::kAttention:
      return views.attention;
    case DiffView::kByKernel:
      break;
  }
  return views.by_kernel;
}

std::vector<std::string> diff_headline(const TraceDiff& d) {
  std::vector<std::string> lines;
  const std::string word = region_word(d.b);
  // The wall time and the peak memory in words, where the traces have them.
  const FactDiff* wall_time = d.find("wall_us");
  const FactDiff* peak_memory = d.find("peak_allocated_bytes");
  if (wall_time && wall_time->quantity.a.median > 0) {
    const QuantityDiff& wall = wall_time->quantity;
    const double pct = 100.0 * wall.delta / wall.a.median;
    if (wall.changed)
      lines.push_back(fmt::format("B's {} is {:.1f} % {} than A's (wall {} µs -> {} µs, median).",
                                  word, std::fabs(pct), pct < 0 ? "shorter" : "longer",
                                  format_us(wall.a.median), format_us(wall.b.median)));
    else
      lines.push_back(fmt::format("B's {} takes as long as A's within noise (wall {} µs -> {} µs).",
                                  word, format_us(wall.a.median), format_us(wall.b.median)));
  }
  if (peak_memory && peak_memory->quantity.a.median > 0) {
    const QuantityDiff& peak = peak_memory->quantity;
    const auto at = [](const std::string& op) {
      return op.empty() ? std::string() : " at " + clip(op, kHeadlineNameColumns);
    };
    lines.push_back(fmt::format("Peak CUDA memory allocated: {} MiB{} -> {} MiB{} ({:+.1f} %, {}).",
                                format_count(std::round(peak.a.median * 10) / 10), at(d.a_peak_op),
                                format_count(std::round(peak.b.median * 10) / 10), at(d.b_peak_op),
                                100.0 * peak.delta / peak.a.median,
                                peak.changed ? "beyond noise" : "within noise"));
  }
  // What held the steps first (the wall time is the step's), then the GPU's work.
  if (d.explained_wall && !d.explained_wall->rows.empty()) {
    const Explanation& w = *d.explained_wall;
    std::string rows;
    for (const DiffRow& row : w.rows)
      rows += fmt::format("{}{} {} µs", rows.empty() ? "" : ", ",
                          clip(row.name, kHeadlineNameColumns), signed_us(row.delta_ns));
    lines.push_back(fmt::format(
        "{:.0f} % of the wall change on the critical path ({} µs per {}, {}) is in {}: {}.",
        w.covered_pct, signed_us(w.total_delta_ns), word,
        w.total_changed ? "beyond noise" : "within noise",
        w.view == ExplainedBy::kPathByCategory
            ? plural(w.rows.size(), "category", "categories")
            : plural(w.rows.size(), "kernel or op", "kernels or ops"),
        rows));
  }
  const Explanation& e = d.explained_gpu;
  if (e.rows.empty()) {
    lines.push_back(fmt::format("GPU busy time per {}: {} µs -> {} µs; no op or kernel moves it.",
                                word, format_us(e.total_a_ns), format_us(e.total_b_ns)));
    return lines;
  }
  std::string rows;
  for (const DiffRow& row : e.rows)
    rows += fmt::format("{}{} {} µs", rows.empty() ? "" : ", ",
                        clip(row.name, kHeadlineNameColumns), signed_us(row.delta_ns));
  lines.push_back(fmt::format(
      "{:.0f} % of the GPU busy change ({} µs per {}, {}) is in {}: {}.", e.covered_pct,
      signed_us(e.total_delta_ns), word, e.total_changed ? "beyond noise" : "within noise",
      plural(e.rows.size(), e.view == ExplainedBy::kByOp ? "op" : "kernel"), rows));
  return lines;
}

std::string changed_only_words(const TraceDiff& d) {
  std::vector<std::pair<std::string, int>> list(d.changed_only_in.begin(), d.changed_only_in.end());
  std::stable_sort(list.begin(), list.end(),
                   [](const auto& x, const auto& y) { return x.second > y.second; });
  std::string out;
  for (const auto& [what, count] : list)
    out += out.empty() ? fmt::format("{} changed only in {}", plural(count, "kernel"), what)
                       : fmt::format("; {} only in {}", count, what);
  return out;
}

void text_diff_views(std::string& out, const TraceDiff& d, size_t top) {
  for (const DiffViewName& v : kDiffViewNames) {
    const std::vector<DiffRow>& rows = diff_view(d.views, v.view);
    if (rows.empty()) continue;
    const size_t shown = std::min(top, rows.size());
    put(out, "\n{}, per region (mean), largest change first{}:\n", v.title,
        shown < rows.size() ? fmt::format(" ({} of {})", shown, rows.size()) : "");
    AlignedRows table(v.view == DiffView::kAttention ? 2 : 1);
    if (v.view == DiffView::kAttention)
      table.add({"call", "ran (A -> B)", "calls", "A µs/call", "B µs/call", "B - A µs", ""});
    else
      table.add({std::string(v.noun), "A n", "B n", "A µs", "B µs", "B - A µs", "", ""});
    for (size_t i = 0; i < shown; ++i) {
      const DiffRow& r = rows[i];
      const std::string verdict = r.changed ? "changed" : "";
      if (v.view == DiffView::kAttention)
        table.add({clip(r.name, kNameColumns), clip(ran_words(r), kRanColumns),
                   format_count(r.a_count) + "/" + format_count(r.b_count),
                   per_call(r.a_ns, r.a_count), per_call(r.b_ns, r.b_count), signed_us(r.delta_ns),
                   verdict});
      else
        table.add({clip(r.name, kNameColumns), format_count(r.a_count), format_count(r.b_count),
                   format_us(r.a_ns), format_us(r.b_ns), signed_us(r.delta_ns), pct_cell(r),
                   verdict});
    }
    table.write(out);
  }
}

void markdown_diff_views(std::string& out, const TraceDiff& d, size_t top) {
  for (const DiffViewName& v : kDiffViewNames) {
    const std::vector<DiffRow>& rows = diff_view(d.views, v.view);
    if (rows.empty()) continue;
    const size_t shown = std::min(top, rows.size());
    put(out, "\n**{}**, per region (mean), largest change first{}:\n\n", v.title,
        shown < rows.size() ? fmt::format(" ({} of {})", shown, rows.size()) : "");
    if (v.view == DiffView::kAttention) {
      put(out, "| call | A ran | B ran | A n | B n | A µs/call | B µs/call | B − A µs | | |\n");
      put(out, "|---|---|---|---:|---:|---:|---:|---:|---:|---|\n");
    } else {
      put(out, "| {} | A n | B n | A µs | B µs | B − A µs | | |\n", v.noun);
      put(out, "|---|---:|---:|---:|---:|---:|---:|---|\n");
    }
    for (size_t i = 0; i < shown; ++i) {
      const DiffRow& r = rows[i];
      const char* verdict = r.changed ? "**changed**" : "";
      if (v.view == DiffView::kAttention)
        put(out, "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(r.name),
            markdown_cell(r.a_detail), markdown_cell(r.b_detail), format_count(r.a_count),
            format_count(r.b_count), per_call(r.a_ns, r.a_count), per_call(r.b_ns, r.b_count),
            signed_us(r.delta_ns), pct_cell(r), verdict);
      else
        put(out, "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            markdown_code(clip(r.name, 2 * kNameColumns)), format_count(r.a_count),
            format_count(r.b_count), format_us(r.a_ns), format_us(r.b_ns), signed_us(r.delta_ns),
            pct_cell(r), verdict);
    }
  }
}

namespace {

void json_row(JsonWriter& w, const DiffRow& r, DiffView view) {
  w.begin_object();
  w.key("name").string(r.name);
  if (view == DiffView::kByKernel) {
    w.key("full_names").begin_array();
    for (const std::string& name : r.full_names) w.string(name);
    w.end_array();
  }
  if (view == DiffView::kAttention) {
    w.key("a_ran").string(r.a_detail);
    w.key("b_ran").string(r.b_detail);
  }
  w.key("a_count").number(r.a_count);
  w.key("b_count").number(r.b_count);
  w.key("a_us").number(r.a_ns / 1000);
  w.key("b_us").number(r.b_ns / 1000);
  w.key("delta_us").number(r.delta_ns / 1000);
  w.key("delta_pct");
  if (const auto pct = r.delta_pct())
    w.number(*pct);
  else
    w.null();
  w.key("threshold_us").number(r.threshold_ns / 1000);
  w.key("beyond_noise").boolean(r.changed);
  w.end_object();
}

void json_explanation(JsonWriter& w, const Explanation& e) {
  w.begin_object();
  w.key("view").string(explained_by_id(e.view));
  w.key("a_us").number(e.total_a_ns / 1000);
  w.key("b_us").number(e.total_b_ns / 1000);
  w.key("delta_us").number(e.total_delta_ns / 1000);
  w.key("beyond_noise").boolean(e.total_changed);
  w.key("covered_pct").number(e.covered_pct);
  w.key("rows").begin_array();
  for (const DiffRow& r : e.rows) {
    w.begin_object();
    w.key("name").string(r.name);
    w.key("delta_us").number(r.delta_ns / 1000);
    w.end_object();
  }
  w.end_array();
  w.end_object();
}

}  // namespace

void json_diff_views(JsonWriter& w, const TraceDiff& d) {
  w.key("explained_by").begin_object();
  w.key("gpu_busy");
  json_explanation(w, d.explained_gpu);
  w.key("wall");
  if (d.explained_wall)
    json_explanation(w, *d.explained_wall);
  else
    w.null();
  w.end_object();
  for (const DiffViewName& v : kDiffViewNames) {
    w.key(v.id).begin_array();
    for (const DiffRow& r : diff_view(d.views, v.view)) json_row(w, r, v.view);
    w.end_array();
  }
  w.key("changed_only_in").begin_object();
  for (const auto& [what, count] : d.changed_only_in) w.key(what).number(count);
  w.end_object();
}

std::string csv_diff_view(const TraceDiff& d, DiffView view) {
  std::vector<std::string_view> header{"name"};
  if (view == DiffView::kByKernel) header.push_back("full_names");
  if (view == DiffView::kAttention) {
    header.push_back("a_ran");
    header.push_back("b_ran");
  }
  for (std::string_view column : {"a_count", "b_count", "a_us", "b_us", "delta_us", "delta_pct",
                                  "threshold_us", "beyond_noise"})
    header.push_back(column);
  CsvWriter csv(header);
  for (const DiffRow& r : diff_view(d.views, view)) {
    csv.text(r.name);
    if (view == DiffView::kByKernel) {
      std::string names;
      for (const std::string& n : r.full_names) names += (names.empty() ? "" : "; ") + n;
      csv.text(names);
    }
    if (view == DiffView::kAttention) csv.text(r.a_detail).text(r.b_detail);
    csv.number(r.a_count).number(r.b_count).number(r.a_ns / 1000).number(r.b_ns / 1000);
    csv.number(r.delta_ns / 1000).number(r.delta_pct()).number(r.threshold_ns / 1000);
    csv.text(r.changed ? "true" : "false");
    csv.end_row();
  }
  return csv.take();
}

}  // namespace attnprof
