#pragma once
// Text output that fits the terminal (README.md, "Habits every command shares"): a line wider than
// the terminal (or 120 columns when standard output is no terminal) is wrapped at spaces, its
// continuation indented under the line's text: past a "- ", "* " or "-> " bullet, or past a label
// that two spaces end. Tables are cut to fit where they are made (names cut, in full below them,
// render/markdown_kernel_names.h); what reaches this is prose, such as a finding naming three
// kernels. --wide leaves every line whole.

#include <cstddef>
#include <string>
#include <string_view>

namespace attnprof {

// The width text output wraps at when nothing else says: what a terminal shows without
// scrolling, and what a log or a pull request comment shows in full.
inline constexpr size_t kDefaultTextWidth = 120;

// `text` with each line wider than `width` columns (render/display_text.h counts them) wrapped
// as above; a word wider than the room left is cut between characters. `width` below 40 is
// taken as 40: a narrower wrap would leave the text unreadable.
std::string wrap_text(std::string_view text, size_t width);

}  // namespace attnprof
