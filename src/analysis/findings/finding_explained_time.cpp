#include "analysis/findings/finding_explained_time.h"

#include <algorithm>

#include "analysis/findings/finding_catalog.h"
#include "analysis/headline.h"

namespace attnprof {

namespace {

double explained_ns(const Finding& f, const CriticalPath& path, const RegionFacts& facts) {
  const FindingDescription& d = describe(f.kind);
  const CriticalPathCategories& c = path.categories;
  switch (d.explains) {
    case ExplainedTime::kHostGap:
      if (f.kind == FindingKind::kSynchronization) return static_cast<double>(c.sync_ns);
      return static_cast<double>(c.cpu_ns + c.launch_overhead_ns);
    case ExplainedTime::kCommunication:
      return static_cast<double>(c.communication_ns);
    case ExplainedTime::kKernelClasses:
      if (f.gpu_ns >= 0) return f.gpu_ns;
      return headline_explained_ns(std::string(d.id), facts).value_or(0);
    case ExplainedTime::kUnmeasured:
    case ExplainedTime::kNone:
      break;
  }
  return -1;
}

}  // namespace

void weigh_findings(std::vector<Finding>& findings, const CriticalPath& path,
                    const RegionFacts& facts) {
  for (Finding& f : findings) f.explains_ns = explained_ns(f, path, facts);
  std::stable_sort(findings.begin(), findings.end(), [](const Finding& a, const Finding& b) {
    return a.explains_ns > b.explains_ns;
  });
}

}  // namespace attnprof
