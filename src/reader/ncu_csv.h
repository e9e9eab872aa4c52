#pragma once
// Nsight Compute's CSV of raw metrics (`ncu --import REPORT --csv --page raw`), read into one
// KernelCounters per kernel launch, in the order ncu profiled them. The metrics attnprof asks ncu
// for are listed here too, so that what `attnprof bench --counters` collects and what this reads
// cannot drift apart (docs/counters.md).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/hardware_counters.h"
#include "attnprof/result.h"

namespace attnprof {

// The metric names for `ncu --metrics` (comma-joined): every one that fills a KernelCounters
// field. Checked on an H200 (sm_90) with Nsight Compute 2025.3.
const std::vector<std::string>& ncu_metric_names();

// Parses the CSV text. The first row names the columns; a second row whose "ID" cell is empty
// gives the units (with `--print-units base`: byte, ns, hz; without it, ncu's scaled units such as
// Mbyte or us, which are converted back); every other row is a kernel. Numbers may carry ncu's
// thousands separators ("50,354,944"); "n/a" and empty cells are unknown. Fails with one line
// naming `source` and the line for a row with another number of cells than the header, a cell
// that is not a number, a unit it does not know, or a CSV without the "ID" and "Kernel Name"
// columns. Lines that ncu itself prints ("==PROF==", "==WARNING==") are skipped.
Result<std::vector<KernelCounters>> parse_ncu_csv(std::string_view text, const std::string& source);

// Reads the file (plain or gzip, by its magic bytes; at most `max_bytes` decompressed) and parses
// it.
Result<std::vector<KernelCounters>> read_ncu_csv(const std::string& path, uint64_t max_bytes);

}  // namespace attnprof
