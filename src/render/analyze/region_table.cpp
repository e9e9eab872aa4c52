#include "render/analyze/region_table.h"

#include <algorithm>

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"

namespace attnprof {

namespace {

constexpr int kDurationWidth = 12;   // up to 99999999.9 µs
constexpr int kCountWithParts = 18;  // "12 (8 DtoD, 4 HtoD)"

// A value in its unit: a count as a whole number where it is one, a duration in µs to 0.1, a
// percentage with its sign.
std::string number_cell(const RegionFact& fact, double v) {
  switch (fact.unit) {
    case FactUnit::kMicroseconds:
      return fmt::format("{:.1f}", v);
    case FactUnit::kPercent:
      return format_percent(v);
    default:
      return format_count(v);
  }
}

// A count and the kinds that make it up, those above zero; a count of zero alone.
std::string with_parts(double total, const MetricValue& parts, TableFormat format) {
  std::string out = format_count(total);
  if (total == 0) return out;
  std::string kinds;
  for (const auto& [kind, n] : parts.by_kind) {
    if (n.median <= 0) continue;
    if (format == TableFormat::kText)
      kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", format_count(n.median),
                           escape_control(kind));
    else
      kinds += fmt::format(" ({} {})", format_count(n.median), markdown_cell(kind));
  }
  if (kinds.empty()) return out;
  return format == TableFormat::kText ? out + " (" + kinds + ")" : out + kinds;
}

std::string cell(const RegionColumn& column, const MetricValue& value, const MetricValue* parts,
                 TableFormat format) {
  if (!value.available) return "-";
  if (parts) return with_parts(value.number.median, *parts, format);
  return number_cell(*column.fact, value.number.median);
}

}  // namespace

std::vector<RegionColumn> region_columns(RegionTable table, TableFormat format) {
  std::vector<RegionColumn> out;
  for (const RegionFact& f : region_fact_catalog()) {
    if (f.table != table) continue;
    RegionColumn c{.fact = &f,
                   .parts = f.parts.empty() ? nullptr : find_region_fact(f.parts),
                   .header = fact_label(f.label, f.name, f.unit,
                                        format == TableFormat::kText ? UnitStyle::kSpaced
                                                                     : UnitStyle::kParenthesized)};
    int least = 0;
    if (c.parts)
      least = kCountWithParts;
    else if (f.unit == FactUnit::kMicroseconds)
      least = kDurationWidth;
    c.width = std::max(static_cast<int>(display_width(c.header)) + 1, least);
    out.push_back(std::move(c));
  }
  return out;
}

std::string region_cell(const RegionColumn& column, const RegionSummary& region,
                        TableFormat format) {
  const MetricValue value = column.fact->of_region(region);
  if (!column.parts) return cell(column, value, nullptr, format);
  const MetricValue parts = column.parts->of_region(region);
  return cell(column, value, &parts, format);
}

std::string median_cell(const RegionColumn& column, const RegionFacts& facts, TableFormat format) {
  const MetricValue value = column.fact->of_facts(facts);
  if (!column.parts) return cell(column, value, nullptr, format);
  const MetricValue parts = column.parts->of_facts(facts);
  return cell(column, value, &parts, format);
}

}  // namespace attnprof
