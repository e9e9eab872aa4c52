#include "render/report_words.h"

#include <fmt/format.h>

#include "render/format_units.h"

namespace attnprof {

std::string describe_regions(int64_t count, const std::string& pattern) {
  std::string noun = count == 1 ? "region" : "regions";
  if (pattern.empty()) return fmt::format("{} {} (the whole trace)", count, noun);
  return fmt::format("{} {} matching \"{}\"", count, noun, pattern);
}

std::string format_spread_us(const Spread& s) {
  if (s.count <= 1 || !s.varies()) return format_us(s.median);
  return fmt::format("{} ({}..{})", format_us(s.median), format_us(s.min), format_us(s.max));
}

std::string format_spread_count(const Spread& s) {
  if (s.count <= 1 || !s.varies()) return format_count(s.median);
  return fmt::format("{} ({}..{})", format_count(s.median), format_count(s.min), format_count(s.max));
}

std::string clip(const std::string& text, size_t width) {
  if (text.size() <= width) return text;
  return text.substr(0, width > 3 ? width - 3 : 0) + "...";
}

std::string markdown_cell(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += "\\|";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow) {
  std::string out;
  for (const auto& op : op_chain) out += op + arrow;
  return out + (launch_api.empty() ? "?" : launch_api);
}

}  // namespace attnprof
