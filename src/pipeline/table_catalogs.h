#pragma once
// The catalogs a front end lays its tables out by, as the core's own outputs do: the activity
// columns (analysis/activity_columns.h, which CSV reads), the region facts, wait metrics among
// them (analysis/regions/region_fact_catalog.h), kernel classes' ids
// (analysis/kernels/kernel_class.h) and nn.Module class names (analysis/top_tables.h). A front
// end includes this, not the analyses, so that it reads the one entry of each column and never
// computes a fact (docs/ARCHITECTURE.md, "Front ends").

#include "analysis/activity_columns.h"
#include "analysis/kernels/kernel_class.h"
#include "analysis/regions/region_fact_catalog.h"
#include "analysis/top_tables.h"
