// `attnprof diff` output, in the order every format keeps: what changed in words (the wall time,
// the rows that hold most of the GPU busy change), the per-region totals of A and B, GPU time per
// kernel class, the views (render/diff/diff_views_output.h), the launch shapes that changed while
// the time held, and the typical regions' activities aligned, each added, removed or changed one
// with its op chain (text and Markdown: with --activities only).

#include <algorithm>
#include <array>
#include <cmath>

#include <fmt/format.h>

#include "analysis/kernels/kernel_class.h"
#include "base/format_units.h"
#include "render/diff/diff_output.h"
#include "render/diff/diff_quantity.h"
#include "render/diff/diff_views_output.h"
#include "render/display_text.h"
#include "render/fact_label.h"
#include "render/json_activity.h"
#include "render/json_writer.h"
#include "render/markdown_kernel_names.h"
#include "render/op_words.h"
#include "render/region_words.h"
#include "render/spread_words.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

// "+12.1%", or "" when A's median is 0.
std::string relative(const QuantityDiff& q) {
  if (q.a.median == 0) return "";
  return fmt::format("{:+.1f}%", 100.0 * q.delta / q.a.median);
}

std::string time_delta(const QuantityDiff& q) {
  std::string r = relative(q);
  return signed_us(q.delta) + (r.empty() ? "" : " (" + r + ")");
}

std::string time_verdict(const QuantityDiff& q) {
  return q.changed ? fmt::format("changed (beyond {})", format_us(q.threshold))
                   : fmt::format("within noise ({})", format_us(q.threshold));
}

std::string side_words(const TraceSide& s) {
  return fmt::format("{}: {}", escape_control(s.path),
                     describe_regions(s.regions, s.region_pattern));
}

std::string typical_words(const TraceSide& s) {
  return fmt::format("#{} {}", s.typical_region + 1, escape_control(s.typical_region_name));
}

// The diff's mark (as in a unified diff) and JSON word for each change, in the enum's order.
struct ChangeWords {
  const char* mark;
  const char* id;
};
constexpr ChangeWords kChangeWords[] = {
    {" ", "same"}, {"~", "changed"}, {"+", "added"}, {"-", "removed"}};

const char* change_mark(ActivityChange c) {
  return kChangeWords[static_cast<size_t>(c)].mark;
}
const char* change_id(ActivityChange c) {
  return kChangeWords[static_cast<size_t>(c)].id;
}

const ActivityRow& row_of(const ActivityDiff& d) {
  return d.a ? d.a->row : d.b->row;
}

// One phrase per changed aspect of a matched pair: (what, A's, B's).
struct Detail {
  std::string what, a, b;
};

std::vector<Detail> details(const ActivityDiff& d, const char* arrow) {
  std::vector<Detail> out;
  const ActivityRow& a = d.a->row;
  const ActivityRow& b = d.b->row;
  for (ActivityAspect aspect : d.what_changed) {
    const std::string what = activity_aspect_id(aspect);
    switch (aspect) {
      case ActivityAspect::kDuration:
        out.push_back(
            {what, format_us(d.duration->a.median) + " µs",
             fmt::format("{} µs ({} µs{}; noise threshold {} µs)", format_us(d.duration->b.median),
                         signed_us(d.duration->delta),
                         relative(*d.duration).empty() ? "" : ", " + relative(*d.duration),
                         format_us(d.duration->threshold))});
        break;
      case ActivityAspect::kLaunchApi:
        out.push_back({what, escape_control(a.launch_api), escape_control(b.launch_api)});
        break;
      case ActivityAspect::kOpChain:
        out.push_back({what, launch_chain(a.op_chain, a.launch_api, arrow),
                       launch_chain(b.op_chain, b.launch_api, arrow)});
        break;
      case ActivityAspect::kGrid:
        out.push_back({what, format_dim3(a.grid), format_dim3(b.grid)});
        break;
      case ActivityAspect::kBlock:
        out.push_back({what, format_dim3(a.block), format_dim3(b.block)});
        break;
      case ActivityAspect::kRegisters:
        out.push_back({what, format_known_count(a.registers_per_thread),
                       format_known_count(b.registers_per_thread)});
        break;
      case ActivityAspect::kSharedMemory:
        out.push_back(
            {what, format_size(a.shared_memory_bytes), format_size(b.shared_memory_bytes)});
        break;
      case ActivityAspect::kBytes:
        out.push_back({what, format_size(a.bytes), format_size(b.bytes)});
        break;
      case ActivityAspect::kFullName:
        out.push_back({what, clip(a.name, 100), clip(b.name, 100)});
        break;
    }
  }
  return out;
}

