#include "attnprof_bench/bench_flags.h"

#include <CLI/CLI.hpp>

namespace attnprof::bench {

std::string variant_list() {
  std::string list;
  for (Variant v : kAllVariants) list += (list.empty() ? "" : ",") + std::string(name(v));
  return list;
}

void add_bench_flags(CLI::App& cmd_ref, BenchFlags& flags_ref) {
  CLI::App* cmd = &cmd_ref;
  BenchFlags* flags = &flags_ref;
  Problem& p = flags->problem;
  auto& shape = flags->problem_flags;
  shape.push_back(cmd->add_option("--batch", p.batch, "Batch size")->capture_default_str());
  shape.push_back(cmd->add_option("--heads", p.heads, "Attention heads")->capture_default_str());
  shape.push_back(
      cmd->add_option("--seq", p.seq,
                      "Sequence length: the keys and values (and the queries unless --q-seq)")
          ->capture_default_str());
  shape.push_back(
      cmd->add_option("--head-dim", p.head_dim, "Head dimension")->capture_default_str());
  shape.push_back(
      cmd->add_option("--kv-heads", flags->kv_heads,
                      "Key/value heads, dividing --heads: grouped-query (fewer) or multi-query (1) "
                      "attention; default --heads"));
  shape.push_back(cmd->add_option(
      "--q-seq", flags->q_seq,
      "Queries, the last of the --seq positions (1: a decode step); the causal mask is "
      "aligned to the end (flash and efficient run it with their bottom-right causal kernels, as "
      "causal_lower_right does; math and cuDNN get it as a tensor); default --seq"));
  shape.push_back(cmd->add_option("--window", p.window,
                                  "Sliding window: each query sees the W keys ending at its own "
                                  "position (with the causal pattern); 0: none")
                      ->capture_default_str());
  shape.push_back(
      cmd->add_option("--dtype", flags->dtype, "bf16, fp16 or fp32")->capture_default_str());
  flags->causal_flag =
      cmd->add_flag("--causal,!--no-causal", flags->causal, "Causal mask (default) or none");
  shape.push_back(flags->causal_flag);
  shape.push_back(cmd->add_option("--mask", flags->mask,
                                  "causal (is_causal), none, or explicit (the causal pattern as a "
                                  "boolean attn_mask tensor passed to SDPA)"));
  shape.push_back(
      cmd->add_flag("--backward", p.backward, "Time and trace the forward and the backward"));
  cmd->add_option("--from-trace", flags->from_trace,
                  "Measure the attention calls of a trace (recorded with record_shapes=True): "
                  "each distinct call of its typical region through every variant, and what "
                  "switching would save per region (bench/README.md)");
  cmd->add_option("--region", flags->region,
                  "With --from-trace: its regions, a glob of annotation names (default as "
                  "`attnprof analyze`: ProfilerStep#* when present)");
  cmd->add_option("--device", flags->device, "cuda, or cpu (the variants PyTorch has there)")
      ->capture_default_str();
  cmd->add_option("--variants", flags->variants,
                  "Comma-separated, from " + variant_list() + "; default all")
      ->delimiter(',');
  cmd->add_option(
      "--custom", flags->custom,
      "[NAME=]PATH: also profile your own attention kernel, a shared library with the C "
      "ABI of attnprof_bench/custom_attention.h or an AOTInductor package (.pt2) "
      "(docs/CUSTOM_KERNELS.md); repeatable");
  cmd->add_option("--out", flags->out, "Folder for the traces, summary.json and summary.md")
      ->capture_default_str();
  cmd->add_flag("--report", flags->report,
                "Also write report.html in the --out folder: the table with findings, timelines, "
                "GPU time by kernel class, sweep plots (as `attnprof report`)");
  cmd->add_option("--sweep", flags->sweeps,
                  "Run the table over sizes, e.g. seq=512,1024,2048 or head-dim=64,128 (keys: "
                  "seq, head-dim, batch, heads, kv-heads, q-seq, window; repeatable: every "
                  "combination); also writes sweep.csv");
  cmd->add_option("--time-budget", flags->settings.time_budget_s,
                  "Seconds of timed calls per variant")
      ->capture_default_str();
  cmd->add_option("--min-reps", flags->settings.min_reps, "Fewest timed calls")
      ->capture_default_str();
  cmd->add_option("--max-reps", flags->settings.max_reps, "Most timed calls")
      ->capture_default_str();
  cmd->add_option("--trace-regions", flags->settings.trace_iterations,
                  "`forward` regions recorded per trace (0: record no trace)")
      ->capture_default_str();
  cmd->add_option("--seed", flags->seed, "Seed of the random inputs (default: a fresh one)");
  cmd->add_flag("--quiet", flags->quiet, "No progress on stderr");
  cmd->add_option("--expectations", flags->expectations,
                  "Hypotheses to check on each variant's trace, one `VARIANT: EXPRESSION` per "
                  "line (the grammar of `attnprof check`); any failure exits with 1");
  cmd->add_flag("--counters", flags->counters,
                "Also measure each variant's kernels with Nsight Compute (ncu): occupancy, tensor "
                "and FP32 pipes, DRAM bytes, L2 hits; the roofline (docs/counters.md)");
  // Hidden: what --counters runs under ncu.
  cmd->add_option("--counters-child", flags->counters_child)->group("");
}

}  // namespace attnprof::bench
