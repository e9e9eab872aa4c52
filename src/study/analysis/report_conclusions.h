#pragma once
// The study analysis: from what a report gathered (the run's summary.json, each variant's
// analyzed trace, the studies beside it) to what they conclude — the headline, what the hardware
// counters show, the roofline — computed once, into each study's StudyConclusions
// (study/analysis/report_data.h). pipeline/report_inputs.cpp calls it last; renderers only read.

#include <vector>

#include "analysis/headline.h"
#include "study/analysis/report_data.h"

namespace attnprof {

// The inputs of a report's headline: for a bench run, the point the timelines show, timed by
// the bench's GPU median and weighed by each variant's trace (when it was read); for traces,
// their median GPU busy time per region.
std::vector<HeadlineVariant> headline_variants(const ReportData& data);
// A bench run's point from its summary.json alone (no trace).
std::vector<HeadlineVariant> headline_variants(const RunPoint& point);
// The backward study beside a run: its focus point, weighed by its traces' forward and backward
// regions.
std::vector<HeadlineVariant> headline_variants(const ReportBackward& backward);

// Every conclusion of a study read by itself from its summary.json (the headline of its middle
// point, its counters' findings and roofline).
// A run made --from-trace weighs its switch by `step` where it holds one.
StudyConclusions conclude_run(const RunSummary& run, int focus_point,
                              const StepProjectionOutcome& step = {});

// Fills data.conclusions, and those of the backward study and of each study beside the run.
void conclude_report(ReportData& data);

}  // namespace attnprof
