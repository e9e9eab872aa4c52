// `attnprof analyze (TRACE | DIR | STUDY_DIR)... [--region NAME]
//  [--format text|json|md|csv|summary] [-o FILE] [--jobs N]`
//
// Several traces are read at once (docs/ARCHITECTURE.md), and a trace that cannot be read does not
// stop the others: every trace read is reported, the others get their one-line error on stderr
// after the report, and the exit code is 2 if any failed. With no trace read, only the errors are
// printed.

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>

#include "base/enum_names.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "cli/terminal_progress.h"
#include "io/input_guard.h"
#include "io/output_file.h"
#include "pipeline/analyze_run.h"

namespace attnprof::cli {

namespace {

struct AnalyzeArgs {
  std::vector<std::string> traces;
  std::string region;
  OutputOption output;
  bool explain = false;
  std::string graph_capture;
  TextView view;
  std::string table = "activities";
  std::string group_by = "name";     // of the ops table: "name" or "shape"
  std::vector<std::string> what_if;  // SELECTOR=FACTOR, each
  size_t jobs = 0;
  LimitOptions limits;
};

const std::vector<OutputFormat> kAnalyzeFormats = {OutputFormat::kText, OutputFormat::kJson,
                                                   OutputFormat::kMarkdown, OutputFormat::kCsv,
                                                   OutputFormat::kSummary};

int run(const AnalyzeArgs& args) {
  // Every file the command reads: the traces and the capture trace of --graph-capture.
  std::vector<std::string> inputs_read = args.traces;
  if (!args.graph_capture.empty()) inputs_read.push_back(args.graph_capture);
  if (Status once = refuse_standard_input_twice(inputs_read); !once.ok()) return fail(once.error());
  // An output over an input is said first: it is the mistake that would cost a trace.
  const std::string& out_path = args.output.path;
  if (Status refused = refuse_output_over_inputs(out_path, inputs_read); !refused.ok())
    return fail(refused.error());
  auto format_chosen =
      resolve_output_format("analyze", args.output, kAnalyzeFormats, OutputFormat::kText);
  if (!format_chosen.ok()) return fail(format_chosen.error());
  const OutputFormat format = *format_chosen;
  const std::vector<TraceInput> inputs = expand_trace_inputs(args.traces);
  auto pattern = region_pattern_of(args.region, inputs);
  if (!pattern.ok()) return fail(pattern.error());
  std::vector<std::string> paths;
  for (const auto& input : inputs)
    if (!input.error) paths.push_back(input.path);

  AnalyzeOptions options;
  options.region_pattern = *pattern;
  const AnalyzeCsvTable table = parse_name_in(kAnalyzeCsvTableNames, args.table).value();
  keep_for_output(options, format, table);
  options.explain = args.explain;
  if (Status rules = add_what_if_rules(options, args.what_if, "--what-if"); !rules.ok())
    return fail(rules.error());
  options.graph_capture = args.graph_capture;
  options.ops_by_shape = args.group_by == "shape";
  options.limits = args.limits.to_limits();
  // JSON lists every region's activities: it is written to stdout as each trace is analyzed,
  // while its model is in memory, one region at a time (docs/PERFORMANCE.md: built in memory
  // first, the output of a trace of a million regions takes 2.7 GB).
  const bool json = format == OutputFormat::kJson;
  // JSON to a file goes through the one safe writer as it is made; it is put in place (or
  // dropped) once every trace is read.
  std::optional<OutputFile> json_file;
  if (json && !args.output.to_standard_output()) {
    auto opened = OutputFile::open(out_path);
    if (!opened.ok()) return fail(opened.error());
    json_file.emplace(std::move(opened).value());
  }
  int json_file_error = 0;
  AnalyzeJsonOutput json_out(json_file ? JsonWriter::Sink([&](std::string_view bytes) {
    Status written = json_file->write(bytes);
    if (!written.ok() && json_file_error == 0) {
      print_error(written.error().message);
      json_file_error = 2;
    }
    return written.ok();
  })
                                       : nullptr);
  TracesRead traces;
  {
    TerminalProgress progress(paths);
    ManyTracesOptions many;
    many.jobs = args.jobs;
    many.progress = [&progress](size_t i, uint64_t bytes, uint64_t events) {
      progress.reading(i, bytes, events);
    };
    many.finished = [&progress](size_t i, const Result<TraceAnalysis>& outcome) {
      progress.finished(i, outcome);
    };
    // A progress line on the terminal the JSON goes to would cut into it: it stops there.
    const bool json_on_terminal = json && !json_file && isatty(fileno(stdout));
    if (json)
      many.analyzed_in_order = [&](size_t, const TraceAnalysis& analysis,
                                   const RegionActivities& activities,
                                   const RegionTablesOf& tables) {
        if (json_on_terminal) progress.stop();
        json_out.trace(analysis, activities, tables);
      };
    traces = read_traces(inputs, options, many, format != OutputFormat::kSummary);
  }

  int exit_code = traces.unread.empty() ? 0 : 2;
  if (json && !traces.read.empty()) {
    const bool written = json_out.finish(traces);
    if (json_file) {
      Status done = written ? json_file->commit() : Status::success();
      if (json_file_error != 0)
        exit_code = 2;
      else if (!done.ok())
        exit_code = fail(done.error());
    } else if (!written || std::fflush(stdout) != 0) {
      exit_code = standard_output_failed(errno);
    }
  } else if (format == OutputFormat::kSummary || (!json && !traces.read.empty())) {
    std::string out = render_analyze(traces, format, table, args.view);
    if (format == OutputFormat::kText && !args.view.wide)
      out = args.output.fit_text(std::move(out));
    if (write_command_output(out, out_path) != 0) exit_code = 2;
  }
  for (const auto& u : traces.unread) print_error(u.error);
  return exit_code;
}

}  // namespace

void register_analyze(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<AnalyzeArgs>();
  CLI::App* cmd = app.add_subcommand(
      "analyze",
      "Summarize PyTorch profiler traces region by region: kernels, copies, times, and "
      "what launched each GPU activity; with several traces (one per rank), compare them");
  cmd->add_option(
         "traces", args->traces,
         "Trace files (.json or .json.gz), or folders: every *.json and *.json.gz in one, in "
         "natural order (rank_2 before rank_10); a study folder (attnprof bench --out): its "
         "traces over their forward regions")
      ->required();
  cmd->add_option("--region", args->region,
                  "Regions are the user annotations with this name (wildcards * and ?); default: "
                  "forward for a study folder's traces, else ProfilerStep#* when present, else "
                  "the whole trace");
  args->output.add_to(*cmd, kAnalyzeFormats,
                      "text; csv: one row per GPU activity of every region; summary: one line of "
                      "JSON per trace for `attnprof merge` (docs/DISTRIBUTED.md)");
  cmd->add_option("--table", args->table,
                  "With --format csv: activities (one row per GPU activity, the default), kernels, "
                  "ops or modules (one row per kernel, op or nn.Module instance of every region), "
                  "attention (one row per attention call of every region), memory (one row per "
                  "CUDA device of every region: its peak and who holds it, from [memory] events), "
                  "critical_path (one row per region: its critical path's length and categories, "
                  "and the what-if), collectives (one row per collective name of every region and "
                  "of each whole trace: bytes, GPU time, algbw and busbw)")
      ->check(CLI::IsMember(names_in(kAnalyzeCsvTableNames)));
  cmd->add_option("--group-by", args->group_by,
                  "shape: the ops table has a row per op and input shapes, as PyTorch's "
                  "key_averages(group_by_input_shape=True) (traces recorded with "
                  "record_shapes=True)")
      ->check(CLI::IsMember({"name", "shape"}));
  cmd->add_option("--top", args->view.top,
                  "Rows of each top table (kernels, ops, nn.Modules) in the text (default 10)")
      ->check(CLI::Range(size_t{1}, size_t{1000000}));
  cmd->add_flag("--activities", args->view.activities,
                "Text: also list every GPU activity of the typical region, in order, with the op "
                "chain that launched it");
  cmd->add_flag("--wide", args->view.wide,
                "Text: names cut to fit 120 columns are also written in full below their row, "
                "and no line is wrapped at the terminal's width");
  cmd->add_option("--what-if", args->what_if,
                  "SELECTOR=FACTOR, repeatable: time each region's critical path again with the "
                  "selected work's durations multiplied by FACTOR (0.5 twice as fast, 0 gone); "
                  "SELECTOR is attention, attention-cpu, kernel:GLOB, op:GLOB, module:GLOB, "
                  "class:NAME or cpu:GLOB (docs/CRITICAL_PATH.md)")
      ->allow_extra_args(false)
      ->take_all();
  cmd->add_flag("--explain", args->explain,
                "Also say what the trace means: findings with their evidence and suggestions");
  cmd->add_option("--graph-capture", args->graph_capture,
                  "A trace holding the capture of the CUDA graphs these traces replay, and a "
                  "replay after it: replays without a capture of their own take its ops, matched "
                  "by kernel names (attribution \"signature\"; docs/CUDA_GRAPHS.md)");
  cmd->add_option("-j,--jobs", args->jobs,
                  "Traces read at once (default: one per two cores); memory holds about this many "
                  "traces' models at a time")
      ->check(CLI::Range(size_t{1}, size_t{1024}));
  args->limits.add_to(*cmd);
  cmd->callback([args, &exit_code] { exit_code = run(*args); });
}

}  // namespace attnprof::cli
