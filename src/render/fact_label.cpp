#include "render/fact_label.h"

#include <fmt/format.h>

namespace attnprof {

std::string fact_label(std::string_view label, std::string_view name, FactUnit unit,
                       UnitStyle style) {
  if (label.empty()) return std::string(name);
  if (unit != FactUnit::kMicroseconds && unit != FactUnit::kMebibytes) return std::string(label);
  if (style == UnitStyle::kSpaced) return fmt::format("{} {}", label, fact_unit_name(unit));
  return fmt::format("{} ({})", label, fact_unit_name(unit));
}

}  // namespace attnprof
