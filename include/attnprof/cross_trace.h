#pragma once
// Several traces of one workload side by side (docs/ARCHITECTURE.md): one per rank of a distributed
// run, or runs repeated or varied. For each region, which trace was slowest and how far apart the
// traces are; and where the ranks launched different numbers of kernels.
//
// Regions match across traces by name and occurrence: the k-th region named "forward" in one
// trace with the k-th one in each other, and ProfilerStep#N with ProfilerStep#N (step numbers are
// the same on every rank of a run). A region that only some traces have is compared over those.
// Each trace's median region (TraceAnalysis::median) is compared the same way, as a region of
// its own: it still lines traces up when their region names differ.
//
// A trace is named by its rank (distributedInfo) when every trace has one and no two share it;
// else by its file name (the whole path when two file names are the same).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/analysis.h"

namespace attnprof {

// One quantity of one region, measured once per trace that has the region.
struct QuantityAcrossTraces {
  std::vector<double> by_trace;  // aligned with RegionAcrossTraces::traces
  double min = 0, median = 0, max = 0;
  // (max - min) / median: how far the slowest trace is from the fastest, relative to the middle
  // one. 0 when the median is 0.
  double spread = 0;
  // Index into the traces (all of them, not by_trace) of the max, the first of those that share
  // it; -1 when every trace has the same value (none is slower). For kernels: the most kernels.
  int slowest = -1;
};

// One collective of a region (its name, element type and group size: a row of
// RegionSummary::collectives) across the traces that ran it: the n-th of each trace is matched
// with the n-th of the others, and each trace's lag is the median of its starts less the earliest.
struct CollectiveLagAcrossTraces {
  std::string name, dtype;
  int64_t group_size = -1;
  std::vector<int> traces;  // the traces that ran it, in input order
  QuantityAcrossTraces lag_ns;
  int compared = 0;  // the fewest of them any of the traces ran
};

// The job's path through one region across its ranks. Each rank's collectives are matched with
// the others' by process group and name, the n-th with the n-th (Kineto writes no sequence number
// that every backend fills). The ranks' clocks are aligned on the end of their first matched
// collective, which all leave together. Then, in time: before each collective, the rank that
// reached it last held every other, which waited for it; the collective itself is
// communication; after the last one, the rank that ends last holds the job.
struct JobPathAcrossRanks {
  int collectives = 0;          // matched in every trace
  double length_ns = 0;         // from the earliest region start to the latest end, clocks aligned
  double communication_ns = 0;  // in the collectives once every rank had reached them
  std::vector<double> held_ns;  // per trace, aligned with RegionAcrossTraces::traces
  // Per trace, its time inside the collectives before the last rank reached them.
  std::vector<double> waited_ns;
  int held_by = -1;  // index into all traces of the one that held the job the most
  // What held that rank's own path most where it held the job: an op or a kernel.
  std::string held_with;
};

struct RegionAcrossTraces {
  // "ProfilerStep#12"; "forward[2]" for the second of several regions named forward in a trace;
  // "median region" for the traces' medians.
  std::string name;
  std::vector<int> traces;  // indices of the traces that have the region, in input order
  QuantityAcrossTraces wall_ns, gpu_busy_ns, kernels;
  // The time breakdown (attnprof/time_breakdown.h) per trace; `slowest` is the trace with the most.
  QuantityAcrossTraces idle_ns, compute_ns, communication_ns, memory_ns;
  // How late each trace starts its collectives: the n-th communication kernel of the region in
  // each trace is matched with the n-th in the others (HTA's and TraceLens's skew), and its lag is
  // its start less the earliest of them. Per trace, the median of its lags (by_trace aligned with
  // `traces`; `slowest`: the trace that is latest). Empty when fewer than two traces ran one.
  QuantityAcrossTraces collective_lag_ns;
  int collectives_compared = 0;  // the fewest communication kernels any of the traces ran
  // The same lag per collective (name, dtype, group size) that two or more traces ran, in the
  // first trace's order of them.
  std::vector<CollectiveLagAcrossTraces> collective_lags;
  // Where two or more traces ran collectives in it (not for the median region).
  std::optional<JobPathAcrossRanks> job_path;
  // Collectives that not every trace ran as often, in words: "rank 1: 3 allreduce (group 0),
  // rank 0: 2"; the job's path matches the first of each. None match: no job_path.
  std::vector<std::string> unmatched_collectives;

  bool kernel_counts_differ() const { return kernels.min != kernels.max; }
};

struct TraceLabel {
  std::string text;  // "rank 3", or a file name
  bool has_rank = false;
  int32_t rank = 0;
};

struct CrossTraceSummary {
  std::vector<TraceLabel> labels;  // one per trace, in input order
  bool labelled_by_rank = false;
  std::vector<RegionAcrossTraces> regions;  // in order of first appearance, trace by trace
  RegionAcrossTraces median_region;
  // Per trace: in how many regions that two or more traces have it was the slowest by wall time
  // (a straggler rank is slowest in most). Regions where the traces tie count for none.
  std::vector<int> slowest_by_wall;
  int compared_regions = 0;  // regions that two or more traces have
  // Per trace: in how many regions with collectives it was the latest to start them (its median
  // lag the largest, above 0), and its largest median lag in any of them.
  std::vector<int> latest_collectives;
  std::vector<double> max_collective_lag_ns;
  // Per trace: in how many regions it held the job's path the most.
  std::vector<int> held_job;
};

// True when `traces` are two or more ranks of one distributed run: each has distributedInfo with
// the same world size (above 1) and backend, and no two share a rank. Only then do a slowest trace
// and a spread mean something (tests/analyze_many_cli_test.cpp): across seven different attention
// variants, "spread 1541.6 %, slowest sdpa-math" only restates that they differ. `analyze` compares
// traces only when this holds.
bool are_ranks_of_one_run(const std::vector<TraceAnalysis>& traces);

// `traces` in input order. Meaningful for two or more traces; for one, every spread is 0.
CrossTraceSummary summarize_across_traces(const std::vector<TraceAnalysis>& traces);

// The median (the mean of the two middle values for an even count), min, max, spread and slowest
// of `values`, measured on the traces `traces` (same length).
QuantityAcrossTraces quantity_across(std::vector<double> values, const std::vector<int>& traces);

}  // namespace attnprof
