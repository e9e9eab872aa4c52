#pragma once
// Phrases the text and Markdown reports of several traces share.

#include <string>

#include "attnprof/cross_trace.h"

namespace attnprof {

// "rank", or "file name" when the traces are named by their files.
std::string labelled_by(const CrossTraceSummary& across);

// "8.4%"; "-" for a region that fewer than two traces have.
std::string format_spread_percent(const RegionAcrossTraces& row, const QuantityAcrossTraces& q);

// The trace that has the max; "-" for a region that fewer than two traces have, or when they tie.
std::string slowest_label(const CrossTraceSummary& across, const RegionAcrossTraces& row,
                          const QuantityAcrossTraces& q);

// Which trace launched how many kernels, the most common count first and counted, the others
// with their traces: "5 on 3 traces; 6 on rank 3". Up to kMaxNamedTraces traces are named per
// count, then "and N more".
inline constexpr size_t kMaxNamedTraces = 8;
std::string kernel_counts_phrase(const CrossTraceSummary& across, const RegionAcrossTraces& row);

// The regions that only one trace has (not compared, so not in the tables):
// "ProfilerStep#5 (gpt2.json.gz), ProfilerStep#6 (gpt2.json.gz) and 21 more"; empty when none.
std::string uncompared_regions_phrase(const CrossTraceSummary& across);

// "rank 3 in 9 of 10 regions, rank 1 in 1"; empty when no region is compared.
// Regions where the traces tie are in the count of regions but no trace's.
std::string slowest_by_wall_phrase(const CrossTraceSummary& across);

// "rank 1 in 2 of 2 regions with collectives, up to 1.23 ms behind the earliest rank"; empty
// when no region's collectives are compared.
std::string latest_collectives_phrase(const CrossTraceSummary& across);

// "rank 1 in 3 of 3 regions with a job's path, 2.85 ms of 8.34 ms in ProfilerStep#2 (34.2 %)";
// empty when no region has one.
std::string held_job_phrase(const CrossTraceSummary& across);

}  // namespace attnprof
