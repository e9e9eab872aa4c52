#pragma once
// summary.json written from the run model through its field tables
// (study/run/run_summary_fields.h), which the reader reads through too: the bench, `attnprof
// summary-json` (which scripts/gpu/record_flex.py runs) and the round-trip test
// (tests/run_summary_fields_test.cpp) call it.

#include <string>

#include "study/run/run_summary.h"

namespace attnprof {

// The whole file, two-space indented, with a final newline; the keys of an addition the run lacks
// (RunSummary::additions) are left out, as the file it was read from had them.
std::string write_run_summary(const RunSummary& run);

}  // namespace attnprof
