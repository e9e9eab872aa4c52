#include "io/trace_directory.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

namespace attnprof {

namespace fs = std::filesystem;

bool is_trace_file_name(std::string_view name) {
  auto ends_with = [name](std::string_view tail) {
    return name.size() > tail.size() && name.substr(name.size() - tail.size()) == tail;
  };
  return ends_with(".json") || ends_with(".json.gz");
}

namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// -1, 0, 1 comparing the digit runs as numbers: fewer significant digits is smaller.
int compare_numbers(std::string_view a, std::string_view b) {
  auto significant = [](std::string_view s) {
    size_t zeros = 0;
    while (zeros + 1 < s.size() && s[zeros] == '0') ++zeros;
    return s.substr(zeros);
  };
  a = significant(a);
  b = significant(b);
  if (a.size() != b.size()) return a.size() < b.size() ? -1 : 1;
  return a.compare(b) < 0 ? -1 : a.compare(b) > 0 ? 1 : 0;
}

}  // namespace

bool natural_less(std::string_view a, std::string_view b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (is_digit(a[i]) && is_digit(b[j])) {
      size_t i_end = i, j_end = j;
      while (i_end < a.size() && is_digit(a[i_end])) ++i_end;
      while (j_end < b.size() && is_digit(b[j_end])) ++j_end;
      int c = compare_numbers(a.substr(i, i_end - i), b.substr(j, j_end - j));
      if (c != 0) return c < 0;
      i = i_end;
      j = j_end;
    } else {
      if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
      ++i;
      ++j;
    }
  }
  if (i < a.size() || j < b.size()) return j < b.size();  // a ran out first: it is a prefix
  return a < b;
}

Result<std::vector<std::string>> list_trace_directory(const std::string& dir) {
  std::error_code ec;
  fs::directory_iterator it(dir, ec);
  if (ec)
    return make_error(ErrorKind::kIo, "{}: cannot list this directory: {}", dir, ec.message());
  std::vector<std::string> names;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    std::string name = it->path().filename().string();
    std::error_code type_ec;
    if (is_trace_file_name(name) && it->is_regular_file(type_ec)) names.push_back(std::move(name));
  }
  if (ec)
    return make_error(ErrorKind::kIo, "{}: cannot list this directory: {}", dir, ec.message());
  if (names.empty())
    return make_error(
        ErrorKind::kUsage,
        "{}: a directory with no trace in it (no *.json or *.json.gz file); pass trace files or a "
        "directory of them",
        dir);
  std::sort(names.begin(), names.end(), natural_less);
  std::vector<std::string> paths;
  paths.reserve(names.size());
  for (const auto& name : names) paths.push_back((fs::path(dir) / name).string());
  return paths;
}

}  // namespace attnprof
