#pragma once
// The traces of a folder, for `attnprof analyze DIR` (docs/ARCHITECTURE.md): torch.profiler's
// tensorboard_trace_handler writes one flat folder per run with one file per rank, so the folder
// is read flat, not recursively.

#include <string>
#include <string_view>
#include <vector>

#include "attnprof/result.h"

namespace attnprof {

// True for names ending in .json or .json.gz (Kineto's *.pt.trace.json(.gz) among them).
bool is_trace_file_name(std::string_view name);

// Orders names as a person would: runs of digits compare as numbers, so rank_2 comes before
// rank_10 (plain byte order would put rank_10 first). Names that compare equal that way (rank_01
// and rank_1) fall back to byte order, so the order is total.
bool natural_less(std::string_view a, std::string_view b);

// The trace files directly inside `dir` (regular files, or links to them), in natural order, as
// paths `dir`/name. Fails with one line naming the folder when it cannot be listed or holds no
// trace.
Result<std::vector<std::string>> list_trace_directory(const std::string& dir);

}  // namespace attnprof
