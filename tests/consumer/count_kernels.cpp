// Reads one trace through the installed library and prints its kernels, region by region.
// usage: count_kernels TRACE EXPECTED_KERNELS_PER_REGION; exits 0 when every region has them.

#include <cstdio>
#include <cstdlib>
#include <string>

#include "attnprof/analysis.h"

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
  return all ? 0 : 1;
}