// Long runs of unchanged activities are folded, as a unified diff folds unchanged lines.
constexpr size_t kContext = 3;

template <typename Emit, typename Fold>
void walk_activities(const TraceDiff& d, Emit emit, Fold fold) {
  const auto& list = d.activities;
  for (size_t i = 0; i < list.size();) {
    size_t run = 0;
    while (i + run < list.size() && list[i + run].change == ActivityChange::kSame) ++run;
    if (run > 2 * kContext + 1) {
      size_t head = i == 0 ? 0 : kContext;
      size_t tail = i + run == list.size() ? 0 : kContext;
      for (size_t k = 0; k < head; ++k) emit(list[i + k]);
      fold(run - head - tail);
      for (size_t k = run - tail; k < run; ++k) emit(list[i + k]);
      i += run;
    } else if (run > 0) {
      for (size_t k = 0; k < run; ++k) emit(list[i + k]);
      i += run;
    } else {
      emit(list[i++]);
    }
  }
}

std::string summary_words(const TraceDiff& d) {
  return fmt::format("{} removed, {} added, {} changed, {} unchanged", d.removed, d.added,
                     d.changed, d.unchanged);
}

// --- text -------------------------------------------------------------------------------------

// The rows of a text table, written once all are known so that each column is as wide as its
// widest cell: a value of any width keeps the columns aligned (they stopped lining up
// past 6 digits), and narrow values leave the row within 120 columns.
class TextRows {
 public:
  void add(std::string label, std::string a, std::string b, std::string delta,
           std::string verdict) {
    rows_.push_back(
        {std::move(label), std::move(a), std::move(b), std::move(delta), std::move(verdict)});
  }
  void write(std::string& out) const {
    std::array<size_t, 4> width = {0, 0, 0, 0};
    for (const auto& row : rows_)
      for (size_t c = 0; c < width.size(); ++c)
        width[c] = std::max(width[c], display_width(row[c]));
    for (const auto& row : rows_) {
      std::string line = "  ";
      for (size_t c = 0; c < width.size(); ++c)
        line += row[c] + std::string(width[c] - display_width(row[c]) + 1, ' ');
      line += row[4];
      line.erase(line.find_last_not_of(' ') + 1);
      out += line + "\n";
    }
  }

 private:
  std::vector<std::array<std::string, 5>> rows_;
};

void text_count_row(TextRows& rows, const std::string& label, const QuantityDiff& q) {
  rows.add(label, format_spread_count(q.a), format_spread_count(q.b), signed_count(q.delta),
           q.changed ? "changed" : "");
}

void text_time_row(TextRows& rows, const std::string& label, const QuantityDiff& q) {
  rows.add(label, format_spread_us(q.a), format_spread_us(q.b), time_delta(q), time_verdict(q));
}

// The durations' column width: 9, or the widest duration of the listed activities.
size_t duration_width(const TraceDiff& d) {
  size_t width = 9;
  for (const ActivityDiff& x : d.activities)
    for (const auto* side : {&x.a, &x.b})
      if (*side) width = std::max(width, format_us((*side)->duration_ns.median).size());
  return width;
}

