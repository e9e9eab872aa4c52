#include "study/render/report_headline.h"

#include "study/render/projection_words.h"

#include <fmt/format.h>

#include "analysis/findings/finding_catalog.h"
#include "base/format_units.h"

namespace attnprof {

namespace {

// "1.84 ms of its 5.13 ms per region", or "" when the variant had no trace to weigh the finding.
std::string per_region(const HeadlineReason& r, std::string_view before) {
  if (!r.explained_ns) return "";
  if (!r.region_ns) return fmt::format("{}{} per region", before, format_duration(*r.explained_ns));
  return fmt::format("{}{} of its {} of GPU time per region", before,
                     format_duration(*r.explained_ns), format_duration(*r.region_ns));
}

// What a kernel's name tells of the GPU generation it was written for.
std::string generation_words(const KernelGeneration& g) {
  if (!g.sm) return "";
  std::string words = fmt::format("built for sm{}", g.sm);
  if (g.wgmma) words += " with Hopper's warpgroup MMA (wgmma)";
  if (g.sm_in_name) return words + (g.wgmma ? "" : " (its name says so)");
  return words + " (" + g.basis + ")";
}

// A slow variant's main kernel beside the fastest's, when no finding covers its gap.
std::string contrast_words(const HeadlineReason& r) {
  const HeadlineReason::KernelContrast& c = *r.contrast;
  std::string words =
      fmt::format("its main kernel, {} ({}), ", r.main_kernel, format_duration(r.main_kernel_ns));
  const std::string mine = generation_words(c.generation);
  const std::string theirs = generation_words(c.fastest_generation);
  const bool differ = c.generation.sm != c.fastest_generation.sm ||
                      c.generation.wgmma != c.fastest_generation.wgmma;
  if (!mine.empty() && !theirs.empty() && differ)
    words += fmt::format("is {}, where the fastest's, {} ({}), is {}", mine, c.fastest_kernel,
                         format_duration(c.fastest_kernel_ns), theirs);
  else
    words += fmt::format("against the fastest's {} ({})", c.fastest_kernel,
                         format_duration(c.fastest_kernel_ns));
  if (c.tensor_pipe_pct && c.fastest_tensor_pipe_pct)
    words += fmt::format("; its tensor pipes are busy {:.0f} % of the time against {:.0f} % (ncu)",
                         *c.tensor_pipe_pct, *c.fastest_tensor_pipe_pct);
  else if (c.occupancy_pct && c.fastest_occupancy_pct && !differ)
    words += fmt::format("; estimated occupancy {:.0f} % against {:.0f} %", *c.occupancy_pct,
                         *c.fastest_occupancy_pct);
  return words;
}

std::string one_finding(const std::string& id, const HeadlineReason& t);

// One reason in words: what the finding is, and the time of the kernels it concerns.
std::string finding_words(const HeadlineReason& r) {
  if (!r.mismatches.empty()) {
    std::string words;
    for (const std::string& m : r.mismatches) words += (words.empty() ? "" : "; ") + m;
    return "not like for like with the fastest (" + words +
           "): the gap is that difference, not what a finding or kernel of its own says";
  }
  if (!r.finding_id.empty() && !r.also_finding_id.empty()) {
    HeadlineReason also = r;
    also.explained_ns = r.also_explained_ns;
    also.region_ns.reset();
    return one_finding(r.finding_id, r) + "; and " + one_finding(r.also_finding_id, also);
  }
  if (!r.finding_id.empty()) return one_finding(r.finding_id, r);
  std::string covered =
      r.covered_share ? fmt::format("its findings cover only {:.0f} % of its gap to the fastest; ",
                                    100 * *r.covered_share)
                      : std::string("no finding explains it; ");
  if (r.contrast) return covered + contrast_words(r);
  if (!r.main_kernel.empty())
    return covered + fmt::format("its longest kernel, {}, takes {}", r.main_kernel,
                                 format_duration(r.main_kernel_ns));
  return covered.substr(0, covered.size() - 2);
}

// The finding's headline words from its catalog entry, with the time it explains.
std::string one_finding(const std::string& id, const HeadlineReason& t) {
  const FindingDescription* f = find_finding(id);
  if (!f || f->headline.empty()) return id;
  return std::string(f->headline) + per_region(t, f->headline_time);
}

}  // namespace

namespace {

// Traces' steps, before any kernel: the shortest, what bounds it, and each other's length against
// it; then the variants as fast on the GPU whose step is not.
std::string steps_words(const Headline& h) {
  if (h.steps.empty()) return "";
  const Headline::Step& first = h.steps.front();
  auto bound = [](const std::string& b) { return b.empty() ? std::string("nothing") : b; };
  std::string words =
      h.steps.size() == 1
          ? fmt::format("Its step (its critical path, the regions' median): {}, bound by {}",
                        format_duration(first.length_ns), bound(first.bound_by))
          : fmt::format(
                "By the step (its critical path, the regions' median): {} is the "
                "shortest, {}, bound by {}",
                first.variant, format_duration(first.length_ns), bound(first.bound_by));
  for (size_t i = 1; i < h.steps.size(); ++i) {
    const Headline::Step& s = h.steps[i];
    words += fmt::format("; {} {} ({:.2f}×{})", s.variant, format_duration(s.length_ns),
                         first.length_ns > 0 ? s.length_ns / first.length_ns : 0.0,
                         s.bound_by == first.bound_by ? "" : ", bound by " + bound(s.bound_by));
  }
  words += ".";
  if (!h.as_fast_on_gpu_only.empty()) {
    std::string names;
    for (const std::string& n : h.as_fast_on_gpu_only) names += (names.empty() ? "" : ", ") + n;
    words += fmt::format(" As fast as {} on the GPU, not by the step: {}.", h.fastest, names);
  }
  return words;
}

}  // namespace

// Without a trace the findings cannot be weighed: the first that explains time is named, and the
// words say so.
std::string reason_words(const HeadlineReason& r) {
  std::string words = finding_words(r);
  if (!r.finding_id.empty() && !r.explained_ns)
    words += " (its first finding that explains time; no trace read to weigh them)";
  return words;
}

HeadlineWords headline_words(const Headline& h, const std::string& time_label) {
  HeadlineWords w;
  w.fastest = h.fastest;
  w.lead = fmt::format("is the fastest: {} {}", format_duration(h.fastest_ns), time_label);
  if (h.baseline == h.fastest) {
    w.lead += h.baseline_is_naive ? ", no faster than naive" : "";
  } else if (h.baseline_is_naive) {
    w.lead +=
        fmt::format(", {:.1f}× faster than naive ({}{})", h.speedup,
                    h.baseline == "naive" ? "" : h.baseline + ", ", format_duration(h.baseline_ns));
  } else if (h.slow.empty()) {
    // Every other variant ties with the fastest (as_fast names them): a speed-up over the
    // slowest would say one is faster where the difference is within the noise.
  } else {
    w.lead += fmt::format(
        ", {:.1f}× faster than the slowest, {} ({}); the study has no naive variant to compare "
        "with",
        h.speedup, h.baseline, format_duration(h.baseline_ns));
  }
  w.lead += ".";
  if (!h.as_fast.empty()) {
    std::string names;
    for (const std::string& n : h.as_fast) names += (names.empty() ? "" : ", ") + n;
    w.as_fast = fmt::format("As fast (within {:.0f} %): {}.", (kHeadlineTie - 1) * 100, names);
  }
  w.step = steps_words(h);
  for (const HeadlineReason& r : h.slow)
    w.slow.push_back(
        {r.variant, fmt::format("{:.1f}× slower ({})", r.times_slower, format_duration(r.time_ns)),
         reason_words(r)});
  return w;
}

std::optional<HeadlineWords> report_headline_words(const ReportData& data) {
  const std::optional<Headline>& h = data.conclusions.headline;
  if (!h) return std::nullopt;
  if (data.run && data.run->from_trace) {
    HeadlineWords w = headline_words(*h, "GPU time of its kernels per call, as the trace measures");
    if (data.conclusions.projection) w.step = step_headline(*data.conclusions.projection);
    return w;
  }
  return headline_words(*h, data.run ? "GPU median per call" : "median GPU busy per region");
}

std::optional<HeadlineWords> report_headline_words(const ReportBeside& beside) {
  const std::optional<Headline>& h = beside.conclusions.headline;
  if (!h) return std::nullopt;
  return headline_words(*h, "GPU median per call");
}

std::optional<HeadlineWords> report_headline_words(const ReportBackward& backward) {
  const std::optional<Headline>& h = backward.conclusions.headline;
  if (!h) return std::nullopt;
  return headline_words(*h, "GPU median per call (forward and backward)");
}

}  // namespace attnprof
