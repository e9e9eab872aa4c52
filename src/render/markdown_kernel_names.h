#pragma once
// Kernel names in a Markdown table (tests/markdown_names_test.cpp: cuBLAS and cuDNN names of 100+
// characters made a pull request's 14-column table unreadable): each cell holds a name cut to a
// width a table can hold, with a number, and the names in full are listed under the table in a
// <details> block, which GitHub shows closed.

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof {

// Names up to this many characters stay whole in a cell; longer ones are cut near it.
inline constexpr size_t kMarkdownKernelWidth = 48;

// `name` cut for a table cell, not escaped: itself when it has at most kMarkdownKernelWidth
// characters, else its first characters up to an underscore (or a hard cut) followed by "…".
std::string cut_kernel_name(std::string_view name);

// The names of one table, numbered in the order the cells ask for them.
class MarkdownKernelNames {
 public:
  // A Markdown cell for a kernel: `short_name` (short_kernel_name's), cut, as a code span, and
  // "[n]" when the cell does not show `full_name` whole; one number per distinct full name. An
  // empty `full_name` means the short name is all there is.
  std::string cell(std::string_view short_name, std::string_view full_name = {});
  // "<details><summary>Kernel names in full</summary>" with the numbered names as a numbered
  // list, and a blank line after; "" when no cell needed a number.
  std::string details() const;

 private:
  std::vector<std::string> full_names_;
  std::map<std::string, size_t, std::less<>> numbers_;
};

}  // namespace attnprof