void text_activity(std::string& out, const ActivityDiff& d, size_t width) {
  const ActivityRow& row = row_of(d);
  put(out, "  {} {:>{}} {:>{}}  {}\n", change_mark(d.change),
      d.a ? format_us(d.a->duration_ns.median) : "", width,
      d.b ? format_us(d.b->duration_ns.median) : "", width, clip(row.short_name, 72));
  // Under the activity's name.
  const std::string kIndent(2 * width + 7, ' ');
  if (d.change == ActivityChange::kAdded || d.change == ActivityChange::kRemoved) {
    put(out, "{}{}\n", kIndent, launch_chain(row.op_chain, row.launch_api));
    return;
  }
  for (const auto& x : details(d, " -> ")) {
    put(out, "{}{:<14} A: {}\n", kIndent, x.what, x.a);
    put(out, "{}{:<14} B: {}\n", kIndent, "", x.b);
  }
}

// --- JSON -------------------------------------------------------------------------------------

void json_quantity(JsonWriter& w, const QuantityDiff& q, double divisor) {
  w.begin_object();
  w.key("a");
  write_json_spread(w, q.a, divisor);
  w.key("b");
  write_json_spread(w, q.b, divisor);
  w.key("delta").number(q.delta / divisor);
  w.key("threshold").number(q.threshold / divisor);
  w.key("changed").boolean(q.changed);
  w.end_object();
}

void json_side(JsonWriter& w, const TraceSide& s) {
  w.begin_object();
  w.key("path").string(s.path);
  w.key("region_pattern").string(s.region_pattern);
  w.key("regions").number(s.regions);
  w.key("typical_region").number(s.typical_region);
  w.key("typical_region_name").string(s.typical_region_name);
  w.end_object();
}

void json_activity(JsonWriter& w, const TracedActivity& t) {
  w.begin_object();
  write_activity_fields(w, t.row);
  w.key("duration_us");
  write_json_spread(w, t.duration_ns, 1000);
  w.end_object();
}

// --- Markdown ---------------------------------------------------------------------------------

void md_row(std::string& out, const std::string& label, const std::string& a, const std::string& b,
            const std::string& delta, bool changed) {
  put(out, "| {} | {} | {} | {} | {} |\n", label, a, b, delta, changed ? "**changed**" : "");
}

}  // namespace

std::string render_unlike_text(const std::vector<std::string>& unlike) {
  if (unlike.empty()) return {};
  std::string out =
      "Not like for like: the sides ran different work, which the numbers below include:\n";
  for (const std::string& u : unlike) put(out, "  {}\n", escape_control(u));
  return out + "\n";
}

std::string render_diff_text(const TraceDiff& d, const DiffTextOptions& options) {
  std::string out;
  put(out, "A  {}\nB  {}\n\n", side_words(d.a), side_words(d.b));
  for (const std::string& line : diff_headline(d)) put(out, "{}\n", line);
  put(out, "\n");
  out += render_unlike_text(d.unlike);
  TextRows totals;
  totals.add("per region", "A: median (min..max)", "B: median (min..max)", "B - A", "");
  for (const FactDiff& q : d.per_region) {
    const FactComparison& how = comparison_of(q);
    if (q.counts_by_kind) {
      // Under the count they make up.
      for (const auto& [kind, by_kind] : q.by_kind)
        text_count_row(totals, "  " + escape_control(kind), by_kind);
      continue;
    }
    if (!shown_in_tables(q)) continue;
    const std::string label = fact_label(how.label, how.name, how.unit, UnitStyle::kSpaced);
    if (how.unit == FactUnit::kMicroseconds)
      text_time_row(totals, label, q.quantity);
    else
      text_count_row(totals, label, q.quantity);
  }
  totals.write(out);

  put(out, "\n");
  TextRows classes;
  classes.add("GPU time, µs", "A [activities]", "B [activities]", "B - A", "");
  for (const auto& c : d.classes) {
    std::string delta = time_delta(c.time_ns);
    if (c.count.delta != 0) delta += " [" + signed_count(c.count.delta) + "]";
    classes.add(std::string(kernel_class_label(c.kernel_class)),
                format_spread_us(c.time_ns.a) + " [" + format_count(c.count.a.median) + "]",
                format_spread_us(c.time_ns.b) + " [" + format_count(c.count.b.median) + "]", delta,
                c.count.changed ? "changed" : time_verdict(c.time_ns));
  }
  classes.write(out);
  text_diff_views(out, d, options.top);
  if (const std::string only = changed_only_words(d); !only.empty())
    put(out, "\nLaunch shapes that changed while the time held: {}.\n", only);
  if (!options.activities) {
    put(out,
        "\nGPU activities of the typical regions (A {}, B {}): {} (--activities lists them).\n",
        typical_words(d.a), typical_words(d.b), summary_words(d));
    return out;
  }

  put(out, "\nGPU activities of the typical regions (A {}, B {}){}:\n", typical_words(d.a),
      typical_words(d.b),
      d.aligned_in_order ? ", aligned in GPU order" : ", matched by name (too many to align)");
  const size_t width = duration_width(d);
  put(out, "  {} {:>{}} {:>{}}  {}\n", " ", "A µs", width, "B µs", width, "activity");
  walk_activities(
      d, [&out, width](const ActivityDiff& x) { text_activity(out, x, width); },
      [&out](size_t n) { put(out, "    ... {} unchanged ...\n", n); });
  put(out, "{}\n", summary_words(d));
  return out;
}

