// `attnprof analyze (TRACE | DIR | STUDY_DIR)... [--region NAME]
//  [--format text|json|md|csv|summary] [-o FILE] [--jobs N]`
//
// Several traces are read at once (docs/ARCHITECTURE.md), and a trace that cannot be read does not
// stop the others: every trace read is reported, the others get their one-line error on stderr
// after the report, and the exit code is 2 if any failed. With no trace read, only the errors are
// printed.

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <memory>
#include <optional>

#include "analysis/critical_path/what_if_rules.h"
#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "attnprof/trace_summary.h"
#include "cli/command_output.h"
#include "cli/commands.h"
#include "cli/limit_options.h"
#include "cli/output_option.h"
#include "cli/terminal_progress.h"
#include "cli/trace_inputs.h"
#include "io/input_guard.h"
#include "io/output_file.h"
#include "render/analyze/analyze_output.h"
#include "render/collectives_output.h"
#include "render/json_writer.h"

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

// The regions to read when --region is not given: a study's traces are read over the bench's
// `forward` annotations, as report and check read them; other traces as analyze_file chooses.
// Both at once would need two patterns: refused, with the flag that settles it.
Result<std::string> region_pattern(const AnalyzeArgs& args, const std::vector<TraceInput>& inputs) {
  if (!args.region.empty()) return args.region;
  const size_t of_study = static_cast<size_t>(
      std::count_if(inputs.begin(), inputs.end(), [](const TraceInput& i) { return i.of_study; }));
  if (of_study == 0) return std::string();
  if (of_study < inputs.size())
    return make_error(ErrorKind::kUsage,
                      "a study folder's traces are read over their '{}' regions and the other "
                      "traces over ProfilerStep#*: give --region, or analyze them apart",
                      kStudyRegion);
  return std::string(kStudyRegion);
}

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
  auto pattern = region_pattern(args, inputs);
  if (!pattern.ok()) return fail(pattern.error());
  std::vector<std::string> paths;
  for (const auto& input : inputs)
    if (!input.error) paths.push_back(input.path);

  AnalyzeOptions options;
  options.region_pattern = *pattern;
  // CSV lists every region's activities too, held in memory (it has no streamed form yet).
  options.activities_of_every_region = format == OutputFormat::kCsv && args.table == "activities";
  // The text and Markdown show the typical region's tables only; CSV every region's; JSON makes
  // each region's as it writes it (AnalyzeOptions::analyzed), never holding them all.
  options.tables_of_every_region = format == OutputFormat::kCsv && args.table != "attention" &&
                                   args.table != "memory" && args.table != "critical_path" &&
                                   args.table != "collectives";
  // Every region's attention calls where the output lists them: JSON and CSV's attention table.
  options.attention_of_every_region =
      format == OutputFormat::kJson || (format == OutputFormat::kCsv && args.table == "attention");
  options.explain = args.explain;
  for (const std::string& text : args.what_if) {
    auto rule = parse_what_if(text);
    if (!rule.ok()) return fail(rule.error());
    options.what_if.push_back(std::move(rule).value());
  }
  if (options.what_if.size() > kMaxWhatIfRules)
    return fail(make_error(ErrorKind::kUsage, "--what-if: at most {} rules", kMaxWhatIfRules));
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
  JsonWriter json_out = json_file ? JsonWriter(JsonWriter::Sink([&](std::string_view bytes) {
    Status written = json_file->write(bytes);
    if (!written.ok() && json_file_error == 0) {
      print_error(written.error().message);
      json_file_error = 2;
    }
    return written.ok();
  }))
                                  : JsonWriter(stdout);
  AnalyzeJsonStream json_stream(json_out);
  std::vector<Result<TraceAnalysis>> outcomes;
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
        json_stream.trace(analysis, activities, tables);
      };
    outcomes = analyze_files(paths, options, many);
  }

  std::vector<TraceAnalysis> read;
  std::vector<UnreadTrace> unread;
  std::vector<bool> input_failed;  // per input, in order: whether it is among `unread`
  size_t next = 0;
  for (const auto& input : inputs) {
    input_failed.push_back(input.error || !outcomes[next].ok());
    if (input.error) {
      unread.push_back({input.path, input.error->message, input.error->kind});
      continue;
    }
    auto& outcome = outcomes[next++];
    if (outcome.ok())
      read.push_back(std::move(outcome).value());
    else
      unread.push_back({input.path, outcome.error().message, outcome.error().kind});
  }

  int exit_code = unread.empty() ? 0 : 2;
  if (format == OutputFormat::kSummary) {
    // The map half of docs/DISTRIBUTED.md: one line per trace, in input order, its error's line
    // too, so that merge reports every trace.
    std::string out;
    size_t next_read = 0, next_unread = 0;
    for (bool failed : input_failed) {
      if (failed) {
        const UnreadTrace& u = unread[next_unread++];
        out += write_trace_summary(u.path, Error{u.kind, u.error});
      } else {
        out += write_trace_summary(read[next_read++]);
      }
    }
    if (write_command_output(out, out_path) != 0) exit_code = 2;
  } else if (!read.empty()) {
    std::optional<CrossTraceSummary> across;
    if (are_ranks_of_one_run(read)) across = summarize_across_traces(read);
    if (json) {
      json_stream.finish(across ? &*across : nullptr, read, unread);
      if (json_file) {
        Status done = json_out.flush() ? json_file->commit() : Status::success();
        if (json_file_error != 0)
          exit_code = 2;
        else if (!done.ok())
          exit_code = fail(done.error());
      } else if (!json_out.flush() || std::fflush(stdout) != 0) {
        exit_code = standard_output_failed(errno);
      }
    } else {
      const AnalyzeOutput output{read, across ? &*across : nullptr, unread};
      std::string out =
          format == OutputFormat::kMarkdown ? render_analyze_markdown(output)
          : format == OutputFormat::kCsv && args.table == "attention"
              ? render_attention_calls_csv(output)
          : format == OutputFormat::kCsv && args.table == "memory" ? render_memory_csv(output)
          : format == OutputFormat::kCsv && args.table == "collectives"
              ? render_collectives_csv(output)
          : format == OutputFormat::kCsv && args.table == "critical_path"
              ? render_critical_path_csv(output)
          : format == OutputFormat::kCsv && args.table != "activities"
              ? render_top_table_csv(output, args.table)
          : format == OutputFormat::kCsv ? render_analyze_csv(output)
          : args.view.wide               ? render_analyze_text(output, args.view)
                           : args.output.fit_text(render_analyze_text(output, args.view));
      if (write_command_output(out, out_path) != 0) exit_code = 2;
    }
  }
  for (const auto& u : unread) print_error(u.error);
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
      ->check(CLI::IsMember({"activities", "kernels", "ops", "modules", "attention", "memory",
                             "critical_path", "collectives"}));
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
