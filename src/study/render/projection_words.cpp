#include "study/render/projection_words.h"

#include <cmath>

#include <fmt/format.h>

#include "base/format_units.h"

namespace attnprof {

namespace {

// The problem of a call, short: "2 x 16 heads (4 KV), 512 x 512, head dim 64, bf16, causal".
std::string problem_words(const RunProblem& p) {
  std::string words = fmt::format("{} x {} heads", p.batch, p.heads);
  if (p.kv_heads && p.kv_heads != p.heads) words += fmt::format(" ({} KV)", p.kv_heads);
  const int64_t queries = p.q_seq ? p.q_seq : p.seq;
  words += fmt::format(", {} queries x {} keys, head dim {}, {}, {}", queries, p.seq, p.head_dim,
                       p.dtype, name_in(kRunMaskNames, p.mask));
  if (p.window) words += fmt::format(", window {}", p.window);
  if (p.backward) words += ", forward + backward";
  return words;
}

std::string share(double ns, double of_ns) {
  if (of_ns <= 0) return "";
  return fmt::format(" ({:.1f} % of its {} of GPU time)", 100 * ns / of_ns, format_duration(of_ns));
}

std::string signed_percent(double after_ns, double before_ns) {
  if (before_ns <= 0) return "";
  const double pct = 100 * (after_ns - before_ns) / before_ns;
  return fmt::format("{}{:.1f} %", pct < 0 ? "-" : "+", std::abs(pct));
}

// The step timed on its critical path with each switch (study/analysis/step_projection.h): what
// holds it, each switch's factors and the step they give, then the one switch worth making, if any.
void append_step_lines(std::vector<std::string>& lines, const TraceProjection& p) {
  const StepProjection& step = *p.step;
  lines.push_back(fmt::format(
      "the step on its critical path (the same regions' median, from {}): {}, bound by {}; "
      "attention's kernels {} of it, the CPU of attention's ops {}",
      step.trace, format_duration(step.length_ns),
      step.bound_by.empty() ? std::string("nothing") : step.bound_by,
      format_duration(step.attention_on_path_ns), format_duration(step.attention_cpu_ns)));
  if (step.same_length_ns) {
    const double off = *step.same_length_ns - step.length_ns;
    std::string line = fmt::format("{}, the trace's own backend, gives the step {} here ({})",
                                   step.same_variant, format_duration(*step.same_length_ns),
                                   signed_percent(*step.same_length_ns, step.length_ns));
    if (std::abs(off) < kWorthSwitching * step.length_ns) {
      line += ": the run reproduces the step";
    } else {
      double run_cpu_ns = 0;
      for (const SwitchedStep& s : step.switches)
        if (s.factors.variant == step.same_variant && s.factors.attention_cpu)
          run_cpu_ns = step.attention_cpu_ns * *s.factors.attention_cpu;
      line += fmt::format(
          ": the trace's attention ops take {} of CPU per step, the run's calls of them {}, a "
          "cost the run does not repeat (more ops around the call, a plan built per new shape, "
          "a first call); part of each saving below is that cost",
          format_duration(step.attention_cpu_ns), format_duration(run_cpu_ns));
    }
    lines.push_back(std::move(line));
  }
  for (const SwitchedStep& s : step.switches) {
    if (s.factors.same_backend) continue;
    std::string factors = fmt::format("its kernels x{:.3g}", s.factors.attention);
    factors += s.factors.attention_cpu
                   ? fmt::format(", its ops' CPU x{:.3g}", *s.factors.attention_cpu)
                   : std::string(", its ops' CPU as recorded (no trace of it for every call)");
    lines.push_back(fmt::format("with {} ({}): the step {} ({})", s.factors.variant, factors,
                                format_duration(s.length_ns),
                                signed_percent(s.length_ns, step.length_ns)));
  }
  if (p.switch_variant.empty()) {
    lines.push_back(fmt::format(
        "no switch to another backend saves {:.0f} % of the step (bound by {}): keep what ran",
        100 * kWorthSwitching, step.bound_by.empty() ? std::string("nothing") : step.bound_by));
    return;
  }
  std::string line =
      fmt::format("switch to {}: -{} per step ({:.1f} % of its {})", p.switch_variant,
                  format_duration(p.switch_saving_ns), 100 * p.switch_saving_ns / step.length_ns,
                  format_duration(step.length_ns));
  // The others whose saving is within the noise of the best: as good a choice, by the step.
  std::string as_good;
  for (const SwitchedStep& s : step.switches) {
    const double saving = step.length_ns - s.length_ns;
    if (s.factors.same_backend || s.factors.variant == p.switch_variant) continue;
    if (saving >= (1 - kProjectionNoise) * p.switch_saving_ns)
      as_good += (as_good.empty() ? "" : ", ") + s.factors.variant;
  }
  if (!as_good.empty())
    line += fmt::format("; as good within {:.0f} %: {}", 100 * kProjectionNoise, as_good);
  lines.push_back(std::move(line));
}

}  // namespace

std::optional<ProjectionWords> projection_words(const RunSummary& run,
                                                const StudyConclusions& conclusions) {
  if (!run.from_trace || !conclusions.projection) return std::nullopt;
  const RunFromTrace& t = *run.from_trace;
  const TraceProjection& p = *conclusions.projection;
  ProjectionWords w;
  w.heading = fmt::format(
      "What switching attention would save in {} (its typical region {}, {} region(s)), per "
      "region; each call's time is the GPU time of its kernels, in that trace and in each "
      "variant's own:",
      t.trace, t.region.empty() ? "the whole trace" : "`" + t.region + "`", t.regions);
  for (const CallProjection& c : p.calls) {
    const RunPoint& point = run.points[static_cast<size_t>(c.point)];
    std::string line =
        fmt::format("{} call(s) of {} ({}) at {} each in the trace", c.calls, c.backend,
                    problem_words(point.problem), format_duration(c.trace_ns));
    if (c.same_ns)
      line += fmt::format(" ({} takes {} here)", c.same_variant, format_duration(*c.same_ns));
    if (!c.best_ns) {
      line += ": no variant passed the float64 check here";
    } else if (c.saving_ns > 0 && c.saving_ns >= kWorthSwitching * p.region_gpu_ns) {
      line +=
          fmt::format(" -> {} at {}: -{} per region{}", c.best_variant, format_duration(*c.best_ns),
                      format_duration(c.saving_ns), share(c.saving_ns, p.region_gpu_ns));
    } else if (c.saving_ns > 0) {
      line += fmt::format(
          ": {} takes {}, -{} per region{}, less than {:.0f} % of it: not worth a switch",
          c.best_variant, format_duration(*c.best_ns), format_duration(c.saving_ns),
          share(c.saving_ns, p.region_gpu_ns), 100 * kWorthSwitching);
    } else {
      line += fmt::format(
          ": no measured backend is more than {:.0f} % faster (the fastest, {}, "
          "takes {})",
          100 * kProjectionNoise, c.best_variant, format_duration(*c.best_ns));
    }
    if (c.by_events)
      line +=
          "; some variants had no trace: their CUDA-event medians stand in, launch gaps and all";
    if (!c.assumed.empty()) line += "; assumed: " + c.assumed;
    w.lines.push_back(std::move(line));
  }
  if (p.calls.size() > 1 || p.saving_ns > 0)
    w.lines.push_back(fmt::format("all of them: -{} per region{}", format_duration(p.saving_ns),
                                  share(p.saving_ns, p.region_gpu_ns)));
  if (p.step) {
    append_step_lines(w.lines, p);
  } else {
    if (!p.step_missing.empty()) w.lines.push_back("the step is not timed: " + p.step_missing);
    w.lines.push_back(
        p.switch_variant.empty()
            ? fmt::format("no one variant saves {:.0f} % of the region: keep what ran",
                          100 * kWorthSwitching)
            : fmt::format("switch to {}: -{} per region{}", p.switch_variant,
                          format_duration(p.switch_saving_ns),
                          share(p.switch_saving_ns, p.region_gpu_ns)));
  }
  for (const std::string& s : t.skipped) w.lines.push_back("not measured: " + s);
  return w;
}

std::string step_headline(const TraceProjection& p) {
  if (!p.step) return "";
  const StepProjection& step = *p.step;
  std::string words = fmt::format("The trace's step is {} on its critical path, bound by {}",
                                  format_duration(step.length_ns),
                                  step.bound_by.empty() ? std::string("nothing") : step.bound_by);
  if (p.switch_variant.empty())
    return words + fmt::format(": no switch to another backend saves {:.0f} % of it.",
                               100 * kWorthSwitching);
  return words + fmt::format(": switching to {} saves {} of it ({:.1f} %).", p.switch_variant,
                             format_duration(p.switch_saving_ns),
                             100 * p.switch_saving_ns / step.length_ns);
}

}  // namespace attnprof
