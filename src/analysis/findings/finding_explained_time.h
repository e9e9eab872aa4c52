#pragma once
// The time each finding of a trace accounts for (Finding::explains_ns), and the findings listed by
// it, the largest first.

#include <vector>

#include "attnprof/critical_path.h"
#include "attnprof/findings.h"
#include "attnprof/region_facts.h"

namespace attnprof {

// By the time the catalog says each finding explains (analysis/findings/finding_catalog.h):
// - the GPU idle while the CPU works or waits: on `path` (the typical region's critical path),
//   the CPU and launch overhead (cpu-side-cost, launch-bound) or the host's waits
//   (synchronization);
// - communication that overlaps no compute: communication on `path`;
// - kernel classes: the GPU time of the work the finding blames where its rule counts it
//   (Finding::gpu_ns), else of its classes in the typical region (`facts`, medians);
// - none: stays < 0.
// Then sorts `findings` by it, the largest first; those that explain no time keep their order
// after the others. Without a path (a region merged from a summary), the path's findings weigh 0.
void weigh_findings(std::vector<Finding>& findings, const CriticalPath& path,
                    const RegionFacts& facts);

}  // namespace attnprof
