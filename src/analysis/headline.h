#pragma once
// The report's first lines (tests/headline_test.cpp): the fastest variant, its speed-up over the
// baseline, and for each slow variant the one reason its trace gives, chosen by the time that
// reason explains. A pure function of the variants' times, facts and findings: nothing in it knows
// a variant by its name, but the baseline, which is the study's `naive` when it has one (or a
// trace named `..._naive`, `...-naive`).

#include <optional>
#include <string>
#include <vector>

#include "analysis/kernel_generation.h"
#include "attnprof/region_facts.h"

namespace attnprof {

struct HeadlineVariant {
  std::string name;
  // What "fastest" compares: the bench's GPU median per call, or a trace's median GPU busy time
  // per region; none: the variant did not run, and the headline leaves it out.
  std::optional<double> time_ns;
  std::vector<std::string> finding_ids;  // as finding_id() spells them, in the rules' order
  // The variant's trace, which weighs each finding by the time of the kernels it concerns: the
  // facts of each kind of region the time covers (forward; forward and backward), their times
  // added. Empty: the findings are not weighed, and the first that explains time is the reason.
  std::vector<RegionFacts> facts;
  // The time counts the GPU's busy time only (a trace's median GPU busy time, a from-trace run's
  // kernel time per call): the GPU's idle, which the findings about the CPU explain
  // (cpu-side-cost, launch-bound, synchronization), is no part of it, nor of the gap to the
  // fastest, so they explain none of it.
  bool time_is_busy = false;
  // Each finding's own GPU time per region (Finding::gpu_ns), beside finding_ids; < 0 or absent
  // where its rule does not count it, and the finding is weighed by its kernel classes' time.
  std::vector<double> finding_ns;
};

struct HeadlineReason {
  std::string variant;
  double times_slower = 0;  // its time over the fastest's
  double time_ns = 0;
  std::string finding_id;  // empty: none of its findings explains time
  // The GPU time per region of the kernels the finding concerns (headline_explained_ns);
  // none when the variant has no trace to weigh it.
  std::optional<double> explained_ns;
  std::optional<double> region_ns;  // its trace's median GPU busy time per region
  // When the first finding covers less than most of the gap: a second one over other kernels
  // (the upcast's GEMMs beside the unfused passes), its time counted without the first's.
  std::string also_finding_id;
  std::optional<double> also_explained_ns;
  // With no finding: the variant's longest kernel, which holds its time.
  std::string main_kernel;
  double main_kernel_ns = 0;
  // The share of the gap to the fastest its findings cover, when they cover less than most of it
  // (and so are not the reason); none otherwise.
  std::optional<double> covered_share;
  // With no finding: its main kernel beside the fastest's, by what their names tell.
  struct KernelContrast {
    std::string fastest_kernel;
    double fastest_kernel_ns = 0;
    KernelGeneration generation, fastest_generation;
    std::optional<double> occupancy_pct, fastest_occupancy_pct;      // attnprof's estimates
    std::optional<double> tensor_pipe_pct, fastest_tensor_pipe_pct;  // ncu, where measured
  };
  std::optional<KernelContrast> contrast;
  // What makes its trace and the fastest's not like for like (workload_mismatch.h: another GPU,
  // element type or attention shape): then no finding or kernel is its reason, the difference is.
  std::vector<std::string> mismatches;
};

struct Headline {
  std::string fastest;
  double fastest_ns = 0;
  // Variants within kHeadlineTie of the fastest: as fast, within the noise of one study.
  std::vector<std::string> as_fast;
  std::string baseline;  // `naive`, or the slowest variant when there is no naive
  bool baseline_is_naive = false;
  double baseline_ns = 0;
  double speedup = 0;  // the baseline's time over the fastest's
  // The variants slower than the tie, slowest first.
  std::vector<HeadlineReason> slow;
  // Traces: each one's step, its critical path (the regions' median; its wall time), the shortest
  // first (headline_steps.h). Empty for a bench run, whose variants are calls, not steps.
  struct Step {
    std::string variant;
    double length_ns = 0;
    std::string bound_by;  // CriticalPath::bound_by of its typical region
  };
  std::vector<Step> steps;
  // Variants as fast as the fastest on the GPU whose step is longer than the tie: moved out of
  // as_fast, for the step, not the GPU, is what a user waits for.
  std::vector<std::string> as_fast_on_gpu_only;
};

// The share of the gap to the fastest that a reason must cover: most of it.
inline constexpr double kHeadlineMost = 0.5;

// A variant within 10 % of the fastest ties with it.
inline constexpr double kHeadlineTie = 1.10;

// Whether a finding explains time (a copy, an upcast, unfused kernels, the CPU) rather than
// describing how a kernel is built (persistent, cuLaunchKernelEx, occupancy by design).
bool finding_explains_time(const std::string& id);

// The GPU time per region (medians of the facts) that a finding accounts for: a hidden copy its
// copies, an upcast its GEMMs (run in FP32), a rebuilt mask its mask kernels, unfused attention
// the passes a fused kernel keeps on chip (softmax, mask, elementwise, reductions, copies), a
// finding about the CPU the time the GPU sits idle in the region (wall minus busy). Nothing for
// a finding that does not explain time.
std::optional<double> headline_explained_ns(const std::string& id, const RegionFacts& facts);

// The order in which a variant's findings are told (indexes into `ids`): those that explain time
// first, the most time first (headline_explained_ns, added over `facts`; with no facts, in the
// rules' order), then the others in the rules' order.
std::vector<size_t> rank_findings(const std::vector<std::string>& ids,
                                  const std::vector<RegionFacts>& facts);

// Each slow variant's reason: among its findings that explain time, the one that explains the
// most, except that unfused attention, the general cause, yields to a named one (a copy, an
// upcast, a mask, the CPU) that explains at least a quarter of the gap to the fastest: that one
// is what sets the variant apart from other unfused ones. A finding is the reason only when,
// alone or with a second over other kernels, it covers most of the gap (kHeadlineMost); else the
// variant's main kernel is set beside the fastest's (what their names tell of the GPU generation
// each was written for, occupancy, the counters' tensor pipes). None when no variant has a time.
std::optional<Headline> compute_headline(const std::vector<HeadlineVariant>& variants);

// The inputs of a report's headline, from a bench run or traces, are
// study/analysis/report_conclusions.h's.

}  // namespace attnprof
