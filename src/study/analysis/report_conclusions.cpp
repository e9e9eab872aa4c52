#include "study/analysis/report_conclusions.h"

#include <algorithm>

#include "analysis/workload_mismatch.h"
#include "study/analysis/headline_steps.h"
#include "study/analysis/masked_pairs.h"
#include "study/analysis/run_counter_findings.h"

namespace attnprof {

std::vector<HeadlineVariant> headline_variants(const RunPoint& point) {
  std::vector<HeadlineVariant> out;
  for (const RunVariant& v : point.variants) {
    HeadlineVariant h;
    h.name = variant_label(v);
    if (v.median_ms) h.time_ns = *v.median_ms * 1e6;
    for (const std::optional<RunRegionFacts>* pass : {&v.forward, &v.backward})
      if (*pass)
        for (const RunFinding& f : (*pass)->findings)
          if (std::find(h.finding_ids.begin(), h.finding_ids.end(), f.id) == h.finding_ids.end())
            h.finding_ids.push_back(f.id);
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<HeadlineVariant> headline_variants(const ReportBackward& backward) {
  if (backward.focus_point < 0) return {};
  std::vector<HeadlineVariant> out =
      headline_variants(backward.run.points[static_cast<size_t>(backward.focus_point)]);
  for (size_t i = 0; i < out.size() && i < backward.facts.size(); ++i)
    out[i].facts = backward.facts[i];
  return out;
}

std::vector<HeadlineVariant> headline_variants(const ReportData& data) {
  if (data.run) {
    if (data.focus_point < 0) return {};
    std::vector<HeadlineVariant> out =
        headline_variants(data.run->points[static_cast<size_t>(data.focus_point)]);
    // load_report keeps the focus point's variants in its order, one each.
    for (size_t i = 0; i < out.size() && i < data.variants.size(); ++i) {
      const ReportVariant& v = data.variants[i];
      if (v.analysis && !v.analysis->regions.empty()) out[i].facts = {v.analysis->facts};
    }
    return out;
  }
  std::vector<HeadlineVariant> out;
  for (const ReportVariant& v : data.variants) {
    HeadlineVariant h;
    h.name = v.name;
    if (v.analysis && !v.analysis->regions.empty()) {
      h.time_ns = v.analysis->facts.gpu_busy_ns.median;
      h.time_is_busy = true;
      h.facts = {v.analysis->facts};
      for (const Finding& f : v.analysis->findings) {
        h.finding_ids.emplace_back(finding_id(f.kind));
        h.finding_ns.push_back(f.gpu_ns);
      }
    }
    out.push_back(std::move(h));
  }
  return out;
}

StudyConclusions conclude_run(const RunSummary& run, int focus_point,
                              const StepProjectionOutcome& step) {
  StudyConclusions c;
  c.projection = project_trace(run);
  if (c.projection && step.step) weigh_by_step(*c.projection, *step.step);
  if (c.projection && !step.step) c.projection->step_missing = step.missing;
  for (const RunPoint& point : run.points) {
    auto& per_variant = c.problem_findings.emplace_back();
    for (const RunVariant& v : point.variants) {
      auto& findings = per_variant.emplace_back();
      if (auto f = masked_not_skipped(point.problem, v)) findings.push_back(std::move(*f));
    }
  }
  if (run.points.empty()) return c;
  const size_t focus = focus_point >= 0
                           ? std::min(static_cast<size_t>(focus_point), run.points.size() - 1)
                           : run.points.size() / 2;
  c.headline = compute_headline(headline_variants(run.points[focus]));
  if (run.counters) {
    for (const RunPoint& point : run.points)
      c.counter_findings.push_back(run_counter_findings(run, point));
    c.roofline = run_roofline(run, run.points[focus]);
  }
  return c;
}

void conclude_report(ReportData& data) {
  if (data.run) {
    data.conclusions = conclude_run(*data.run, std::max(data.focus_point, 0), data.step);
  }
  // The variants' traces were read: the headline weighs their findings by them.
  std::vector<HeadlineVariant> variants = headline_variants(data);
  if (data.run && data.run->from_trace && data.focus_point >= 0) {
    // A run made from a trace is judged as the trace is, by its kernels' GPU time per call: a
    // small call's CUDA-event median holds the launch gaps (trace_projection.h).
    const RunPoint& point = data.run->points[static_cast<size_t>(data.focus_point)];
    for (size_t i = 0; i < variants.size() && i < point.variants.size(); ++i) {
      bool by_events = false;
      variants[i].time_ns = call_ns(point.variants[i], point.problem.backward, by_events);
      variants[i].time_is_busy = !by_events;
    }
  }
  data.conclusions.headline = compute_headline(variants);
  if (!data.run && data.conclusions.headline)
    add_headline_steps(*data.conclusions.headline, data.variants);
  if (!data.run && data.conclusions.headline) {
    // Traces of another GPU or workload than the fastest's: their gap is that difference, not
    // what a finding or a kernel of theirs says (HTA's traces beside the H200's:
    // tests/data/foreign).
    Headline& h = *data.conclusions.headline;
    const ReportVariant* fastest = nullptr;
    for (const ReportVariant& v : data.variants)
      if (v.name == h.fastest && v.analysis) fastest = &v;
    for (HeadlineReason& r : h.slow)
      for (const ReportVariant& v : data.variants)
        if (fastest && v.name == r.variant && v.analysis)
          r.mismatches = workload_mismatches(*v.analysis, *fastest->analysis);
  }
  if (data.backward) {
    ReportBackward& b = *data.backward;
    b.conclusions = conclude_run(b.run, b.focus_point);
    b.conclusions.headline = compute_headline(headline_variants(b));
  }
  for (ReportBeside& beside : data.beside) beside.conclusions = conclude_run(beside.run, -1);
  for (ReportModel& model : data.models)
    model.conclusions = conclude_run(model.run, -1, model.step);
}

}  // namespace attnprof
