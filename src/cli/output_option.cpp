#include "cli/output_option.h"

#include <algorithm>
#include <cctype>
#include <string_view>

#include <sys/ioctl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "render/text_wrap.h"

namespace attnprof::cli {

namespace {

// The formats a file name's extension stands for, the likelier first: a .json file may hold
// analyze's JSON or its summary lines (JSON objects too), a .txt file text or a headline.
struct ExtensionFormats {
  std::string_view extension;
  std::string_view what;  // for messages, with its article
  std::vector<OutputFormat> formats;
};

const std::vector<ExtensionFormats>& extension_formats() {
  static const std::vector<ExtensionFormats> table = {
      {".json", "a JSON", {OutputFormat::kJson, OutputFormat::kSummary}},
      {".jsonl", "a JSON Lines", {OutputFormat::kSummary}},
      {".md", "a Markdown", {OutputFormat::kMarkdown}},
      {".markdown", "a Markdown", {OutputFormat::kMarkdown}},
      {".csv", "a CSV", {OutputFormat::kCsv}},
      {".html", "an HTML", {OutputFormat::kHtml}},
      {".htm", "an HTML", {OutputFormat::kHtml}},
      {".txt", "a text", {OutputFormat::kText, OutputFormat::kHeadline}},
      {".xml", "an XML (JUnit)", {OutputFormat::kJunit}},
  };
  return table;
}

const ExtensionFormats* formats_of_extension(const std::string& path) {
  if (OutputOption::is_standard_output(path)) return nullptr;
  std::string lower = path;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  for (const ExtensionFormats& e : extension_formats())
    if (lower.size() > e.extension.size() && lower.ends_with(e.extension)) return &e;
  return nullptr;
}

bool contains(const std::vector<OutputFormat>& list, OutputFormat item) {
  return std::find(list.begin(), list.end(), item) != list.end();
}

}  // namespace

bool OutputOption::is_standard_output(const std::string& path) {
  return path == "-" || path == "/dev/stdout";
}

void OutputOption::add_to(CLI::App& cmd, const std::vector<OutputFormat>& formats,
                          const std::string& format_help, const std::string& more_names) {
  cmd.add_option("-o,--output" + more_names, path,
                 "The file to write (default and -: standard output); written whole or not at "
                 "all, never over an input")
      ->check([](const std::string& name) {
        // An empty name (an unset shell variable) is a mistake, not standard output.
        return name.empty() ? std::string(
                                  "cannot write '': give a file name, or - for standard "
                                  "output")
                            : std::string();
      });
  if (formats.empty()) return;
  const std::vector<std::string> names = output_format_names(formats);
  cmd.add_option("--format", format,
                 fmt::format("Output format: {}; default: the one -o's extension names (.json, "
                             ".md, .csv, .html, .txt, .xml), else {}",
                             fmt::join(names, ", "), format_help))
      ->check(CLI::IsMember(names));
}

void OutputOption::add_wide_flag(CLI::App& cmd) {
  cmd.add_flag("--wide", wide,
               "Text: lines as long as their content, not wrapped at the terminal's width (120 "
               "columns when the output is no terminal)");
}

size_t OutputOption::text_width() const {
  if (wide) return 0;
  winsize size{};
  if (to_standard_output() && isatty(STDOUT_FILENO) &&
      ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col > 0)
    return size.ws_col;
  return kDefaultTextWidth;
}

std::string OutputOption::fit_text(std::string text) const {
  const size_t width = text_width();
  return width == 0 ? text : wrap_text(text, width);
}

Result<OutputFormat> resolve_output_format(const std::string& command, const OutputOption& option,
                                           const std::vector<OutputFormat>& supported,
                                           OutputFormat fallback) {
  const ExtensionFormats* named = formats_of_extension(option.path);
  if (!option.format.empty()) {
    // --format's values are checked against the command's list when parsed (add_to).
    const std::optional<OutputFormat> given = parse_output_format(option.format);
    if (!given || !contains(supported, *given))
      return make_error(ErrorKind::kUsage, "--format {}: {} writes {}", option.format, command,
                        fmt::join(output_format_names(supported), "|"));
    if (named && !contains(named->formats, *given))
      return make_error(ErrorKind::kUsage,
                        "--format {} but -o {} names {} file: drop --format, or name the file "
                        "for {}",
                        option.format, option.path, named->what, option.format);
    return *given;
  }
  if (!named) return fallback;
  for (OutputFormat format : named->formats)
    if (contains(supported, format)) return format;
  return make_error(ErrorKind::kUsage,
                    "-o {} names {} file, which {} does not write: give --format {}, or another "
                    "file name",
                    option.path, named->what, command,
                    fmt::join(output_format_names(supported), "|"));
}

}  // namespace attnprof::cli
