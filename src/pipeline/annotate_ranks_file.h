#pragma once
// `attnprof annotate --critical-path DIR -o OUT` (docs/CRITICAL_PATH.md, "In Perfetto"): the
// traces of a folder of ranks merged into one trace, each rank a process of its own ("rank N":
// every pid and tid of the rank rewritten onto it, each flow id moved to a range of the rank's),
// with each rank's critical paths marked as annotate --critical-path marks them, and the ranks'
// clocks aligned on their first collective (analysis/collectives/first_collective.h).

#include <string>
#include <vector>

#include "attnprof/analysis.h"
#include "attnprof/result.h"

namespace attnprof {

struct MergedRank {
  std::string path;
  int rank = 0;            // the trace's distributedInfo rank, else its place in the folder
  int64_t shift_ns = 0;    // added to its times
  std::string aligned_on;  // the event its clock was aligned on ("ncclDevKernel_AllReduce...")
  size_t critical_paths = 0;
};

struct AnnotateRanksOutcome {
  std::vector<MergedRank> ranks;
  // One line, empty when the ranks were aligned on their collectives: what they were aligned on
  // instead.
  std::string warning;
};

// Reads each trace of `dir` (its own files, in natural order), marks its critical paths, and
// writes the merged trace to `out_path` (gzip when it ends in .gz; written whole or not at all).
// The ranks are aligned on their first communication kernel where every rank has one, else on
// their first collective op where every rank has one, else on their first event (with a
// warning). Fails with one line: the folder holds no trace, a rank cannot be read or was
// annotated already (naming its file), OUT cannot be written.
Result<AnnotateRanksOutcome> annotate_ranks(const std::string& dir, const std::string& out_path,
                                            const AnalyzeOptions& options);

}  // namespace attnprof
