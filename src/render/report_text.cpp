// The report's table(s), findings and methods as plain text: the bench's table.txt, rendered from
// a run folder's summary.json (or from traces), so that a folder the bench did not write (e.g.
// scripts/gpu/record_flex.py's) gets the same table.

#include <string>
#include <vector>

#include <fmt/format.h>

#include "render/display_text.h"
#include "render/report.h"
#include "render/report_table.h"
#include "render/study_columns.h"

namespace attnprof {

namespace {

// A table: the heading, the cells (cut to a terminal's width for a run, as the bench prints
// them), then each row's findings in words.
void write_table(std::string& out, const ReportTable& table, const StudyTable& cells) {
  if (!table.heading.empty()) out += "\n" + escape_control(table.heading) + "\n";
  out += study_table_text(cells);
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

void write_tables(std::string& out, const std::vector<ReportTable>& tables, const RunSummary* run) {
  for (size_t i = 0; i < tables.size(); ++i) {
    const RunPoint* point = run && i < run->points.size() ? &run->points[i] : nullptr;
    write_table(out, tables[i], terminal_cells(tables[i], point));
  }
}

}  // namespace

std::string render_report_text(const ReportData& data) {
  std::string out = "attnprof report";
  const std::string env = environment_line(data);
  if (!env.empty()) out += ": " + escape_control(env);
  out += "\n";
  write_tables(out, report_tables(data), data.run ? &*data.run : nullptr);
  if (data.backward) {
    out += "\nThe backward study (backward/summary.json):\n";
    write_tables(out, backward_tables(data), &data.backward->run);
  }
  for (const ReportBeside& beside : data.beside) {
    out += "\nBeside it: " + escape_control(beside.folder) + "/ (its own summary.json):\n";
    write_tables(out, beside_tables(beside), &beside.run);
    const std::vector<std::string> notes = methods_beside(data, beside);
    if (!notes.empty()) out += "\nMeasured as the run, and:\n";
    for (const std::string& m : notes) out += "  - " + escape_control(m) + "\n";
  }
  if (data.run && !data.run->methods.empty()) {
    out += "\nHow each column is measured:\n";
    for (const std::string& m : data.run->methods) out += "  - " + escape_control(m) + "\n";
  }
  for (const std::string& w : data.warnings) out += "\nwarning: " + escape_control(w) + "\n";
  return out;
}

}  // namespace attnprof
