#pragma once
// The report's "Hardware counters" section (bench --counters): per variant what Nsight Compute
// measured beside what the trace estimates, and the roofline.

#include <string>

#include "study/analysis/report_data.h"

namespace attnprof {

// Appends the section; nothing for a run without counters or for plain traces.
void write_counters_section(std::string& out, const ReportData& data);

// Whether there is one (for the page's navigation).
bool has_counters_section(const ReportData& data);

}  // namespace attnprof
