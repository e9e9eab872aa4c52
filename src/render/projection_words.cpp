#include "render/projection_words.h"

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
                       p.dtype, p.mask);
  if (p.window) words += fmt::format(", window {}", p.window);
  if (p.backward) words += ", forward + backward";
  return words;
}

std::string share(double ns, double of_ns) {
  if (of_ns <= 0) return "";
  return fmt::format(" ({:.1f} % of its {} of GPU time)", 100 * ns / of_ns, format_duration(of_ns));
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
  w.lines.push_back(p.switch_variant.empty()
                        ? fmt::format("no one variant saves {:.0f} % of the region: keep what ran",
                                      100 * kWorthSwitching)
                        : fmt::format("switch to {}: -{} per region{}", p.switch_variant,
                                      format_duration(p.switch_saving_ns),
                                      share(p.switch_saving_ns, p.region_gpu_ns)));
  for (const std::string& s : t.skipped) w.lines.push_back("not measured: " + s);
  return w;
}

}  // namespace attnprof
