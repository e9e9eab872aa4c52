#pragma once
// An output must never replace what its command reads (`report RUN -o RUN/traces/naive.json.gz`
// replaced a recorded trace with HTML). Every command that writes a file asks this before it
// opens its output with io/output_file.h.

#include <string>
#include <vector>

#include "attnprof/result.h"

namespace attnprof {

// Fails with a usage error naming the input when `out` is an existing file that is one of
// `inputs` (after symbolic and hard links), or a file a study folder among `inputs` reads: every
// trace, JSON and CSV file under the folder, its sub-folders (backward/, sweep/, the studies
// beside the run) included. A summary.json input stands for its folder. Standard output ("-",
// "/dev/stdout"), a new file and a device or FIFO (written into, never replaced) pass.
Status refuse_output_over_inputs(const std::string& out, const std::vector<std::string>& inputs);

// Fails with a usage error when standard input ("-" or /dev/stdin) is more than one of `inputs`
// (`diff - -`, `check - --expectations -`): it can be read once, and the second reader would get
// nothing or the rest of the first's bytes.
Status refuse_standard_input_twice(const std::vector<std::string>& inputs);

}  // namespace attnprof
