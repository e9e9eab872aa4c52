#include "study/render/report_models.h"

#include <cctype>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "study/render/projection_words.h"
#include "study/render/report_svg.h"

namespace attnprof {

namespace {

using svg::escape;

std::string percent_of(double part, double whole) {
  return whole > 0 ? fmt::format("{:.1f} %", 100 * part / whole) : std::string("-");
}

ModelWords words_of(const ReportModel& m) {
  ModelWords w;
  w.name = m.name;
  const RunFromTrace& t = *m.run.from_trace;
  w.step = t.region_gpu_ns > 0 ? format_duration(t.region_gpu_ns) : std::string("-");
  w.region = fmt::format("{}, the typical of {}", t.region.empty() ? "the whole trace" : t.region,
                         t.regions);
  if (const auto& p = m.conclusions.projection) {
    w.attention = format_duration(p->attention_ns);
    w.share = percent_of(p->attention_ns, p->region_gpu_ns);
    for (const std::string& b : p->backends) w.backends += (w.backends.empty() ? "" : ", ") + b;
    // The saving is the step's where its critical path was timed, else the GPU time's.
    const double of_ns = p->step ? p->step->length_ns : p->region_gpu_ns;
    if (p->step) {
      w.wall = format_duration(p->step->length_ns);
      if (!p->step->bound_by.empty()) w.bound_by = p->step->bound_by;
    }
    w.switch_to = p->switch_variant.empty()
                      ? fmt::format("keep {}: no switch saves {:.0f} % of the step",
                                    w.backends.empty() ? std::string("it") : w.backends,
                                    100 * kWorthSwitching)
                      : fmt::format("switch to {}: -{} ({})", p->switch_variant,
                                    format_duration(p->switch_saving_ns),
                                    percent_of(p->switch_saving_ns, of_ns));
  }
  if (const auto words = projection_words(m.run, m.conclusions)) w.lines = words->lines;
  if (w.backends.empty()) w.backends = "-";
  if (w.attention.empty()) w.attention = "-";
  if (w.share.empty()) w.share = "-";
  if (w.wall.empty()) w.wall = "-";
  if (w.bound_by.empty()) w.bound_by = "-";
  return w;
}

constexpr const char* kHeader[] = {"model",    "step (wall)",  "bound by",
                                   "GPU busy", "typical step", "attention",
                                   "of GPU",   "ran on",       "switch (per step)"};

}  // namespace

std::vector<ModelWords> model_words(const ReportData& data) {
  std::vector<ModelWords> out;
  for (const ReportModel& m : data.models) out.push_back(words_of(m));
  return out;
}

std::string model_anchor(const ReportModel& model) {
  std::string anchor = "model-";
  for (char c : model.name) anchor += std::isalnum(static_cast<unsigned char>(c)) ? c : '-';
  return anchor;
}

void write_models_html(std::string& out, const ReportData& data) {
  if (data.models.empty()) return;
  const std::vector<ModelWords> words = model_words(data);
  put(out, R"(<section class="card" id="models"><h2>The models</h2>)");
  put(out,
      R"(<p class="lead">Real models' traces, each measured by <code>attnprof bench --from-trace</code>: its typical step on its critical path (its wall time) and what bounds it, its GPU time, the attention calls of that step as the trace ran them (their time, their share of the GPU time, the backend), and what switching to another backend that passed the float64 check would save of the step: the trace's critical path timed again with each backend's kernels and CPU time as the run measured them (docs/MODELS.md, docs/CRITICAL_PATH.md).</p>)");
  put(out,
      R"(<div class="table-wrap"><table class="study-table models" id="models-table"><thead><tr>)");
  for (const char* h : kHeader) put(out, "<th>{}</th>", h);
  put(out, "</tr></thead><tbody>");
  for (size_t i = 0; i < words.size(); ++i) {
    const ModelWords& w = words[i];
    put(out,
        R"(<tr data-model="{}"><td class="variant"><a href="#{}">{}</a></td><td class="num">{}</td><td>{}</td><td class="num">{}</td><td>{}</td><td class="num">{}</td><td class="num">{}</td><td>{}</td><td>{}</td></tr>)",
        escape(w.name), model_anchor(data.models[i]), escape(w.name), escape(w.wall),
        escape(w.bound_by), escape(w.step), escape(w.region), escape(w.attention), escape(w.share),
        escape(w.backends), escape(w.switch_to));
  }
  put(out, "</tbody></table></div>");
  for (size_t i = 0; i < words.size(); ++i) {
    const ReportModel& m = data.models[i];
    const std::string href = safe_href(m.page_href);
    put(out, R"(<h3 id="{}">{} <span class="muted">· {}</span></h3>)", model_anchor(m),
        escape(words[i].name),
        href.empty() ? fmt::format("<code>{}</code>", escape(m.folder))
                     : fmt::format(R"(its own page: <a class="mono" href="{}">{}</a>)",
                                   escape(href), escape(m.folder + "/summary.md")));
    put(out, R"(<p class="meta">From <code>{}</code>; per step:</p><ul class="projection">)",
        escape(m.run.from_trace->trace));
    for (const std::string& line : words[i].lines) put(out, "<li>{}</li>", escape(line));
    put(out, "</ul>");
  }
  put(out, "</section>");
}

void write_models_markdown(std::string& out, const ReportData& data) {
  if (data.models.empty()) return;
  const std::vector<ModelWords> words = model_words(data);
  out +=
      "\n## The models\n\nEach measured by `attnprof bench --from-trace`: its typical step, its "
      "attention calls as the trace ran them, and what switching would save of its critical "
      "path.\n\n|";
  for (const char* h : kHeader) put(out, " {} |", h);
  out += "\n|---|---:|---|---:|---|---:|---:|---|---|\n";
  for (const ModelWords& w : words)
    put(out, "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n", markdown_cell(w.name),
        markdown_cell(w.wall), markdown_cell(w.bound_by), markdown_cell(w.step),
        markdown_cell(w.region), markdown_cell(w.attention), markdown_cell(w.share),
        markdown_cell(w.backends), markdown_cell(w.switch_to));
  for (size_t i = 0; i < words.size(); ++i) {
    put(out, "\n### {}\n\n`{}` (its own page: `{}/summary.md`)\n\n", markdown_cell(words[i].name),
        markdown_cell(data.models[i].run.from_trace->trace), markdown_cell(data.models[i].folder));
    for (const std::string& line : words[i].lines) out += "- " + markdown_cell(line) + "\n";
  }
}

void write_models_text(std::string& out, const ReportData& data) {
  if (data.models.empty()) return;
  const std::vector<ModelWords> words = model_words(data);
  out += "\nThe models (bench --from-trace), per step:\n";
  for (size_t i = 0; i < words.size(); ++i) {
    const ModelWords& w = words[i];
    out += fmt::format(
        "  {}: step {}, bound by {}; {} of GPU time ({}); attention {} ({} of it) on {}; {}\n",
        escape_control(w.name), w.wall, w.bound_by, w.step, escape_control(w.region), w.attention,
        w.share, escape_control(w.backends), escape_control(w.switch_to));
    for (const std::string& line : w.lines) out += "    - " + escape_control(line) + "\n";
  }
}

std::vector<std::pair<std::string, std::string>> model_headlines(const ReportData& data) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const ModelWords& w : model_words(data))
    out.emplace_back(
        escape_control(w.name) + ":",
        fmt::format("step {}, bound by {}, {} of GPU time, attention {} of it on {}; {}", w.wall,
                    w.bound_by, w.step, w.share, escape_control(w.backends),
                    escape_control(w.switch_to)));
  return out;
}

}  // namespace attnprof
