#pragma once
// The run model: everything a bench run wrote in its summary.json (schemaVersion 2), and its
// sweep.csv, as plain data. The bench and scripts/gpu/record_flex.py fill it; `report`, `check`
// and `diff` read it. Every object of summary.json is read (study/run/run_summary.cpp) and written
// (study/run/run_summary_json.h) through one set of field tables (study/run/run_summary_fields.h),
// so that a file read and written again is the same file, byte for byte. Absent or null values stay
// empty (std::nullopt), as summary.json has them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/expectations.h"
#include "attnprof/hardware_counters.h"
#include "attnprof/limits.h"
#include "attnprof/region_facts.h"
#include "attnprof/result.h"
#include "base/enum_names.h"

namespace attnprof {

// The summary.json version this reads (docs/json-schema.md).
inline constexpr int64_t kRunSummarySchemaVersion = 2;

// The file's words of each enum below are its names table, which the field tables
// (study/run/run_summary_fields.h) read and write through `enum_names`.

// What became of a variant (`status`).
enum class RunStatus : uint8_t {
  kOk,
  kFailed,       // ran, but its error against float64 is above the threshold
  kUnsupported,  // the backend cannot run this case; `reason` says why
  kOutOfMemory,
  kError,  // anything else; `reason` holds the message
};
inline constexpr EnumNames<RunStatus, 5> kRunStatusNames = {{
    {RunStatus::kOk, "ok"},
    {RunStatus::kFailed, "failed"},
    {RunStatus::kUnsupported, "unsupported"},
    {RunStatus::kOutOfMemory, "oom"},
    {RunStatus::kError, "error"},
}};
constexpr const auto& enum_names(RunStatus) {
  return kRunStatusNames;
}

// A problem's mask (`mask`): causal (is_causal), none, or the causal pattern as a boolean tensor.
enum class RunMask : uint8_t { kCausal, kNone, kExplicit };
inline constexpr EnumNames<RunMask, 3> kRunMaskNames = {{
    {RunMask::kCausal, "causal"},
    {RunMask::kNone, "none"},
    {RunMask::kExplicit, "explicit"},
}};
constexpr const auto& enum_names(RunMask) {
  return kRunMaskNames;
}

// A size a sweep varies (`sweep`'s `key`, bench --sweep KEY=...).
enum class SweepKey : uint8_t { kSeq, kHeadDim, kBatch, kHeads, kKvHeads, kQSeq, kWindow };
inline constexpr EnumNames<SweepKey, 7> kSweepKeyNames = {{
    {SweepKey::kSeq, "seq"},
    {SweepKey::kHeadDim, "head-dim"},
    {SweepKey::kBatch, "batch"},
    {SweepKey::kHeads, "heads"},
    {SweepKey::kKvHeads, "kv-heads"},
    {SweepKey::kQSeq, "q-seq"},
    {SweepKey::kWindow, "window"},
}};
constexpr const auto& enum_names(SweepKey) {
  return kSweepKeyNames;
}

struct RunFinding {
  std::string id;  // finding_id(): "hidden-copy", ...
  std::string summary;
  std::vector<std::string> evidence;
  std::string suggestion;
  int64_t regions_affected = 0;
};

// The trace facts of one region kind (forward or backward), as summary.json has them: the
// facts' medians (each Spread holds only its median, counted over `regions`) and main kernel.
struct RunRegionFacts {
  RegionFacts facts;
  int64_t diagnostics = 0;                      // counted while the trace was read
  std::vector<ExpectationResult> expectations;  // bench --expectations
  std::vector<RunFinding> findings;
};

struct RunVariant {
  std::string variant;
  RunStatus status = RunStatus::kOk;
  std::string reason;
  std::string chosen_backend;  // sdpa-auto: the backend PyTorch chose
  std::string custom_library;  // --custom: the library or package that ran it
  // The check against float64: none (null) where the variant did not run (`checked` false).
  bool checked = false;
  std::optional<double> output_error, grad_error;
  double error_threshold = 0;
  bool passed = false;
  // CUDA-event timing in milliseconds: none (null) where the variant did not run.
  std::optional<double> median_ms;
  double min_ms = 0, max_ms = 0, mean_ms = 0;
  int64_t reps = 0, input_sets = 0, input_set_bytes = 0;
  std::optional<double> tflops, percent_of_peak;
  // The bytes of K and V over the GPU median (GB/s), and that rate's share of the HBM bandwidth
  // (RunPoint::hbm_bytes_per_s): the headline of a memory-bound point.
  std::optional<double> kv_gbps, percent_of_hbm;
  std::optional<int64_t> peak_allocated_bytes;
  std::string trace_file;  // relative to the run's folder
  std::string trace_error;
  std::optional<RunRegionFacts> forward, backward;
  // bench --counters: the call's kernels as Nsight Compute measured them, their sum, the variant's
  // point on the roofline (useful FLOPs per DRAM byte) and its share of the roof there.
  // counters_requested is false (null in the file) without --counters.
  bool counters_requested = false;
  std::vector<KernelCounters> kernel_counters;
  std::optional<CounterTotals> counters;
  std::string counters_file;  // ncu's CSV, relative to the run's folder
  std::string counters_error;
  std::optional<double> intensity, percent_of_roof;
};

// "sdpa-auto (cudnn)": the variant and, where PyTorch chose one, its backend.
std::string variant_label(const RunVariant& v);

struct RunProblem {
  int64_t batch = 0, heads = 0, seq = 0, head_dim = 0;
  // Key/value heads, queries and the sliding window (0: none). Files written before the bench had
  // these options lack them: then kv_heads = heads, q_seq = seq, window = 0.
  int64_t kv_heads = 0, q_seq = 0, window = 0;
  std::string dtype;
  RunMask mask = RunMask::kCausal;
  std::string device;
  bool backward = false;
};

// The size `key` names of `p` (p.seq for kSeq, ...).
int64_t sweep_size(const RunProblem& p, SweepKey key);

struct RunPoint {
  RunProblem problem;
  double flops_per_call = 0;
  std::optional<double> peak_tflops;  // none (null) where the datasheet has no peak
  std::string peak_precision, peak_source;
  // The least bytes one call moves (q, k, v, out) and those of K and V alone; the useful FLOPs per
  // least byte; the HBM bandwidth the run compares with (a copy kernel's, or the datasheet's:
  // hbm_source says which) and the ridge point (peak FLOP/s over it). Absent in older files.
  std::optional<double> minimal_bytes_per_call, kv_bytes_per_call, intensity_flop_per_byte;
  std::optional<double> hbm_bytes_per_s, ridge_flop_per_byte;
  std::string hbm_source;
  // Below the ridge: the table's headline is K/V GB/s and % of HBM, not TFLOP/s and % of peak.
  bool memory_bound = false;
  std::vector<RunVariant> variants;
};

// What bench --counters measured beside the variants (summary.json's top-level `counters`).
struct RunCounters {
  std::string tool;         // "ncu 2025.3.1.0"
  std::string unavailable;  // why there are none
  double seconds = 0;       // the time the counters added to the run
  std::string clock_control;
  // The copy kernel that measures the memory roof: its op, why it failed, and what it measured
  // (none where it did not run).
  std::string copy_op, copy_error;
  std::optional<double> copy_bytes_per_call, copy_median_ms;
  std::optional<int64_t> copy_reps;
  std::optional<double> bandwidth_bytes_per_s;            // the copy kernel's, measured
  std::optional<double> datasheet_bandwidth_bytes_per_s;  // the GPU's datasheet
  std::vector<KernelCounters> copy_kernels;
  struct Roof {
    std::string name;  // "bf16/fp16 tensor", "fp32"
    double flop_per_s = 0;
  };
  std::vector<Roof> roofs;
};

// `bench --from-trace`: the trace whose attention calls the run measured. Point i of the run is
// the trace's call calls[i].point (bench/src/trace_problems.h).
struct RunTraceCall {
  int point = 0;        // index into RunSummary::points
  int64_t calls = 0;    // per region of the trace
  double trace_ns = 0;  // one call's GPU time in the trace (forward and backward added)
  std::string backend;  // what ran it in the trace ("cudnn", "math", "unfused", ...)
  std::string op;       // the op the trace names for it
  std::string assumed;  // how the trace's call became the point's problem, where it assumed
};

struct RunFromTrace {
  std::string trace;   // as given to the bench
  std::string region;  // the typical region's name
  int64_t regions = 0;
  double region_gpu_ns = 0;  // the regions' median GPU busy time
  std::vector<RunTraceCall> calls;
  std::vector<std::string> skipped;  // calls the bench could not run, in words
};

// A sweep's axis: `--sweep seq=512,1024` is {kSeq, {512, 1024}}.
struct RunSweepAxis {
  SweepKey key = SweepKey::kSeq;
  std::vector<int64_t> values;
};

// How the bench measured (summary.json's `settings`).
struct RunSettingsRecord {
  double time_budget_seconds = 0;
  int64_t min_reps = 0, max_reps = 0, trace_regions = 0;
  std::string seed;  // a string: 64-bit seeds exceed a double
};

// Keys that came into schemaVersion 2 after its first files (new keys keep the version): a file
// written before one lacks its keys, and is written back without them. The bench writes them all.
enum class SummaryAddition : uint8_t {
  kCounters,       // bench --counters: `counters` at the top and in every variant
  kExpectations,   // a region's `expectations`, a finding's `evidence` and `regions_affected`
  kShapes,         // GQA, decode and windows: kv_heads, q_seq, window, bytes, HBM, ridge, kv_gbps
  kCustomLibrary,  // bench --custom: a variant's `custom_library`
};
inline constexpr uint32_t addition_bit(SummaryAddition a) {
  return 1u << static_cast<int>(a);
}
// Every addition: the bit of the last one and all below it.
inline constexpr uint32_t kEveryAddition = (addition_bit(SummaryAddition::kCustomLibrary) << 1) - 1;

struct RunSummary {
  std::string path;
  int64_t schema_version = 0;
  std::string tool;  // "attnprof bench", "scripts/gpu/record_flex.py"
  // The additions whose keys the file has (SummaryAddition bits).
  uint32_t additions = kEveryAddition;
  std::string device;
  int64_t sm_count = 0;
  std::string compute_capability;  // empty on the CPU
  int64_t l2_bytes = 0, memory_bytes = 0;
  bool tf32_matmul = false;  // whether float32 matmuls ran on TF32 tensor cores
  std::string torch, cuda_runtime, cudnn;
  RunSettingsRecord settings;
  std::vector<std::string> methods;  // how each column is measured
  std::vector<RunSweepAxis> sweep;   // empty: no sweep
  std::vector<RunPoint> points;
  std::optional<RunCounters> counters;     // none without --counters
  std::optional<RunFromTrace> from_trace;  // none unless bench --from-trace
};

// Reads a bench run's summary.json. Fails with one line naming the file when it cannot be read,
// is not JSON (with the byte offset where simdjson stopped, when it says), has a schemaVersion
// other than 2 (version 1, camelCase, is converted by tools/summary_json_v2.py), or lacks
// `points`; when it is longer than `max_bytes`, holds a number beyond +-1e18, or names a trace
// outside its folder (absolute, or with a `..`); or when it lists more variants, expectation
// results or list items in all than `limits` allow (Limits::max_variants, max_expectations,
// max_side_file_items), counted before anything is read into the model.
Result<RunSummary> read_run_summary(const std::string& path, const Limits& limits = Limits{});

// One row of sweep.csv: the sizes and the measurements that a sweep plot needs.
struct SweepRow {
  RunProblem problem;
  std::string variant;
  std::optional<double> median_ms;
  std::optional<int64_t> peak_allocated_bytes;
};

// The same rows from a summary.json (one per point and variant).
std::vector<SweepRow> sweep_rows(const RunSummary& summary);

// Reads the bench's sweep.csv (a header line, then one row per point and variant; fields quoted
// as RFC 4180 says). Fails with one line naming the file and the line when the file cannot be
// read or lacks a column the plot needs (variant, seq, gpu_median_ms, ...).
Result<std::vector<SweepRow>> read_sweep_csv(const std::string& path,
                                             uint64_t max_bytes = Limits{}.max_side_file_bytes);

}  // namespace attnprof
