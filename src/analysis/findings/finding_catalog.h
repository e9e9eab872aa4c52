#pragma once
// Every kind of finding declared once, as the diagnostics are
// (include/attnprof/diagnostic_table.h): its id (JSON, the report, tests), the rule that finds it,
// what time it explains and through which kernel classes, whether the user can act on it, its
// words in the report's headline, and what it means. find_all() runs the rules in its order;
// finding_id(), the report's headline (study/render/report_headline.cpp) and the ranking of
// findings (analysis/headline.cpp) read it; docs/METRICS.md's table of findings is written from it
// (render/metrics_doc.h). Adding a finding: docs/ARCHITECTURE.md, "Adding a finding".

#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "attnprof/findings.h"
#include "attnprof/region_facts.h"

namespace attnprof {

// The time a finding explains in a region, which the headline weighs it by.
enum class ExplainedTime : uint8_t {
  kNone,           // none: it describes how the work runs (occupancy, launch style)
  kKernelClasses,  // the GPU time of its kernel classes
  kCommunication,  // communication that overlaps no compute
  kHostGap,        // the GPU idle while the CPU works or waits: wall - GPU busy
  kUnmeasured,     // time the trace cannot measure (work a mask throws away): ranked, not weighed
};

struct FindingContext;
// A rule: appends its findings of the trace, if any (one file each under src/analysis/findings/).
using FindingRule = void (*)(const FindingContext&, std::vector<Finding>&);

struct FindingDescription {
  // A trace's finding (analysis/findings/); none for a study's, made from its problem and run
  // (study/analysis/masked_pairs.cpp).
  std::optional<FindingKind> kind;
  std::string_view id;
  FindingRule rule = nullptr;  // none for a study's
  ExplainedTime explains = ExplainedTime::kNone;
  uint16_t classes = 0;     // for kKernelClasses: a bit per KernelClass (class_bits)
  bool actionable = false;  // a change of the user's code removes it; else it says how work runs
  // How the report's headline names it as a slow variant's reason: these words, then
  // `headline_time` and the time it explains per region ("the GPU waits for launches" ": idle "
  // "1.20 ms of its 3.40 ms of GPU time per region"). Without words the headline shows the id.
  std::string_view headline;
  std::string_view headline_time;
  std::string_view description;  // what it means: docs/METRICS.md's line
};

constexpr uint16_t class_bits(std::initializer_list<KernelClass> classes) {
  uint16_t bits = 0;
  for (KernelClass c : classes) bits |= uint16_t(1u << static_cast<unsigned>(c));
  return bits;
}

inline constexpr size_t kFindingKindCount = static_cast<size_t>(FindingKind::kCount);

// A trace's findings first, indexed by FindingKind, then the study's.
std::span<const FindingDescription> finding_catalog();
const FindingDescription& describe(FindingKind kind);
// By id ("hidden-copy"); none for an id no finding has.
const FindingDescription* find_finding(std::string_view id);
std::string_view explained_time_name(ExplainedTime explains);  // "kernel classes", ...

}  // namespace attnprof