std::string render_diff_json(const TraceDiff& d) {
  JsonWriter w;
  w.begin_object();
  w.key("schemaVersion").number(kDiffSchemaVersion);
  w.key("tool").string("attnprof diff");
  w.key("a");
  json_side(w, d.a);
  w.key("b");
  json_side(w, d.b);
  w.key("unlike").begin_array();
  for (const std::string& u : d.unlike) w.string(u);
  w.end_array();
  w.key("per_region").begin_object();
  for (const FactDiff& q : d.per_region) {
    const FactComparison& how = comparison_of(q);
    w.key(how.name);
    if (q.counts_by_kind) {
      w.begin_object();
      for (const auto& [kind, by_kind] : q.by_kind) {
        w.key(kind);
        json_quantity(w, by_kind, 1);
      }
      w.end_object();
      continue;
    }
    json_quantity(w, q.quantity, measured_per_unit(how.unit));
  }
  w.end_object();
  w.key("kernel_classes").begin_array();
  for (const auto& c : d.classes) {
    w.begin_object();
    w.key("class").string(kernel_class_id(c.kernel_class));
    w.key("activities");
    json_quantity(w, c.count, 1);
    w.key("gpu_time_us");
    json_quantity(w, c.time_ns, 1000);
    w.end_object();
  }
  w.end_array();
  json_diff_views(w, d);
  w.key("aligned_in_order").boolean(d.aligned_in_order);
  w.key("activities").begin_array();
  for (const auto& x : d.activities) {
    w.begin_object();
    w.key("change").string(change_id(x.change));
    w.key("kind").string(activity_kind_name(row_of(x).kind));
    w.key("class").string(kernel_class_id(x.kernel_class));
    w.key("what_changed").begin_array();
    for (ActivityAspect what : x.what_changed) w.string(activity_aspect_id(what));
    w.end_array();
    w.key("a");
    if (x.a)
      json_activity(w, *x.a);
    else
      w.null();
    w.key("b");
    if (x.b)
      json_activity(w, *x.b);
    else
      w.null();
    w.end_object();
  }
  w.end_array();
  w.key("summary").begin_object();
  w.key("added").number(d.added);
  w.key("removed").number(d.removed);
  w.key("changed").number(d.changed);
  w.key("unchanged").number(d.unchanged);
  w.end_object();
  w.end_object();
  return w.take() + "\n";
}

