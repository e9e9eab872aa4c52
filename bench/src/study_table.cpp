#include "study_table.h"

#include <fmt/format.h>

#include "base/format_units.h"
#include "render/display_text.h"
#include "study/render/study_columns.h"

namespace attnprof::bench {

RunStatus run_status(VariantStatus status) {
  switch (status) {
    case VariantStatus::kOk:
      return RunStatus::kOk;
    case VariantStatus::kFailed:
      return RunStatus::kFailed;
    case VariantStatus::kUnsupported:
      return RunStatus::kUnsupported;
    case VariantStatus::kOutOfMemory:
      return RunStatus::kOutOfMemory;
    case VariantStatus::kError:
      break;
  }
  return RunStatus::kError;
}

// What summary.json will say of the row, as the report reads it back: the row type of the
// study's columns (study/render/study_columns.h).
RunVariant run_variant(const VariantRow& row) {
  const VariantMeasurement& m = row.measurement;
  RunVariant v;
  v.variant = row_name(m);
  v.status = run_status(m.status);
  v.reason = m.reason;
  v.chosen_backend = m.chosen_backend;
  if (m.correctness) {
    v.output_error = m.correctness->output_error;
    v.grad_error = m.correctness->grad_error;
  }
  if (m.timing) v.median_ms = m.timing->median_ms;
  v.tflops = row.tflops;
  v.percent_of_peak = row.percent_of_peak;
  v.kv_gbps = row.kv_gbps;
  v.percent_of_hbm = row.percent_of_hbm;
  v.peak_allocated_bytes = m.peak_allocated_bytes;
  v.trace_file = row.trace_file;
  v.trace_error = row.trace_error;
  if (row.forward) v.forward = RunRegionFacts{row.forward->facts, {}};
  if (row.backward) v.backward = RunRegionFacts{row.backward->facts, {}};
  v.kernel_counters = row.kernel_counters;
  v.counters = row.counters;
  v.counters_error = row.counters_error;
  v.intensity = row.intensity;
  v.percent_of_roof = row.percent_of_roof;
  return v;
}

StudyTable study_table(const StudyPoint& point, CellWidth mode) {
  std::vector<RunVariant> variants;
  for (const VariantRow& row : point.rows) variants.push_back(run_variant(row));
  return attnprof::study_table(variants, {point.problem.backward, point.memory_bound}, mode);
}

std::vector<std::string> method_notes(const StudyReport& report) {
  const RunSettings& s = report.settings;
  const bool cuda =
      !report.points.empty() && report.points.front().problem.device == DeviceKind::kCuda;
  std::vector<std::string> notes;
  notes.push_back(fmt::format(
      "GPU median: {} around each call, the median of {} to {} calls (as many as fill {:g} s) "
      "after warm-up, rotating at least 3 input sets that together exceed twice the {} so that "
      "it cannot hold them; min and max are in summary.json.",
      cuda ? "CUDA events" : "the steady clock (CPU run)", s.min_reps, s.max_reps, s.time_budget_s,
      cuda ? fmt::format("L2 ({})", format_bytes(report.device.l2_bytes)) : "last-level cache"));
  notes.push_back(fmt::format(
      "kernels/fwd, memcpy/fwd, main kernel (the longest kernel of the typical region), "
      "occupancy (attnprof's estimate for the main kernel from its registers, shared memory and "
      "block size; Kineto's own where attnprof has none), launch API and CPU/fwd (time in the "
      "region's top-level CPU ops): read by attnprof from the variant's Kineto trace, medians "
      "over its {} `forward` regions.",
      s.trace_iterations));
  notes.push_back(
      "TFLOP/s: 4·B·H·P·D per forward (q·kᵀ and p·v; H the query heads, with GQA too), P the "
      "query-key pairs the mask keeps in one head: Q·S without a mask (Q queries, S keys); with "
      "the causal pattern, aligned to the end, the query at position t = i + S - Q sees the t + 1 "
      "keys up to its own, or with a window W the min(W, t + 1) ending there (S·(S+1)/2 for the "
      "plain causal square); 3.5 times it with the backward; over the GPU median.");
  // A chunk of a prefill: say which backends skip its hidden pairs and which get a tensor.
  for (const StudyPoint& point : report.points) {
    if (sdpa_mask_form(point.problem) != SdpaMaskForm::kLowerRight) continue;
    notes.push_back(
        "Causal queries fewer than the keys (a chunk of a prefill): run as "
        "torch.nn.attention.bias.causal_lower_right runs them, sdpa-flash and sdpa-efficient "
        "through their own bottom-right causal kernels (aten::_scaled_dot_product_flash_attention "
        "with is_causal, aten::_efficient_attention_forward with custom_mask_type 2), sdpa-auto "
        "on the first of them that can, sdpa-math and sdpa-cudnn with the pattern as a boolean "
        "attn_mask tensor (they have no bottom-right form).");
    break;
  }
  // A memory-bound point's rate (a decode step): say how it is counted and against what.
  for (const StudyPoint& point : report.points) {
    if (!point.memory_bound || !point.hbm || !point.ridge) continue;
    notes.push_back(fmt::format(
        "K/V GB/s and % HBM, instead of TFLOP/s and % peak where a point is memory-bound: its "
        "useful FLOPs over the least bytes one call moves (q and out, B·H·Q·D elements each; k "
        "and v, B·KVH·S·D each) fall below the GPU's ridge point, the dense peak over the HBM "
        "bandwidth ({:.0f} FLOP per byte). K/V GB/s is the bytes of k and v (2·B·KVH·S·D "
        "elements) over the GPU median; % HBM divides it by {:.2f} TB/s, the HBM bandwidth of {}.",
        *point.ridge, point.hbm->bytes_per_s / 1e12, point.hbm->source));
    break;
  }
  // The peak depends on the dtype only, the same for every point: say it once.
  if (!report.points.empty()) {
    const auto& peak = report.points.front().peak;
    notes.push_back(peak ? fmt::format("% peak: of the {}'s dense {} peak, {:.1f} TFLOP/s ({}).",
                                       report.device.name, peak->precision, peak->tflops,
                                       kPeakSource)
                         : fmt::format("% peak: n/a, attnprof has no datasheet peak for {}.",
                                       report.device.name));
  }
  notes.push_back(
      "peak mem: the most bytes the CUDA caching allocator had allocated during one call, above "
      "what was allocated before it (cached but unused blocks do not count).");
  std::string thresholds;
  for (Dtype d : {Dtype::kBf16, Dtype::kFp16, Dtype::kFp32}) {
    thresholds +=
        fmt::format("{}{:g} for {}", thresholds.empty() ? "" : ", ", error_threshold(d), name(d));
  }
  notes.push_back(fmt::format(
      "rel. error: ||out - ref|| / ||ref|| (Frobenius) against attention computed in float64 on "
      "the same device from fresh random inputs (seed {}); a variant passes at or below {}{}.",
      s.seed, thresholds,
      !report.points.empty() && report.points.front().problem.backward
          ? "; after the slash, the largest error of dq, dk and dv"
          : ""));
  if (report.counters.requested && report.counters.unavailable.empty()) {
    notes.push_back(
        "% roof and occ. (ncu): from hardware counters (--counters, docs/counters.md). Nsight "
        "Compute measured every kernel of one call, clocks as found, L2 flushed before each; occ. "
        "(ncu) is warps active over the SM's maximum, weighted by kernel time; % roof is the "
        "TFLOP/s over min(peak, intensity x bandwidth), intensity = useful FLOPs per DRAM byte "
        "measured, bandwidth = a copy kernel's in the same run.");
  }
  return notes;
}

namespace {

// The expectations checked on each variant's trace (bench --expectations), failures first.
std::vector<std::string> expectation_lines(const StudyReport& report, size_t* failed,
                                           size_t* total) {
  std::vector<std::string> lines, passed;
  for (const StudyPoint& point : report.points)
    for (const VariantRow& row : point.rows) {
      if (!row.forward) continue;
      for (const ExpectationResult& e : row.forward->expectations) {
        ++*total;
        std::string line = fmt::format("{} {}: {}   actual {}", e.holds ? "ok  " : "FAIL",
                                       row_name(row.measurement), e.text, e.actual);
        if (e.holds) {
          passed.push_back(std::move(line));
        } else {
          ++*failed;
          lines.push_back(std::move(line));
        }
      }
    }
  lines.insert(lines.end(), passed.begin(), passed.end());
  return lines;
}

}  // namespace

std::string render_expectations(const StudyReport& report, std::string_view bullet) {
  if (report.expectations_file.empty()) return {};
  size_t failed = 0, total = 0;
  std::vector<std::string> lines = expectation_lines(report, &failed, &total);
  std::string text = fmt::format("\nExpectations ({}): {} of {} hold\n",
                                 escape_control(report.expectations_file), total - failed, total);
  for (const std::string& line : lines) text += fmt::format("{}{}\n", bullet, escape_control(line));
  return text;
}

}  // namespace attnprof::bench
