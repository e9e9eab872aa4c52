#include "render/csv_writer.h"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

#include "render/display_text.h"

namespace attnprof {

CsvWriter::CsvWriter(const std::vector<std::string_view>& header) : columns_(header.size()) {
  for (std::string_view name : header) text(name);
  end_row();
}

void CsvWriter::separate() {
  if (fields_in_row_++ > 0) out_ += ',';
}

CsvWriter& CsvWriter::text(std::string_view field) {
  separate();
  // A spreadsheet runs a cell that starts with one of these as a formula (=HYPERLINK(...),
  // +cmd|...): the OWASP rule is a leading quote, which shows as text. A lone "-" (standard
  // input's path) is no formula.
  const bool formula = field.size() > (field == "-" ? 1u : 0u) &&
                       std::string_view("=+-@\t\r").find(field.front()) != std::string_view::npos;
  // Control bytes (ESC, CR, newline) as \xNN: a CSV piped to a terminal cannot drive it, and no
  // row is forged.
  std::string safe = formula ? "'" : "";
  safe += escape_control(field);
  if (!formula && safe.find_first_of(",\"") == std::string::npos) {
    out_ += safe;
    return *this;
  }
  out_ += '"';
  for (char c : safe) {
    if (c == '"') out_ += '"';
    out_ += c;
  }
  out_ += '"';
  return *this;
}

CsvWriter& CsvWriter::number(double value) {
  separate();
  if (std::isfinite(value)) fmt::format_to(std::back_inserter(out_), "{}", value);
  return *this;
}

CsvWriter& CsvWriter::number(int64_t value) {
  separate();
  fmt::format_to(std::back_inserter(out_), "{}", value);
  return *this;
}

CsvWriter& CsvWriter::number(std::optional<double> value) {
  if (value) return number(*value);
  return empty();
}

CsvWriter& CsvWriter::empty() {
  separate();
  return *this;
}

void CsvWriter::end_row() {
  assert(fields_in_row_ == columns_);
  out_ += '\n';
  fields_in_row_ = 0;
}

}  // namespace attnprof
