// The report's table(s) and findings as Markdown, for a pull request.

#include <string>

#include <fmt/format.h>

#include "render/fact_cells.h"
#include "render/markdown_kernel_names.h"
#include "render/report.h"
#include "render/report_headline.h"
#include "render/report_svg.h"
#include "render/report_table.h"
#include "render/shared_words.h"

namespace attnprof {

std::string render_report_markdown(const ReportData& data) {
  using svg::put;
  std::string out = "# attnprof report";
  const std::string env = environment_line(data);
  if (!env.empty()) out += ": " + markdown_cell(env);
  out += "\n";
  // The headline first (issue 16): what a reviewer reads before the table.
  if (const std::optional<HeadlineWords> w = report_headline_words(data)) {
    put(out, "\n**{}** {}{}\n", markdown_cell(w->fastest), markdown_cell(w->lead),
        w->as_fast.empty() ? "" : " " + markdown_cell(w->as_fast));
    if (!w->slow.empty()) {
      out += "\nWhy the others are slower (the finding that explains the most of their time):\n\n";
      for (const HeadlineWords::Slow& s : w->slow)
        put(out, "- **{}** {}: {}\n", markdown_cell(s.variant), markdown_cell(s.how_slow),
            markdown_cell(s.reason));
    }
  }
  for (const ReportTable& table : report_tables(data)) {
    out += "\n";
    if (!table.heading.empty()) put(out, "## {}\n\n", markdown_cell(table.heading));
    out += "|";
    for (const std::string& h : table.header) put(out, " {} |", markdown_cell(h));
    out += " findings |\n|";
    for (bool numeric : table.numeric) out += numeric ? "---:|" : "---|";
    out += "---|\n";
    // Kernel names cut to fit a pull request's width; in full below the table (issue 16).
    MarkdownKernelNames names;
    for (size_t r = 0; r < table.rows.size(); ++r) {
      out += "|";
      for (size_t c = 0; c < table.rows[r].size(); ++c) {
        const std::string& cell = table.rows[r][c];
        const bool kernel = table.header[c] == "main kernel" && cell != kNoCell;
        put(out, " {} |", kernel ? names.cell(cell) : markdown_cell(cell));
      }
      std::string ids;
      for (const ReportNote& note : table.notes[r]) ids += (ids.empty() ? "" : ", ") + note.id;
      put(out, " {} |\n", markdown_cell(ids));
    }
    if (const std::string full = names.details(); !full.empty()) out += "\n" + full;
    // The findings that explain time first; the informational ones (how a kernel is built)
    // folded into a <details>, which GitHub renders closed (issue 16).
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
  if (data.run && !data.run->methods.empty()) {
    out += "\nHow each column is measured:\n\n";
    for (const std::string& m : data.run->methods) out += "- " + markdown_cell(m) + "\n";
  }
  for (const std::string& w : data.warnings) out += "\n> " + markdown_cell(w) + "\n";
  return out;
}

}  // namespace attnprof
