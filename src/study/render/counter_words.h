#pragma once
// "What the hardware counters show", in words: the lines the bench prints under its table and the
// report's text and Markdown repeat (the HTML report draws the same findings in its counters
// section).

#include <string>
#include <vector>

#include "study/analysis/report_data.h"

namespace attnprof {

inline constexpr const char* kCounterNotesHeading =
    "What the hardware counters show (Nsight Compute, docs/counters.md):";

// The tool and the measured bandwidth, then each point's findings ("[memory-bound] naive: ..."),
// a sweep's prefixed by the point. Empty for a run without --counters.
std::vector<std::string> counter_notes(const RunSummary& run, const StudyConclusions& conclusions);

}  // namespace attnprof
