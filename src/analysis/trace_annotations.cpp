#include "analysis/trace_annotations.h"

#include "analysis/findings/finding_context.h"
#include "analysis/regions.h"
#include "analysis/summarize.h"

namespace attnprof {

namespace {

// The reader keys a named pid or tid as -1 - the id of its name (reader/event_tables.h).
TraceThreadId spelled(const Trace& trace, int32_t key) {
  if (key >= 0) return {key, {}};
  return {0, std::string(trace.strings.view(static_cast<StringId>(-1 - int64_t{key})))};
}

}  // namespace

TraceAnnotations annotate_trace(const Trace& trace, const AnalyzeOptions& options) {
  AnalyzeOptions explained = options;
  explained.explain = true;
  TraceAnnotations out;
  out.analysis = summarize_trace(trace, explained);
  const TraceAnalysis& analysis = out.analysis;

  // The regions again (summarize_trace keeps them to itself): cheap next to reading the trace.
  const RegionSet set = find_regions(trace, options.region_pattern);
  const RegionMembers members = assign_to_regions(trace, set);
  if (analysis.typical_region >= 0) {
    const Region& r = set.regions[size_t(analysis.typical_region)];
    out.typical = TypicalRegionMark{r.name,   analysis.typical_region, r.start_ns,
                                    r.end_ns, spelled(trace, r.pid),   r.any_process};
    out.findings_at_ns = r.start_ns;
    out.findings_pid = out.typical->pid;
  }
  // With the whole trace as the region, the findings go where its first op is.
  if (out.typical && out.typical->whole_trace && !trace.host_events.empty()) {
    out.findings_pid = spelled(trace, trace.host_events.front().pid);
    out.typical->pid = out.findings_pid;
  }

  const FindingContext context{trace, set, members, analysis};
  for (const HiddenCopy& c : find_hidden_copy_activities(context)) {
    const HostEvent& op = trace.host_events[c.op];
    const GpuActivity& copy = trace.gpu_activities[c.activity];
    out.copies.push_back(CopyLink{std::string(trace.strings.view(op.name)),
                                  std::string(trace.strings.view(copy.name)), op.start_ns,
                                  spelled(trace, op.pid), spelled(trace, op.tid), copy.start_ns,
                                  TraceThreadId{copy.device, {}}, TraceThreadId{copy.stream, {}},
                                  static_cast<int>(c.region)});
  }
  return out;
}

}  // namespace attnprof
