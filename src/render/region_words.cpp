#include "render/region_words.h"

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

std::string describe_regions(int64_t count, const std::string& pattern) {
  std::string noun = count == 1 ? "region" : "regions";
  if (pattern.empty()) return fmt::format("{} {} (the whole trace)", count, noun);
  return fmt::format("{} {} matching \"{}\"", count, noun, escape_control(pattern));
}

std::string region_choice_words(const TraceAnalysis& t) {
  if (!t.region_pattern.empty() || t.annotations.empty()) return {};
  constexpr size_t kOthersShown = 3;
  const AnnotationCount& top = t.annotations.front();
  const std::string name = escape_control(top.name);
  // A pattern or a name with spaces goes to the shell quoted.
  const bool quote = name.find_first_of(" *?#'\"$") != std::string::npos;
  std::string words = fmt::format("{} \"{}\" region{} exist{}: --region {}", top.count, name,
                                  top.count == 1 ? "" : "s", top.count == 1 ? "s" : "",
                                  quote ? "'" + name + "'" : name);
  for (size_t i = 1; i < t.annotations.size() && i <= kOthersShown; ++i)
    words += fmt::format("{}{} ({})", i == 1 ? "; also " : ", ",
                         escape_control(t.annotations[i].name), t.annotations[i].count);
  if (t.annotations.size() > kOthersShown + 1)
    words += fmt::format(" and {} more", t.annotations.size() - kOthersShown - 1);
  return words;
}

std::string distributed_words(const TraceAnalysis& t) {
  if (t.distributed_backend.empty()) return {};
  std::string rank = t.rank < 0 ? std::string("rank unknown") : fmt::format("rank {}", t.rank);
  if (t.world_size >= 0) rank += fmt::format(" of {}", t.world_size);
  return fmt::format("; {} ({})", rank, escape_control(t.distributed_backend));
}

std::vector<std::string> outside_regions_lines(const WorkOutsideRegions& o) {
  std::vector<std::string> lines;
  if (o.activities == 0) return lines;
  lines.push_back(fmt::format("{} of {} GPU activities ({}) are in no region", o.activities,
                              o.trace_activities, format_duration(o.busy_ns)));
  if (o.carried_in > 0) {
    std::string overlaps;
    for (const std::string& region : o.carried_in_overlaps)
      overlaps += (overlaps.empty() ? ", overlapping " : ", ") + escape_control(region);
    lines.push_back(fmt::format("carried in from before the trace: {} activities, {}{}",
                                o.carried_in, format_duration(o.carried_in_busy_ns), overlaps));
  }
  return lines;
}

}  // namespace attnprof
