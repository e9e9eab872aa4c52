#include "render/shared_words.h"

#include <fmt/format.h>

#include "base/format_units.h"

namespace attnprof {

std::string describe_regions(int64_t count, const std::string& pattern) {
  std::string noun = count == 1 ? "region" : "regions";
  if (pattern.empty()) return fmt::format("{} {} (the whole trace)", count, noun);
  return fmt::format("{} {} matching \"{}\"", count, noun, escape_control(pattern));
}

namespace {

// "median (min..max)", or the median alone when min and max read the same.
template <typename Format>
std::string format_spread(const Spread& s, Format format) {
  std::string low = format(s.min), high = format(s.max);
  if (s.count <= 1 || low == high) return format(s.median);
  return fmt::format("{} ({}..{})", format(s.median), low, high);
}

}  // namespace

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

std::string format_spread_us(const Spread& s) {
  return format_spread(s, [](double ns) { return format_us(ns); });
}

std::string format_spread_count(const Spread& s) {
  return format_spread(s, [](double v) { return format_count(v); });
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

std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow) {
  std::string out;
  for (const auto& op : op_chain) out += escape_control(op) + arrow;
  return out + (launch_api.empty() ? "?" : escape_control(launch_api));
}

void write_json_spread(JsonWriter& w, const Spread& s, double divisor) {
  w.begin_object();
  w.key("median").number(s.median / divisor);
  w.key("min").number(s.min / divisor);
  w.key("max").number(s.max / divisor);
  w.key("regions").number(s.count);
  w.end_object();
}

std::string op_rate_words(const OpTotal& o) {
  const std::optional<double> rate = o.achieved_per_s();
  if (!rate) return {};
  return o.memory_bound ? fmt::format("{:.0f} GB/s", *rate / 1e9)
                        : fmt::format("{:.1f} TFLOP/s", *rate / 1e12);
}

std::string op_roof_words(const RegionTables& t) {
  if (t.roof_gpu.empty()) return "% roof: none, " + t.no_roof_reason;
  return "rate: FLOP/s of the calls that launched the work (GB/s if memory-bound); % roof: of "
         "the " +
         t.roof_gpu +
         "'s dense peak for the row's type (bf16, fp32, ...), or of its memory bandwidth (mem); "
         "above: the estimate passes the roof";
}

std::string op_roof_cell(const OpTotal& o) {
  if (!o.roof_note.empty()) return "above";
  if (!o.roof_pct) return {};
  const std::string_view roof = std::string_view(o.roof).substr(0, o.roof.find(' '));
  return fmt::format("{:.1f} {}", *o.roof_pct, roof == "memory" ? "mem" : roof);
}

}  // namespace attnprof
