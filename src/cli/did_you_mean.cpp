#include "cli/did_you_mean.h"

#include <algorithm>

namespace attnprof::cli {

namespace {

// Levenshtein distance, with a swap of two neighbours counted as one edit ("anlayze").
size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i)
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

}  // namespace

std::optional<std::string> closest(std::string_view word,
                                   const std::vector<std::string>& candidates) {
  if (word.size() > 64) return std::nullopt;  // a file name, not a typo
  std::optional<std::string> best;
  size_t best_distance = 3;
  for (const std::string& c : candidates) {
    const size_t distance = edit_distance(word, c);
    if (distance < best_distance && 2 * distance < std::max(word.size(), c.size())) {
      best = c;
      best_distance = distance;
    }
  }
  return best;
}

}  // namespace attnprof::cli
