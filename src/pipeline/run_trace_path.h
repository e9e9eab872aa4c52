#pragma once
// Where a bench run's files are: a variant's trace as summary.json names it, and the trace a
// `bench --from-trace` run was made from.

#include <filesystem>
#include <optional>
#include <string>

namespace attnprof {

// A variant's trace `file` (relative to the run's folder `dir`): beside summary.json, or under
// traces/ (how examples/ ship them).
std::optional<std::string> find_variant_trace(const std::filesystem::path& dir,
                                              const std::string& file);

// The trace `bench --from-trace` was given, named as the bench was given it: relative to the
// folder the bench ran in, which is not known afterwards. Found from the current folder, else
// from the run's folder or a folder above it (a run written into examples/models/NAME of the
// checkout it named the trace from).
std::optional<std::string> find_source_trace(const std::filesystem::path& run_dir,
                                             const std::string& trace);

}  // namespace attnprof
