#pragma once
// CSV (RFC 4180, with \n line ends) for tables a spreadsheet or pandas.read_csv loads as they are:
// a header row, then one row per record; a field with a comma or quote is quoted, its quotes
// doubled. Text is safe to open (docs/SECURITY.md): a field that a spreadsheet would run as a
// formula (a leading =, +, -, @, tab or CR) gets a leading ' and quotes, and control bytes are
// written as \xNN (render/display_text.h), so no field spans lines or drives a terminal. Numbers
// are written in full (the shortest text that reads back to the same double), never with units, so
// that a column is numeric.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

class CsvWriter {
 public:
  explicit CsvWriter(const std::vector<std::string_view>& header);

  CsvWriter& text(std::string_view field);
  CsvWriter& number(double value);  // NaN and infinities become an empty field
  CsvWriter& number(int64_t value);
  CsvWriter& number(std::optional<double> value);  // an empty field when absent
  CsvWriter& empty();
  // Ends the row; the fields given must match the header's count (a bug otherwise).
  void end_row();

  std::string take() { return std::move(out_); }

 private:
  void separate();
  size_t columns_;
  size_t fields_in_row_ = 0;
  std::string out_;
};

}  // namespace attnprof
