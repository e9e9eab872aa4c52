#pragma once
// Everything `attnprof report` shows, gathered once as plain data (the renderers only draw it):
// the study's table (a bench run's summary.json, or the analyses of plain traces), per variant
// its findings, the timeline of its typical region and its GPU time by kernel class, and a sweep
// when the run has one.
//
// How they are gathered from files: pipeline/report_inputs.h.

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/counter_findings.h"
#include "analysis/headline.h"
#include "analysis/kernel_class.h"
#include "analysis/region_timeline.h"
#include "attnprof/analysis.h"
#include "attnprof/limits.h"
#include "study/analysis/run_roofline.h"
#include "study/analysis/trace_projection.h"
#include "study/run/run_summary.h"

namespace attnprof {

// What the analyses of a study conclude, computed once when its inputs are gathered
// (study/analysis/report_conclusions.h): the renderers and the bench only read them.
struct StudyConclusions {
  std::optional<Headline> headline;  // none when no variant has a time
  // Per run point, what its hardware counters show; empty without counters.
  std::vector<std::vector<CounterFinding>> counter_findings;
  std::optional<RunRoofline> roofline;  // of the focus point, with counters
  // Per run point, per variant: what the problem itself says of the variant (masked_pairs.h).
  std::vector<std::vector<std::vector<RunFinding>>> problem_findings;
  // bench --from-trace: what switching the trace's attention would save.
  std::optional<TraceProjection> projection;
};

struct ReportVariant {
  std::string name;        // the bench's variant, or the trace's file name without .json[.gz]
  std::string trace_path;  // as read; empty when there is none
  // The trace as a link from the page (relative to where it is written; write_report sets it),
  // so that a reader opens it in Perfetto UI; empty: shown as text.
  std::string trace_href;
  std::string missing;  // why there is no timeline, when there is none
  // analyze --explain of the trace (activities of the typical region only).
  std::optional<TraceAnalysis> analysis;
  std::optional<RegionTimeline> timeline;  // of the typical region
  // GPU time of the typical region by kernel class, indexed by KernelClass.
  std::array<int64_t, kKernelClassCount> class_ns{};
};

// A study of forward and backward together, shipped beside the run in its folder's `backward/`
// (examples/h200-study/backward): the page shows its table, findings and headline.
struct ReportBackward {
  RunSummary run;
  // The point whose traces were read: the middle one, as for the run.
  int focus_point = -1;
  // Per variant of that point: the facts of its trace's `forward` and `backward` regions (empty
  // when its trace could not be read).
  std::vector<std::vector<RegionFacts>> facts;
  StudyConclusions conclusions;
};

// Another study shipped in a subfolder of the run's folder (examples/h200-study/gqa, decode,
// window: other shapes of the problem): the page shows its headline and table from its
// summary.json alone, with the findings the bench recorded there.
struct ReportBeside {
  std::string folder;  // the subfolder's name: "decode"
  RunSummary run;
  StudyConclusions conclusions;  // its headline is its middle point's
};

// A model study given beside the run on the command line (`attnprof report RUN_DIR
// examples/models/*`): a bench folder written by `bench --from-trace`, whose summary.json holds
// the trace's step and its attention calls measured through every backend. The page shows its
// step, attention's share, the backend that ran and the projection, and links its own page.
struct ReportModel {
  std::string folder;  // as given on the command line
  std::string name;    // the folder's own name: "llama-train-sdpa"
  // Its own page (its summary.md), relative to where the report is written (write_report sets
  // it); empty: shown as text.
  std::string page_href;
  RunSummary run;
  StepProjectionOutcome step;    // its trace's steps timed with each switch
  StudyConclusions conclusions;  // its projection
};

struct ReportData {
  std::vector<std::string> inputs;
  std::optional<RunSummary> run;  // for a bench run
  // The run point whose traces the variants show: the middle one of a sweep (for the study's
  // five sequence lengths, its default 2048), the only one otherwise.
  int focus_point = -1;
  std::string region_pattern;  // as asked ("forward" for a bench run); empty: analyze's default
  std::vector<ReportVariant> variants;
  std::vector<SweepRow> sweep;             // empty: no sweep
  std::string sweep_source;                // the file it came from
  std::optional<ReportBackward> backward;  // for a bench run with a backward study beside it
  std::vector<ReportBeside> beside;        // the other studies in its subfolders, by name
  std::vector<ReportModel> models;         // the model studies given after it, in their order
  StepProjectionOutcome step;              // a run made --from-trace: its trace's steps timed
  std::vector<std::string> warnings;       // what could not be shown, and why
  StudyConclusions conclusions;
};

struct ReportOptions {
  std::string region_pattern;  // empty: `forward` for a bench run, analyze's default for traces
  Limits limits;
  TimelineOptions timeline;
  // A bench run's variants already described (describe_variant), by their trace file as
  // summary.json names it: `bench --report` read each trace once, as it ran, and the report does
  // not read them again. The others are read from their files.
  std::map<std::string, ReportVariant> traces_read;
};

}  // namespace attnprof
