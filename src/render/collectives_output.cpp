#include "render/collectives_output.h"

#include <fmt/format.h>

#include "render/csv_writer.h"
#include "render/display_text.h"
#include "render/text_append.h"

namespace attnprof {

namespace {

std::string rate(double gbps) {
  return gbps < 0 ? "-" : fmt::format("{:.1f}", gbps);
}

std::string of_link(double busbw_gbps, const GpuLink& link) {
  if (busbw_gbps < 0 || link.gb_per_s_per_direction <= 0) return "-";
  return fmt::format("{:.1f}", 100 * busbw_gbps / link.gb_per_s_per_direction);
}

void table(std::string& out, const std::vector<CollectiveTotals>& rows, const GpuLink& link) {
  put(out, "    {:<32} {:<9} {:>5} {:>6} {:>11} {:>10} {:>9} {:>9}{}\n", "collective", "dtype",
      "ranks", "count", "GPU µs", "MB", "algbw", "busbw",
      link.gb_per_s_per_direction > 0 ? "  % link" : "");
  for (const CollectiveTotals& c : rows) {
    fmt::format_to(
        std::back_inserter(out), "    {:<32} {:<9} {:>5} {:>6} {:>11.1f} {:>10} {:>9} {:>9}",
        clip(escape_control(c.name), 32), c.dtype.empty() ? "-" : escape_control(c.dtype),
        c.group_size < 0 ? "-" : fmt::format("{}", c.group_size), c.count,
        static_cast<double>(c.gpu_ns) / 1000.0,
        c.sized > 0 ? fmt::format("{:.2f}", static_cast<double>(c.bytes) / 1e6) : "-",
        rate(c.algbw_gbps), rate(c.busbw_gbps));
    if (link.gb_per_s_per_direction > 0) put(out, "  {:>6}", of_link(c.busbw_gbps, link));
    out += '\n';
  }
}

}  // namespace

void write_collectives_json(JsonWriter& w, const std::vector<CollectiveTotals>& rows) {
  w.key("collectives").begin_array();
  for (const CollectiveTotals& c : rows) {
    w.begin_object();
    w.key("name").string(c.name);
    w.key("dtype").string(c.dtype);
    w.key("group_size");
    c.group_size < 0 ? w.null() : w.number(c.group_size);
    w.key("count").number(c.count);
    w.key("gpu_us").number(static_cast<double>(c.gpu_ns) / 1000.0);
    w.key("sized").number(c.sized);
    w.key("bytes").number(c.bytes);
    w.key("sized_gpu_us").number(static_cast<double>(c.sized_gpu_ns) / 1000.0);
    w.key("algbw_gbps");
    c.algbw_gbps < 0 ? w.null() : w.number(c.algbw_gbps);
    w.key("bus_factor");
    c.bus_factor < 0 ? w.null() : w.number(c.bus_factor);
    w.key("busbw_gbps");
    c.busbw_gbps < 0 ? w.null() : w.number(c.busbw_gbps);
    w.end_object();
  }
  w.end_array();
}

void write_gpu_link_json(JsonWriter& w, const GpuLink& link) {
  w.key("link");
  if (link.gb_per_s_per_direction <= 0) {
    w.null();
    return;
  }
  w.begin_object();
  w.key("name").string(link.name);
  w.key("gbps_per_direction").number(link.gb_per_s_per_direction);
  w.end_object();
}

void render_collectives_text(std::string& out, const TraceAnalysis& t) {
  if (t.collectives.empty()) return;
  const std::string link = t.link.gb_per_s_per_direction > 0
                               ? fmt::format("; % link: of {}'s {:.0f} GB/s a direction",
                                             t.link.name, t.link.gb_per_s_per_direction)
                               : "";
  put(out,
      "\n  Collectives of the whole trace (per rank; GB/s as nccl-tests"
      "{}):\n",
      link);
  table(out, t.collectives, t.link);
  if (t.typical_region >= 0 && t.regions.size() > 1) {
    const RegionSummary& r = t.regions[static_cast<size_t>(t.typical_region)];
    if (!r.collectives.empty()) {
      put(out, "  Collectives of the typical region (#{} {}):\n", t.typical_region + 1,
          escape_control(r.name));
      table(out, r.collectives, t.link);
    }
  }
  int64_t unsized = 0;
  for (const CollectiveTotals& c : t.collectives) unsized += c.count - c.sized;
  if (unsized > 0)
    put(out,
        "  {} communication kernel(s) carry no message size (\"In msg nelems\", "
        "\"dtype\": PyTorch 2.1 and later): no bandwidth for them\n",
        unsized);
}

std::string render_collectives_csv(const AnalyzeOutput& output) {
  CsvWriter csv({"trace", "rank", "region", "region_index", "region_pid", "typical", "collective",
                 "dtype", "group_size", "count", "gpu_us", "sized", "bytes", "sized_gpu_us",
                 "algbw_gbps", "bus_factor", "busbw_gbps", "link", "link_gbps_per_direction"});
  auto optional_number = [&](double v) { v < 0 ? csv.empty() : csv.number(v); };
  for (const TraceAnalysis& t : output.traces) {
    auto rows = [&](const std::vector<CollectiveTotals>& of, const std::string& region,
                    int64_t index, int32_t pid, bool typical) {
      for (const CollectiveTotals& c : of) {
        csv.text(t.path);
        t.rank < 0 ? csv.empty() : csv.number(int64_t{t.rank});
        csv.text(region);
        index < 0 ? csv.empty() : csv.number(index);
        csv.number(int64_t{pid}).text(typical ? "true" : "false");
        csv.text(c.name).text(c.dtype);
        c.group_size < 0 ? csv.empty() : csv.number(c.group_size);
        csv.number(c.count).number(static_cast<double>(c.gpu_ns) / 1000.0).number(c.sized);
        csv.number(c.bytes).number(static_cast<double>(c.sized_gpu_ns) / 1000.0);
        optional_number(c.algbw_gbps);
        optional_number(c.bus_factor);
        optional_number(c.busbw_gbps);
        csv.text(t.link.name);
        optional_number(t.link.gb_per_s_per_direction > 0 ? t.link.gb_per_s_per_direction : -1);
        csv.end_row();
      }
    };
    rows(t.collectives, "(whole trace)", -1, 0, false);
    for (size_t i = 0; i < t.regions.size(); ++i)
      rows(t.regions[i].collectives, t.regions[i].name, static_cast<int64_t>(i), t.regions[i].pid,
           static_cast<int>(i) == t.typical_region);
  }
  return csv.take();
}

}  // namespace attnprof
