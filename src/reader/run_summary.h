#pragma once
// What a bench run wrote: its summary.json (bench/src/summary_json.h, schemaVersion 2) and its
// sweep.csv, read back as plain data for `attnprof report`. Only what the report shows is kept.
// The environment and each point's problem are read through their field tables
// (reader/run_summary_fields.h), which the writer uses too.
// Absent or null values stay empty (std::nullopt), as summary.json has them.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "attnprof/hardware_counters.h"
#include "attnprof/limits.h"
#include "attnprof/region_facts.h"
#include "attnprof/result.h"

namespace attnprof {

// The summary.json version this reads (docs/json-schema.md).
inline constexpr int64_t kRunSummarySchemaVersion = 2;

struct RunFinding {
  std::string id;  // finding_id(): "hidden-copy", ...
  std::string summary;
  std::string suggestion;
};

// The trace facts of one region kind (forward or backward), as summary.json has them: the
// facts' medians (each Spread holds only its median, counted over `regions`) and main kernel.
struct RunRegionFacts {
  RegionFacts facts;
  std::vector<RunFinding> findings;
};

struct RunVariant {
  std::string variant;
  std::string status;  // "ok", "failed", "unsupported", "oom", "error"
  std::string reason;
  std::string chosen_backend;  // sdpa-auto: the backend PyTorch chose
  std::optional<double> output_error, grad_error;
  std::optional<double> median_ms;
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
  std::vector<KernelCounters> kernel_counters;
  std::optional<CounterTotals> counters;
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
  std::string dtype, mask, device;
  bool backward = false;
};

struct RunPoint {
  RunProblem problem;
  double flops_per_call = 0;
  std::optional<double> peak_tflops;
  std::string peak_precision;
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
  std::string tool;                                       // "ncu 2025.3.1.0"
  std::string unavailable;                                // why there are none
  double seconds = 0;                                     // the time the counters added to the run
  std::optional<double> bandwidth_bytes_per_s;            // the copy kernel's, measured
  std::optional<double> datasheet_bandwidth_bytes_per_s;  // the GPU's datasheet
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

struct RunSummary {
  std::string path;
  int64_t schema_version = 0;
  std::string device;
  int64_t sm_count = 0;
  std::string compute_capability;  // empty on the CPU
  int64_t l2_bytes = 0, memory_bytes = 0;
  bool tf32_matmul = false;  // whether float32 matmuls ran on TF32 tensor cores
  std::string torch, cuda_runtime, cudnn;
  std::vector<std::string> methods;                   // how each column is measured
  std::map<std::string, std::vector<int64_t>> sweep;  // "seq" -> 512, 1024, ...; empty: no sweep
  std::vector<RunPoint> points;
  std::optional<RunCounters> counters;     // none without --counters
  std::optional<RunFromTrace> from_trace;  // none unless bench --from-trace
};

// Reads a bench run's summary.json. Fails with one line naming the file when it cannot be read,
// is not JSON (with the byte offset where simdjson stopped, when it says), has a schemaVersion
// other than 2 (version 1, camelCase, is converted by tools/summary_json_v2.py), or lacks
// `points`; when it is longer than `max_bytes`, holds a number beyond +-1e18, or names a trace
// outside its folder (absolute, or with a `..`).
Result<RunSummary> read_run_summary(const std::string& path,
                                    uint64_t max_bytes = Limits{}.max_side_file_bytes);

// One row of sweep.csv: the sizes and the measurements that a sweep plot needs.
struct SweepRow {
  RunProblem problem;
  std::string variant;
  std::string status;
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
