#pragma once
// The report page's attention calls: per variant whose trace recorded shapes
// (record_shapes=True), its typical region's calls as analyze's table has them (op, backend,
// shapes, FLOPs, GPU time, TFLOP/s, % roof; render/attention_call_cells.h) and attention's share of
// the region's GPU time.

#include <string>

#include "study/analysis/report_data.h"

namespace attnprof {

// Whether some variant's trace has attention calls: the page then has the section.
bool has_attention_calls_section(const ReportData& data);
// The section (id "attention"); nothing without one.
void write_attention_calls_html(std::string& out, const ReportData& data);

}  // namespace attnprof
