// The report's table(s) and findings as Markdown, for a pull request.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "render/attention/attention_calls_text.h"
#include "render/display_text.h"
#include "render/fact_cells.h"
#include "render/markdown_kernel_names.h"
#include "study/render/counter_words.h"
#include "study/render/projection_words.h"
#include "study/render/report.h"
#include "study/render/report_headline.h"
#include "study/render/report_models.h"
#include "study/render/report_svg.h"
#include "study/render/report_table.h"

namespace attnprof {

namespace {

// The headline (analysis/headline.h) in Markdown: what a reviewer reads before the table.
void write_markdown_headline(std::string& out, const std::optional<HeadlineWords>& w) {
  if (!w) return;
  // The space as its own argument: g++ 12 warns (-Wrestrict, falsely) on " " + string here.
  if (!w->step.empty()) put(out, "\n{}\n", markdown_cell(w->step));
  put(out, "\n**{}** {}{}{}\n", markdown_cell(w->fastest), markdown_cell(w->lead),
      w->as_fast.empty() ? "" : " ", markdown_cell(w->as_fast));
  if (w->slow.empty()) return;
  out += "\nWhy the others are slower (the finding that explains the most of their time):\n\n";
  for (const HeadlineWords::Slow& s : w->slow)
    put(out, "- **{}** {}: {}\n", markdown_cell(s.variant), markdown_cell(s.how_slow),
        markdown_cell(s.reason));
}

// Each table with its findings below it.
void write_tables(std::string& out, const std::vector<ReportTable>& tables) {
  for (const ReportTable& table : tables) {
    out += "\n";
    if (!table.heading.empty()) put(out, "## {}\n\n", markdown_cell(table.heading));
    out += "|";
    for (const std::string& h : table.header) put(out, " {} |", markdown_cell(h));
    out += " findings |\n|";
    for (bool numeric : table.numeric) out += numeric ? "---:|" : "---|";
    out += "---|\n";
    // Kernel names cut to fit a pull request's width; in full below the table
    // (tests/markdown_names_test.cpp).
    MarkdownKernelNames names;
    for (size_t r = 0; r < table.rows.size(); ++r) {
      out += "|";
      for (size_t c = 0; c < table.rows[r].size(); ++c) {
        const std::string& cell = table.rows[r][c];
        const bool kernel = table.kernel_names[c] && cell != kNoCell;
        put(out, " {} |", kernel ? names.cell(cell) : markdown_cell(cell));
      }
      // Each id once: the backward study lists a finding of both passes twice.
      std::vector<std::string> ids;
      for (const ReportNote& note : table.notes[r])
        if (std::find(ids.begin(), ids.end(), note.id) == ids.end()) ids.push_back(note.id);
      put(out, " {} |\n", markdown_cell(fmt::format("{}", fmt::join(ids, ", "))));
    }
    if (const std::string full = names.details(); !full.empty()) out += "\n" + full;
    // The findings that explain time first; the informational ones (how a kernel is built)
    // folded into a <details>, which GitHub renders closed (tests/markdown_names_test.cpp).
    auto list = [&](bool actionable) {
      std::string items;
      for (size_t r = 0; r < table.rows.size(); ++r) {
        for (const ReportNote& note : table.notes[r]) {
          if (is_actionable_finding(note.id) != actionable) continue;
          put(items, "- {}: **{}** {}", markdown_cell(table.variants[r]), note.id,
              markdown_cell(note.summary));
          if (!note.suggestion.empty()) put(items, " → {}", markdown_cell(note.suggestion));
          items += "\n";
        }
      }
      return items;
    };
    if (const std::string items = list(true); !items.empty())
      out += "\nWhat the traces show (attnprof findings):\n\n" + items;
    if (const std::string items = list(false); !items.empty())
      out +=
          "\n<details><summary>Informational findings (how the kernels are built, not what "
          "costs time)</summary>\n\n" +
          items + "\n</details>\n";
  }
}

// What the run's hardware counters show, as the bench's table.txt says it.
void write_markdown_counter_notes(std::string& out, const RunSummary& run,
                                  const StudyConclusions& c) {
  const std::vector<std::string> notes = counter_notes(run, c);
  if (notes.empty()) return;
  put(out, "\n{}\n\n", kCounterNotesHeading);
  for (const std::string& note : notes) out += "- " + markdown_cell(note) + "\n";
}

}  // namespace

std::string render_report_markdown(const ReportData& data) {
  // A run's heading is the same whether the bench writes summary.md or report reads the run back.
  std::string out = data.run ? "# attnprof study" : "# attnprof report";
  const std::string env = environment_line(data);
  if (!env.empty()) out += ": " + markdown_cell(env);
  out += "\n";
  write_markdown_headline(out, report_headline_words(data));
  if (data.run) {
    if (const auto words = projection_words(*data.run, data.conclusions)) {
      out += "\n" + markdown_cell(words->heading) + "\n\n";
      for (const std::string& line : words->lines) out += "- " + markdown_cell(line) + "\n";
    }
  }
  write_tables(out, report_tables(data));
  // Plain traces: each one's attention calls, as analyze's Markdown has them. (A bench run's
  // summary.md is the bench's table; its page has them.)
  if (!data.run) {
    for (const ReportVariant& v : data.variants) {
      if (!v.analysis || v.analysis->attention.calls.empty()) continue;
      out += "\n## Attention calls: " + markdown_cell(v.name) + "\n";
      render_attention_calls_markdown(out, *v.analysis);
    }
  }
  write_models_markdown(out, data);
  if (data.backward) {
    out +=
        "\n## The backward study\n\nForward and backward timed together "
        "(`backward/summary.json`); the findings are those of each variant's trace, its forward "
        "regions, then its backward ones.\n";
    write_markdown_headline(out, report_headline_words(*data.backward));
    write_tables(out, backward_tables(data));
    write_markdown_counter_notes(out, data.backward->run, data.backward->conclusions);
  }
  for (const ReportBeside& beside : data.beside) {
    out += "\n## Beside it: `" + markdown_cell(beside.folder) +
           "/`\n\nAnother study in the run's " + "folder (`" + markdown_cell(beside.folder) +
           "/summary.json`), as the bench measured " +
           "it; the findings are those it recorded from each variant's trace.\n";
    write_markdown_headline(out, report_headline_words(beside));
    write_tables(out, beside_tables(beside));
    const std::vector<std::string> notes = methods_beside(data, beside);
    if (!notes.empty()) out += "\nMeasured as the run, and:\n\n";
    for (const std::string& m : notes) out += "- " + markdown_cell(m) + "\n";
    write_markdown_counter_notes(out, beside.run, beside.conclusions);
  }
  if (data.run && !data.run->methods.empty()) {
    out += "\nHow each column is measured:\n\n";
    for (const std::string& m : data.run->methods) out += "- " + markdown_cell(m) + "\n";
  }
  if (data.run) write_markdown_counter_notes(out, *data.run, data.conclusions);
  for (const std::string& w : data.warnings) out += "\n> " + markdown_cell(w) + "\n";
  return out;
}

}  // namespace attnprof
