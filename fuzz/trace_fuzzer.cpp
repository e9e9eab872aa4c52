// libFuzzer's entry point: every input runs through the whole pipeline (fuzz_one_trace.h).
// Bad input must end in an error of the project's shape (one line naming the file); anything
// else, like a crash, a leak or a sanitizer report, is a finding. scripts/fuzz.sh runs it;
// docs/FUZZING.md says how.

#include <cstdio>
#include <cstdlib>

#include "fuzz/fuzz_one_trace.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const attnprof::fuzz::PipelineRun run = attnprof::fuzz::fuzz_one_trace({data, size});
  if (!run.result.ok()) {
    if (auto problem = attnprof::fuzz::error_shape_problem(run.result.error(), run.path)) {
      std::fprintf(stderr, "trace_fuzzer: %s\n", problem->c_str());
      std::abort();
    }
  }
  return 0;
}
