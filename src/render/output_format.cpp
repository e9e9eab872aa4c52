#include "render/output_format.h"

#include <array>
#include <utility>

namespace attnprof {

namespace {

constexpr std::array<std::pair<OutputFormat, std::string_view>, 8> kNames = {{
    {OutputFormat::kText, "text"},
    {OutputFormat::kJson, "json"},
    {OutputFormat::kMarkdown, "md"},
    {OutputFormat::kCsv, "csv"},
    {OutputFormat::kHtml, "html"},
    {OutputFormat::kSummary, "summary"},
    {OutputFormat::kJunit, "junit"},
    {OutputFormat::kHeadline, "headline"},
}};

}  // namespace

std::string_view output_format_name(OutputFormat format) {
  for (const auto& [f, name] : kNames)
    if (f == format) return name;
  return "text";
}

std::optional<OutputFormat> parse_output_format(std::string_view name) {
  for (const auto& [f, n] : kNames)
    if (n == name) return f;
  return std::nullopt;
}

std::vector<std::string> output_format_names(const std::vector<OutputFormat>& formats) {
  std::vector<std::string> names;
  for (OutputFormat f : formats) names.emplace_back(output_format_name(f));
  return names;
}

}  // namespace attnprof
