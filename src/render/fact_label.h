#pragma once
// A fact's words in a table's header or row (analyze's region tables, diff's per-region rows), with
// its unit as each format writes it: "GPU busy µs" (text, HTML), "GPU busy (µs)" (Markdown). A
// count stands alone, and so does a percentage, whose cells carry the sign ("42.0 %"); a fact
// without a label shows its name, which says its unit (idle_host_wait_us).

#include <string>
#include <string_view>

#include "analysis/regions/region_fact_catalog.h"

namespace attnprof {

enum class UnitStyle : uint8_t { kSpaced, kParenthesized };

std::string fact_label(std::string_view label, std::string_view name, FactUnit unit,
                       UnitStyle style);

}  // namespace attnprof
