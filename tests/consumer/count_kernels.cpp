// Reads one trace through the installed library and prints its kernels, region by region; then
// diffs the trace with itself through the public diff header, which must find no change.
// usage: count_kernels TRACE EXPECTED_KERNELS_PER_REGION; exits 0 when every region has them.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "attnprof/analysis.h"
#include "attnprof/trace_diff.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: count_kernels TRACE EXPECTED_KERNELS_PER_REGION\n");
    return 2;
  }
  const long expected = std::strtol(argv[2], nullptr, 10);
  attnprof::Result<attnprof::TraceAnalysis> analysis =
      attnprof::analyze_file(argv[1], attnprof::AnalyzeOptions{});
  if (!analysis.ok()) {
    std::fprintf(stderr, "%s\n", analysis.error().message.c_str());
    return 2;
  }
  if (analysis->regions.empty()) {
    std::fprintf(stderr, "%s: no regions\n", argv[1]);
    return 1;
  }
  bool all = true;
  for (const attnprof::RegionSummary& region : analysis->regions) {
    std::printf("%s: %lld kernels\n", region.name.c_str(), static_cast<long long>(region.kernels));
    all = all && region.kernels == expected;
  }
  attnprof::AnalyzeOptions every_region;
  every_region.activities_of_every_region = true;
  auto again = attnprof::analyze_file(argv[1], every_region);
  if (!again.ok()) return 2;
  attnprof::Result<attnprof::TraceDiff> same = attnprof::diff_traces(*again, *again);
  if (!same.ok() || same->added + same->removed + same->changed != 0 || same->unchanged == 0) {
    std::fprintf(stderr, "%s: a diff with itself found changes\n", argv[1]);
    return 1;
  }
  std::printf("diff with itself: %d activities unchanged\n", same->unchanged);
  return all ? 0 : 1;
}
