#pragma once
// -o/--output and --format as every command reads them (README.md, "Habits every command shares"):
// the output goes to standard output unless -o names a file ("-" and /dev/stdout are standard
// output too); the format is --format's, else the one -o's extension names, else the command's own
// default; a --format that the extension contradicts is refused with one line.

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "attnprof/result.h"
#include "render/output_format.h"

namespace attnprof::cli {

struct OutputOption {
  std::string path = "-";
  std::string format;  // as --format gave it; empty when absent
  bool wide = false;   // --wide: text lines left whole (render/text_wrap.h)

  // Adds -o/--output (with `more_names`, such as ",--out") and, when `formats` is not empty,
  // --format limited to them. `format_help` follows the list of formats in --help.
  void add_to(CLI::App& cmd, const std::vector<OutputFormat>& formats,
              const std::string& format_help, const std::string& more_names = "");

  // Adds --wide (analyze has its own, which also writes cut names in full).
  void add_wide_flag(CLI::App& cmd);

  bool to_standard_output() const { return is_standard_output(path); }
  // Text as it is written: wrapped at the terminal's width when it goes to one, else at 120
  // columns (render/text_wrap.h); whole with --wide.
  std::string fit_text(std::string text) const;
  // The width fit_text wraps at; 0 with --wide.
  size_t text_width() const;
  static bool is_standard_output(const std::string& path);
};

// The format to write: `option.format` when given (refused when -o's extension names another),
// else the format of -o's extension among `supported` (refused when the extension names a format
// the command cannot write), else `fallback`. `command` names the command in the message.
Result<OutputFormat> resolve_output_format(const std::string& command, const OutputOption& option,
                                           const std::vector<OutputFormat>& supported,
                                           OutputFormat fallback);

}  // namespace attnprof::cli
