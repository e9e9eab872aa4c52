#include "io/input_guard.h"

#include <sys/stat.h>

#include <filesystem>
#include <optional>
#include <system_error>

namespace attnprof {

namespace {

namespace fs = std::filesystem;

// The files of a study folder attnprof reads: traces, summary.json, sweep.csv, counter CSVs.
bool read_by_studies(const fs::path& file) {
  const std::string name = file.filename().string();
  return name.ends_with(".json") || name.ends_with(".gz") || name.ends_with(".csv");
}

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Whether a file `folder` holds (at any depth) is `out`. A bounded walk: a folder of more files
// than a study ever has is not searched past the bound (the command reads only what it names).
std::optional<fs::path> folder_holds(const fs::path& folder, const struct stat& out) {
  constexpr int kMostEntries = 200000;
  std::error_code error;
  fs::recursive_directory_iterator walk(folder, fs::directory_options::skip_permission_denied,
                                        error);
  int seen = 0;
  for (; !error && walk != fs::recursive_directory_iterator() && seen < kMostEntries;
       walk.increment(error), ++seen) {
    const fs::path& path = walk->path();
    if (!read_by_studies(path)) continue;
    struct stat info {};
    if (::stat(path.c_str(), &info) == 0 && same_file(info, out)) return path;
  }
  return std::nullopt;
}

Status refused(const std::string& out, const std::string& input) {
  return make_error(ErrorKind::kUsage,
                    "refusing to write {} over an input of the command ({}): give another -o", out,
                    input);
}

}  // namespace

Status refuse_output_over_inputs(const std::string& out, const std::vector<std::string>& inputs) {
  if (out.empty() || out == "-" || out == "/dev/stdout") return Status::success();
  struct stat target {};
  if (::stat(out.c_str(), &target) != 0 || !S_ISREG(target.st_mode)) return Status::success();
  for (const std::string& input : inputs) {
    if (input == "-") continue;
    struct stat info {};
    if (::stat(input.c_str(), &info) != 0) continue;
    if (same_file(info, target)) return refused(out, input);
    fs::path folder;
    if (S_ISDIR(info.st_mode))
      folder = input;
    else if (fs::path(input).filename() == "summary.json")
      folder =
          fs::path(input).parent_path().empty() ? fs::path(".") : fs::path(input).parent_path();
    if (folder.empty()) continue;
    if (const std::optional<fs::path> held = folder_holds(folder, target))
      return refused(out, held->string());
  }
  return Status::success();
}

Status refuse_standard_input_twice(const std::vector<std::string>& inputs) {
  int readers = 0;
  for (const std::string& input : inputs)
    if (input == "-" || input == "/dev/stdin" || input == "/proc/self/fd/0") ++readers;
  if (readers > 1)
    return make_error(ErrorKind::kUsage,
                      "standard input (-) is given {} times; it can be read once: save it to a "
                      "file and give its name",
                      readers);
  return Status::success();
}

}  // namespace attnprof
