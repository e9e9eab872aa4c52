// The report's table(s), findings and methods as plain text: the bench's table.txt, rendered from
// a run folder's summary.json (or from traces), so that a folder the bench did not write (e.g.
// scripts/gpu/record_flex.py's) gets the same table.

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "render/attention_calls_text.h"
#include "render/display_text.h"
#include "render/text_wrap.h"
#include "study/render/counter_words.h"
#include "study/render/projection_words.h"
#include "study/render/report.h"
#include "study/render/report_headline.h"
#include "study/render/report_models.h"
#include "study/render/report_table.h"
#include "study/render/study_columns.h"

namespace attnprof {

namespace {

size_t widest_line(std::string_view text) {
  size_t widest = 0;
  for (size_t at = 0; at < text.size();) {
    const size_t end = std::min(text.find('\n', at), text.size());
    widest = std::max(widest, display_width(text.substr(at, end - at)));
    at = end + 1;
  }
  return widest;
}

StudyTable columns_of(const StudyTable& cells, const std::vector<size_t>& columns) {
  StudyTable part;
  for (size_t c : columns) {
    part.header.push_back(cells.header[c]);
    part.numeric.push_back(cells.numeric[c]);
    part.kernel_names.push_back(cells.kernel_names[c]);
  }
  for (const auto& row : cells.rows) {
    auto& cut = part.rows.emplace_back();
    for (size_t c : columns) cut.push_back(c < row.size() ? row[c] : std::string());
  }
  return part;
}

// The table as text within `width` columns (the study's table ran to 211): wider,
// it is written as panels of the columns that fit, one under the other, each led by the first
// column (the variant) again, so that no row is wrapped into unreadable pieces.
std::string table_text_within(const StudyTable& cells, size_t width) {
  std::string whole = study_table_text(cells);
  if (widest_line(whole) <= width || cells.header.size() < 3) return whole;
  std::string out;
  std::vector<size_t> panel = {0};
  for (size_t c = 1; c < cells.header.size(); ++c) {
    std::vector<size_t> wider = panel;
    wider.push_back(c);
    if (panel.size() > 1 && widest_line(study_table_text(columns_of(cells, wider))) > width) {
      out += study_table_text(columns_of(cells, panel)) + "\n";
      panel = {0, c};
    } else {
      panel = std::move(wider);
    }
  }
  return out + study_table_text(columns_of(cells, panel));
}

// A table: the heading, the cells (cut to a terminal's width for a run, as the bench prints
// them, and in panels of columns within `width`), then each row's findings in words.
void write_table(std::string& out, const ReportTable& table, const StudyTable& cells,
                 size_t width) {
  if (!table.heading.empty()) out += fmt::format("\n{}\n", escape_control(table.heading));
  out += width > 0 ? table_text_within(cells, width) : study_table_text(cells);
  std::string notes;
  for (size_t r = 0; r < table.rows.size(); ++r) {
    for (const ReportNote& note : table.notes[r]) {
      std::string line = fmt::format("{}: [{}] {}", table.variants[r], note.id, note.summary);
      if (!note.suggestion.empty()) line += " -> " + note.suggestion;
      notes += "  - " + escape_control(line) + "\n";
    }
  }
  if (!notes.empty()) out += "\nWhat the traces show (attnprof findings):\n" + notes;
}

// The run's cells as a terminal shows them; a table of traces as report_tables gives it.
StudyTable terminal_cells(const ReportTable& table, const RunPoint* point) {
  if (point)
    return study_table(point->variants, {point->problem.backward, point->memory_bound},
                       CellWidth::kTerminal);
  StudyTable cells;
  cells.header = table.header;
  cells.numeric = table.numeric;
  cells.kernel_names.assign(table.header.size(), false);  // a text table cuts no names
  cells.rows = table.rows;
  return cells;
}

void write_tables(std::string& out, const std::vector<ReportTable>& tables, const RunSummary* run,
                  size_t width) {
  for (size_t i = 0; i < tables.size(); ++i) {
    const RunPoint* point = run && i < run->points.size() ? &run->points[i] : nullptr;
    write_table(out, tables[i], terminal_cells(tables[i], point), width);
  }
}

// What the run's hardware counters show, as the bench prints it under its table.
void write_counter_notes(std::string& out, const RunSummary& run, const StudyConclusions& c) {
  const std::vector<std::string> notes = counter_notes(run, c);
  if (notes.empty()) return;
  out += fmt::format("\n{}\n", kCounterNotesHeading);
  for (const std::string& note : notes) out += "  - " + escape_control(note) + "\n";
}

// What a headline line names its study by: the run's folder as given (its traces when the report
// reads traces), a study beside it by its subfolder.
std::string run_label(const ReportData& data) {
  // The run is the first input; the model studies after it have lines of their own.
  if (!data.run || data.inputs.empty()) return "the traces";
  std::string folder = data.inputs.front();
  while (folder.size() > 1 && folder.back() == '/') folder.pop_back();
  return folder;
}

}  // namespace

std::string render_report_text(const ReportData& data, size_t width) {
  // A run's heading is the same whether the bench prints it or report reads the run back.
  std::string out = data.run ? "attnprof study" : "attnprof report";
  const std::string env = environment_line(data);
  if (!env.empty()) out += ": " + escape_control(env);
  out += "\n";
  if (data.run) {
    // What holds the trace's step comes before any kernel's time.
    if (data.conclusions.projection) {
      const std::string step = step_headline(*data.conclusions.projection);
      if (!step.empty()) out += "\n" + escape_control(step) + "\n";
    }
    if (const auto words = projection_words(*data.run, data.conclusions)) {
      out += "\n" + escape_control(words->heading) + "\n";
      for (const std::string& line : words->lines) out += "  - " + escape_control(line) + "\n";
    }
  }
  write_tables(out, report_tables(data), data.run ? &*data.run : nullptr, width);
  // Plain traces: each one's attention calls, as analyze prints them. (A bench run's text is the
  // table the bench prints; its page has them.)
  if (!data.run) {
    for (const ReportVariant& v : data.variants) {
      if (!v.analysis || v.analysis->attention.calls.empty()) continue;
      // Appended piece by piece: g++ 12 warns (-Wrestrict, falsely) on "\n" + string here.
      out += '\n';
      out += escape_control(v.name);
      out += ':';
      render_attention_calls_text(out, *v.analysis);
    }
  }
  write_models_text(out, data);
  if (data.backward) {
    out += "\nThe backward study (backward/summary.json):\n";
    write_tables(out, backward_tables(data), &data.backward->run, width);
    write_counter_notes(out, data.backward->run, data.backward->conclusions);
  }
  for (const ReportBeside& beside : data.beside) {
    out += "\nBeside it: " + escape_control(beside.folder) + "/ (its own summary.json):\n";
    write_tables(out, beside_tables(beside), &beside.run, width);
    const std::vector<std::string> notes = methods_beside(data, beside);
    if (!notes.empty()) out += "\nMeasured as the run, and:\n";
    for (const std::string& m : notes) out += "  - " + escape_control(m) + "\n";
    write_counter_notes(out, beside.run, beside.conclusions);
  }
  if (data.run && !data.run->methods.empty()) {
    out += "\nHow each column is measured:\n";
    for (const std::string& m : data.run->methods) out += "  - " + escape_control(m) + "\n";
  }
  if (data.run) write_counter_notes(out, *data.run, data.conclusions);
  for (const std::string& w : data.warnings) out += "\nwarning: " + escape_control(w) + "\n";
  return out;
}

std::string render_report_headlines(const ReportData& data) {
  std::vector<std::pair<std::string, std::optional<HeadlineWords>>> studies;
  studies.emplace_back(escape_control(run_label(data)), report_headline_words(data));
  if (data.backward) studies.emplace_back("backward/", report_headline_words(*data.backward));
  for (const ReportBeside& beside : data.beside)
    studies.emplace_back(fmt::format("{}/", escape_control(beside.folder)),
                         report_headline_words(beside));
  const auto models = model_headlines(data);
  size_t width = 0;
  for (const auto& [label, words] : studies) width = std::max(width, display_width(label));
  for (const auto& [label, line] : models) width = std::max(width, display_width(label));
  std::string out;
  for (const auto& [label, words] : studies) {
    out += fmt::format("{:<{}}  ", label, width);
    if (!words) {
      out += "no variant has a time\n";
      continue;
    }
    // One line per study: what bounds its step first, then its fastest.
    if (!words->step.empty()) out += escape_control(words->step) + " ";
    out += fmt::format("{} {}{}{}\n", escape_control(words->fastest), escape_control(words->lead),
                       words->as_fast.empty() ? "" : " ", escape_control(words->as_fast));
  }
  // A run made --from-trace: what switching would save in its trace, under its line.
  if (data.run) {
    if (const auto words = projection_words(*data.run, data.conclusions))
      for (const std::string& line : words->lines)
        out += fmt::format("{:<{}}  {}\n", "", width, escape_control(line));
  }
  for (const auto& [label, line] : models) out += fmt::format("{:<{}}  {}\n", label, width, line);
  return out;
}

}  // namespace attnprof
