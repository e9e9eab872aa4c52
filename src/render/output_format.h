#pragma once
// Every format a command writes, named once: --format's values, -o's extensions
// (cli/output_option.h) and the Python module's `format=` parse into this, and the renderers are
// chosen by it, never by comparing the names.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

enum class OutputFormat : uint8_t {
  kText,      // "text": for a terminal
  kJson,      // "json"
  kMarkdown,  // "md"
  kCsv,       // "csv"
  kHtml,      // "html": one self-contained page
  kSummary,   // "summary": analyze's trace summaries, JSON Lines (docs/DISTRIBUTED.md)
  kJunit,     // "junit": check's JUnit XML
  kHeadline,  // "headline": report's one line per study
};

// "text", "json", "md", ...: --format's value.
std::string_view output_format_name(OutputFormat format);

// The format `name` names; none for a name no format has.
std::optional<OutputFormat> parse_output_format(std::string_view name);

// The names of `formats`, in their order: --format's choices.
std::vector<std::string> output_format_names(const std::vector<OutputFormat>& formats);

}  // namespace attnprof
