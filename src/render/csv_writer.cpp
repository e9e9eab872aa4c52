#include "render/csv_writer.h"

#include <cassert>
#include <cmath>

#include <fmt/format.h>

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
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    out_ += field;
    return *this;
  }
  out_ += '"';
  for (char c : field) {
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
