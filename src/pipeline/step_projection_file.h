#pragma once
// The step projection of a `bench --from-trace` run (study/analysis/step_projection.h), from files:
// the trace the run was made from, read and timed once as recorded and once per switch, and each
// variant's own trace for the CPU time of its attention ops.

#include <filesystem>
#include <optional>
#include <string>

#include "attnprof/limits.h"
#include "study/analysis/step_projection.h"
#include "study/run/run_summary.h"

namespace attnprof {

// None (both empty) for a run not made --from-trace. A trace that is missing or unreadable is
// not an error: the projection then weighs GPU time, and `missing` says why. A variant trace that
// cannot be read leaves that variant's CPU factor out.
StepProjectionOutcome project_step_file(const RunSummary& run, const std::filesystem::path& run_dir,
                                        const Limits& limits);

}  // namespace attnprof
