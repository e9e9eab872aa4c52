#include "pipeline/summary_json_file.h"

#include "study/run/run_summary.h"
#include "study/run/run_summary_json.h"

namespace attnprof {

Result<std::string> rewrite_run_summary(const std::string& path) {
  Result<RunSummary> run = read_run_summary(path);
  if (!run.ok()) return run.take_error();
  return write_run_summary(*run);
}

}  // namespace attnprof
