#pragma once
// analyze's region tables as the region facts catalog lays them out (each fact's `table`, `label`
// and `parts`, analysis/regions/region_fact_catalog.h): the terminal's row per region and median
// row, Markdown's medians and its time breakdown. A fact reaches them by its entry alone.

#include <string>
#include <vector>

#include "analysis/regions/region_fact_catalog.h"
#include "attnprof/analysis.h"
#include "render/fact_label.h"

namespace attnprof {

enum class TableFormat : uint8_t { kText, kMarkdown };

struct RegionColumn {
  const RegionFact* fact = nullptr;
  const RegionFact* parts = nullptr;  // the counts by kind shown beside the fact's count, if any
  std::string header;                 // "GPU busy µs" (text), "GPU busy (µs)" (Markdown)
  // The terminal's column width: its header's and a space, and room for a duration (12) or a
  // count with its kinds (18).
  int width = 0;
};

// The columns of `table`, in the catalog's order.
std::vector<RegionColumn> region_columns(RegionTable table, TableFormat format);

// A cell: the fact in one region, or its median over the regions; "-" where unknown. A count
// with parts: "3 (2 DtoD, 1 HtoD)" in text, "3 (2 DtoD) (1 HtoD)" in Markdown.
std::string region_cell(const RegionColumn& column, const RegionSummary& region,
                        TableFormat format);
std::string median_cell(const RegionColumn& column, const RegionFacts& facts, TableFormat format);

}  // namespace attnprof