std::string render_diff_markdown(const TraceDiff& d, const DiffTextOptions& options) {
  std::string out;
  put(out, "### attnprof diff\n\n- A: {}, {}\n- B: {}, {}\n\n", markdown_code(d.a.path),
      markdown_cell(describe_regions(d.a.regions, d.a.region_pattern)), markdown_code(d.b.path),
      markdown_cell(describe_regions(d.b.regions, d.b.region_pattern)));
  for (const std::string& line : diff_headline(d)) put(out, "{}\n\n", markdown_cell(line));
  if (!d.unlike.empty()) {
    put(out,
        "**Not like for like:** the sides ran different work, which the numbers below "
        "include:\n\n");
    for (const std::string& u : d.unlike) put(out, "- {}\n", markdown_cell(u));
    put(out, "\n");
  }
  put(out, "| per region | A: median (min..max) | B: median (min..max) | B − A | |\n");
  put(out, "|---|---:|---:|---:|---|\n");
  auto count_row = [&out](const std::string& label, const QuantityDiff& q) {
    md_row(out, label, format_spread_count(q.a), format_spread_count(q.b), signed_count(q.delta),
           q.changed);
  };
  auto time_row = [&out](const std::string& label, const QuantityDiff& q) {
    md_row(out, label, format_spread_us(q.a), format_spread_us(q.b), time_delta(q), q.changed);
  };
  for (const FactDiff& q : d.per_region) {
    const FactComparison& how = comparison_of(q);
    if (q.counts_by_kind) {
      for (const auto& [kind, by_kind] : q.by_kind)
        count_row(how.label + " " + markdown_cell(kind), by_kind);
      continue;
    }
    if (!shown_in_tables(q)) continue;
    const std::string label = fact_label(how.label, how.name, how.unit, UnitStyle::kParenthesized);
    if (how.unit == FactUnit::kMicroseconds)
      time_row(label, q.quantity);
    else
      count_row(label, q.quantity);
  }

  put(out, "\n| GPU time per class (µs) | A [activities] | B [activities] | B − A | |\n");
  put(out, "|---|---:|---:|---:|---|\n");
  for (const auto& c : d.classes)
    md_row(out, std::string(kernel_class_label(c.kernel_class)),
           format_spread_us(c.time_ns.a) + " [" + format_count(c.count.a.median) + "]",
           format_spread_us(c.time_ns.b) + " [" + format_count(c.count.b.median) + "]",
           time_delta(c.time_ns), c.time_ns.changed || c.count.changed);
  markdown_diff_views(out, d, options.top);
  if (const std::string only = changed_only_words(d); !only.empty())
    put(out, "\nLaunch shapes that changed while the time held: {}.\n", markdown_cell(only));

  put(out, "\nGPU activities of the typical regions (A {}, B {}): {}{}.\n\n",
      markdown_cell(typical_words(d.a)), markdown_cell(typical_words(d.b)), summary_words(d),
      options.activities ? "" : " (`--activities` lists them)");
  if (!options.activities || d.added + d.removed + d.changed == 0) return out;
  put(out, "| | activity | A (µs) | B (µs) | launched by / what changed |\n");
  put(out, "|---|---|---:|---:|---|\n");
  MarkdownKernelNames
      names;  // cut to fit a pull request, in full below (tests/markdown_names_test.cpp)
  for (const auto& x : d.activities) {
    if (x.change == ActivityChange::kSame) continue;
    const ActivityRow& row = row_of(x);
    std::string note;
    if (x.change == ActivityChange::kChanged) {
      for (const auto& detail : details(x, " → "))
        note += (note.empty() ? "" : "<br>") +
                markdown_cell(fmt::format("{}: A {}; B {}", detail.what, detail.a, detail.b));
    } else {
      note = markdown_cell(launch_chain(row.op_chain, row.launch_api, " → "));
    }
    put(out, "| {} | {} | {} | {} | {} |\n",
        x.change == ActivityChange::kRemoved ? "−" : change_mark(x.change),
        names.cell(row.short_name, row.name), x.a ? format_us(x.a->duration_ns.median) : "",
        x.b ? format_us(x.b->duration_ns.median) : "", note);
  }
  if (const std::string full = names.details(); !full.empty()) out += "\n" + full;
  return out;
}

}  // namespace attnprof
