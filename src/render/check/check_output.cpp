// `attnprof check` output: text (one line per expectation), JSON, Markdown (a table per trace, for
// a pull request), CSV and JUnit.

#include <algorithm>

#include <fmt/format.h>

#include "render/check/check_output.h"
#include "render/csv_writer.h"
#include "render/display_text.h"
#include "render/facts_json.h"
#include "render/json_writer.h"
#include "render/region_words.h"
#include "render/spread_words.h"

namespace attnprof {

namespace {

std::string typical_words(const TraceAnalysis& t) {
  if (t.typical_region < 0 || t.regions.size() <= 1) return "";
  return fmt::format("; typical region #{} ({})", t.typical_region + 1,
                     escape_control(t.regions[t.typical_region].name));
}

}  // namespace

std::string render_check_text(const CheckReport& report) {
  const TraceAnalysis& t = report.analysis;
  std::string out = fmt::format(
      "{}: {}{}\n", escape_control(t.path),
      describe_regions(static_cast<int64_t>(t.regions.size()), t.region_pattern), typical_words(t));
  size_t width = 0;
  for (const auto& r : report.results) width = std::max(width, std::min<size_t>(r.text.size(), 48));
  size_t failed = 0;
  for (const auto& r : report.results) {
    if (!r.holds) ++failed;
    fmt::format_to(std::back_inserter(out), "  {:<4}  {:<{}}  actual {}{}\n",
                   r.holds ? "ok" : "FAIL", escape_control(r.text), width, escape_control(r.actual),
                   r.source.empty() ? "" : "  [" + escape_control(r.source) + "]");
  }
  size_t n = report.results.size();
  size_t held = n - failed;
  fmt::format_to(std::back_inserter(out), "{} of {} expectation{} hold{}", held, n,
                 n == 1 ? "" : "s", held == 1 ? "s" : "");
  if (failed > 0)
    fmt::format_to(std::back_inserter(out), "; {} fail{}", failed, failed == 1 ? "s" : "");
  out += "\n";
  return out;
}

namespace {

void write_check_fields(JsonWriter& w, const CheckReport& report) {
  const TraceAnalysis& m = report.analysis;
  w.key("trace").string(m.path);
  w.key("region_pattern").string(m.region_pattern);
  w.key("regions").number(m.regions.size());
  w.key("typical_region");
  if (m.typical_region >= 0) {
    w.begin_object();
    w.key("index").number(m.typical_region);
    w.key("name").string(m.regions[m.typical_region].name);
    w.end_object();
  } else {
    w.null();
  }
  w.key("all_hold").boolean(all_hold(report.results));
  w.key("results").begin_array();
  for (const auto& r : report.results) write_expectation_result(w, r);
  w.end_array();
  // Every metric: null where the trace cannot give it; numbers as median, min, max over regions
  // ("regions": 1 for the main kernel's properties, which are the typical region's).
  w.key("metrics").begin_object();
  for (const auto& info : metric_catalog()) {
    MetricValue v = metric_value(m, info.name);
    w.key(info.name);
    if (!v.available) {
      w.null();
    } else if (v.type == MetricType::kText) {
      w.string(v.texts.empty() ? std::string() : v.texts.front());
    } else {
      write_json_spread(w, v.number);
    }
  }
  w.end_object();
}

bool every_report_holds(const std::vector<CheckReport>& reports) {
  for (const auto& r : reports)
    if (!all_hold(r.results)) return false;
  return true;
}

}  // namespace

std::string render_check_json(const CheckReport& report) {
  JsonWriter w;
  w.begin_object();
  w.key("schemaVersion").number(kCheckSchemaVersion);
  write_check_fields(w, report);
  w.end_object();
  return w.take() + "\n";
}

std::string render_study_check_json(const std::string& study,
                                    const std::vector<CheckReport>& reports) {
  JsonWriter w;
  w.begin_object();
  w.key("schemaVersion").number(kCheckSchemaVersion);
  w.key("study").string(study);
  w.key("all_hold").boolean(every_report_holds(reports));
  w.key("variants").begin_array();
  for (const auto& report : reports) {
    w.begin_object();
    w.key("variant").string(report.variant);
    write_check_fields(w, report);
    w.end_object();
  }
  w.end_array();
  w.end_object();
  return w.take() + "\n";
}

std::string render_study_check_text(const std::vector<CheckReport>& reports) {
  std::string out;
  size_t held = 0, total = 0;
  for (const auto& report : reports) {
    out += report.variant + ": " + render_check_text(report);
    for (const auto& r : report.results) held += r.holds ? 1 : 0;
    total += report.results.size();
  }
  fmt::format_to(std::back_inserter(out), "study: {} of {} expectations hold over {} variant{}",
                 held, total, reports.size(), reports.size() == 1 ? "" : "s");
  if (held < total) fmt::format_to(std::back_inserter(out), "; {} fail", total - held);
  out += "\n";
  return out;
}

namespace {

// "2 of 3 expectations hold; 1 fails".
std::string holds_words(size_t held, size_t n) {
  std::string out = fmt::format("{} of {} expectation{} hold{}", held, n, n == 1 ? "" : "s",
                                held == 1 ? "s" : "");
  if (held < n) out += fmt::format("; {} fail{}", n - held, n - held == 1 ? "s" : "");
  return out;
}

// The regions a report read, and its typical one, in Markdown.
std::string markdown_regions(const TraceAnalysis& t) {
  const int64_t n = static_cast<int64_t>(t.regions.size());
  std::string out = fmt::format("{} region{}", n, n == 1 ? "" : "s");
  out += t.region_pattern.empty() ? " (the whole trace)"
                                  : " matching " + markdown_code(t.region_pattern);
  if (t.typical_region >= 0 && t.regions.size() > 1)
    out += fmt::format("; typical region #{} ({})", t.typical_region + 1,
                       markdown_cell(t.regions[t.typical_region].name));
  return out;
}

void markdown_results(std::string& out, const CheckReport& report) {
  out += "| | expectation | actual | source |\n|---|---|---|---|\n";
  for (const auto& r : report.results)
    out += fmt::format("| {} | {} | {} | {} |\n", r.holds ? "ok" : "**FAIL**",
                       markdown_code(r.text), markdown_cell(r.actual), markdown_cell(r.source));
}

}  // namespace

std::string render_check_markdown(const CheckReport& report) {
  const TraceAnalysis& t = report.analysis;
  std::string out = "## attnprof check: " + markdown_code(t.path) + "\n\n";
  out += markdown_regions(t) + "\n\n";
  markdown_results(out, report);
  size_t held = 0;
  for (const auto& r : report.results) held += r.holds ? 1 : 0;
  out += "\n**" + holds_words(held, report.results.size()) + "**\n";
  return out;
}

std::string render_study_check_markdown(const std::string& study,
                                        const std::vector<CheckReport>& reports) {
  std::string out = "## attnprof check: " + markdown_code(study) + "\n\n";
  size_t held = 0, total = 0;
  for (const auto& report : reports) {
    const TraceAnalysis& t = report.analysis;
    out += "### " + markdown_cell(report.variant) + "\n\n";
    out += markdown_code(t.path) + ": " + markdown_regions(t) + "\n\n";
    markdown_results(out, report);
    out += "\n";
    for (const auto& r : report.results) held += r.holds ? 1 : 0;
    total += report.results.size();
  }
  out += fmt::format("**study: {} over {} variant{}**\n", holds_words(held, total), reports.size(),
                     reports.size() == 1 ? "" : "s");
  return out;
}

std::string render_check_csv(const std::vector<CheckReport>& reports) {
  CsvWriter csv({"trace", "variant", "expression", "source", "holds", "metric", "value", "min",
                 "max", "regions"});
  for (const auto& report : reports) {
    for (const auto& r : report.results) {
      for (const auto& v : r.values) {
        csv.text(report.analysis.path).text(report.variant).text(r.text).text(r.source);
        csv.text(r.holds ? "true" : "false").text(v.metric);
        if (!v.available) {
          csv.empty().empty().empty().empty();
        } else if (v.number) {
          csv.number(*v.number).number(v.min).number(v.max).number(int64_t{v.regions});
        } else {
          csv.text(v.text).empty().empty().empty();
        }
        csv.end_row();
      }
    }
  }
  return csv.take();
}

}  // namespace attnprof
