#pragma once
// "did you mean" for a mistyped subcommand or flag (docs/SECURITY.md).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnprof::cli {

// The candidate nearest to `word` by edit distance, when it is near enough to be what was meant
// (at most 2 edits, and fewer than half of the word); none otherwise.
std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates);

}  // namespace attnprof::cli
