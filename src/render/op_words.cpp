#include "render/op_words.h"

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

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
  // A memory-bound op is held to the bandwidth; a compute roof's first word is its precision
  // ("bf16 dense 989 TFLOP/s").
  const std::string_view roof =
      o.memory_bound ? "mem" : std::string_view(o.roof).substr(0, o.roof.find(' '));
  return fmt::format("{:.1f} {}", *o.roof_pct, roof);
}

std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow) {
  std::string out;
  for (const auto& op : op_chain) out += escape_control(op) + arrow;
  return out + (launch_api.empty() ? "?" : escape_control(launch_api));
}

}  // namespace attnprof
