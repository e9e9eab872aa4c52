#include "render/markdown_kernel_names.h"

#include <fmt/format.h>

#include "render/display_text.h"

namespace attnprof {

namespace {

// A name in full as the list shows it: the longest template names run to kilobytes.
constexpr size_t kFullNameWidth = 1000;

// A cut this close to the width's end is better at an underscore than inside a word.
constexpr size_t kUnderscoreReach = 12;

}  // namespace

std::string cut_kernel_name(std::string_view name) {
  // Character boundaries (valid UTF-8 sequences; any other byte counts as one).
  std::vector<size_t> starts;
  for (size_t at = 0; at < name.size();) {
    starts.push_back(at);
    const size_t n = utf8_length(name, at);
    at += n == 0 ? 1 : n;
  }
  if (starts.size() <= kMarkdownKernelWidth) return std::string(name);
  // Keep room for the "…" within the width.
  const size_t keep = kMarkdownKernelWidth - 1;
  size_t end = starts[keep];
  for (size_t c = keep; c + kUnderscoreReach > keep && c > 0; --c) {
    if (name[starts[c]] == '_') {
      end = starts[c];
      break;
    }
  }
  return std::string(name.substr(0, end)) + "…";
}

std::string MarkdownKernelNames::cell(std::string_view short_name, std::string_view full_name) {
  const std::string_view full = full_name.empty() ? short_name : full_name;
  const std::string shown = cut_kernel_name(short_name);
  std::string out = markdown_code(shown);
  if (shown == full) return out;
  auto it = numbers_.find(full);
  if (it == numbers_.end()) {
    full_names_.emplace_back(full);
    it = numbers_.emplace(std::string(full), full_names_.size()).first;
  }
  return out + fmt::format(" [{}]", it->second);
}

std::string MarkdownKernelNames::details() const {
  if (full_names_.empty()) return {};
  std::string out = "<details><summary>Kernel names in full</summary>\n\n";
  for (size_t i = 0; i < full_names_.size(); ++i)
    out += fmt::format("{}. {}\n", i + 1, markdown_cell(clip(full_names_[i], kFullNameWidth)));
  out += "\n</details>\n\n";
  return out;
}

}  // namespace attnprof
