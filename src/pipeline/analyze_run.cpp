#include "pipeline/analyze_run.h"

#include <algorithm>
#include <cstdio>

#include "analysis/critical_path/what_if_rules.h"
#include "attnprof/trace_summary.h"
#include "render/collectives_output.h"

namespace attnprof {

namespace {

// JSON to standard output when no sink is given.
JsonWriter writer_to(JsonWriter::Sink sink) {
  return sink ? JsonWriter(std::move(sink)) : JsonWriter(stdout);
}

}  // namespace

void TracesRead::add(const std::string& path, Result<TraceAnalysis>&& outcome) {
  input_failed.push_back(!outcome.ok());
  if (outcome.ok())
    read.push_back(std::move(outcome).value());
  else
    unread.push_back({path, outcome.error().message, outcome.error().kind});
}

void TracesRead::compare_ranks() {
  if (are_ranks_of_one_run(read)) across = summarize_across_traces(read);
}

Status add_what_if_rules(AnalyzeOptions& options, const std::vector<std::string>& rules,
                         std::string_view flag) {
  for (const std::string& text : rules) {
    auto rule = parse_what_if(text);
    if (!rule.ok()) return rule.take_error();
    options.what_if.push_back(std::move(rule).value());
  }
  if (options.what_if.size() > kMaxWhatIfRules)
    return make_error(ErrorKind::kUsage, "{}: at most {} rules", flag, kMaxWhatIfRules);
  return Status::success();
}

void keep_for_output(AnalyzeOptions& options, OutputFormat format, AnalyzeCsvTable table) {
  const bool csv = format == OutputFormat::kCsv;
  // CSV lists every region's activities too, held in memory (it has no streamed form yet).
  options.activities_of_every_region = csv && table == AnalyzeCsvTable::kActivities;
  // The text and Markdown show the typical region's tables only; CSV every region's; JSON makes
  // each region's as it writes it (AnalyzeOptions::analyzed), never holding them all.
  options.tables_of_every_region =
      csv && table != AnalyzeCsvTable::kAttention && table != AnalyzeCsvTable::kMemory &&
      table != AnalyzeCsvTable::kCriticalPath && table != AnalyzeCsvTable::kCollectives;
  // Every region's attention calls where the output lists them: JSON and CSV's attention table.
  options.attention_of_every_region =
      format == OutputFormat::kJson || (csv && table == AnalyzeCsvTable::kAttention);
}

Result<std::string> region_pattern_of(const std::string& region,
                                      const std::vector<TraceInput>& inputs) {
  if (!region.empty()) return region;
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

TracesRead read_traces(const std::vector<TraceInput>& inputs, const AnalyzeOptions& options,
                       const ManyTracesOptions& many, bool compare_ranks) {
  std::vector<std::string> paths;
  for (const auto& input : inputs)
    if (!input.error) paths.push_back(input.path);
  std::vector<Result<TraceAnalysis>> outcomes = analyze_files(paths, options, many);
  TracesRead traces;
  size_t next = 0;
  for (const auto& input : inputs)
    traces.add(input.path,
               input.error ? Result<TraceAnalysis>(*input.error) : std::move(outcomes[next++]));
  if (compare_ranks) traces.compare_ranks();
  return traces;
}

std::string render_analyze(const TracesRead& traces, OutputFormat format, AnalyzeCsvTable table,
                           const TextView& view) {
  if (format == OutputFormat::kSummary) {
    std::string out;
    size_t next_read = 0, next_unread = 0;
    for (bool failed : traces.input_failed) {
      if (failed) {
        const UnreadTrace& u = traces.unread[next_unread++];
        out += write_trace_summary(u.path, Error{u.kind, u.error});
      } else {
        out += write_trace_summary(traces.read[next_read++]);
      }
    }
    return out;
  }
  const AnalyzeOutput output = traces.output();
  if (format == OutputFormat::kMarkdown) return render_analyze_markdown(output);
  if (format != OutputFormat::kCsv) return render_analyze_text(output, view);
  switch (table) {
    case AnalyzeCsvTable::kAttention:
      return render_attention_calls_csv(output);
    case AnalyzeCsvTable::kMemory:
      return render_memory_csv(output);
    case AnalyzeCsvTable::kCollectives:
      return render_collectives_csv(output);
    case AnalyzeCsvTable::kCriticalPath:
      return render_critical_path_csv(output);
    case AnalyzeCsvTable::kKernels:
    case AnalyzeCsvTable::kOps:
    case AnalyzeCsvTable::kModules:
      return render_top_table_csv(output, table);
    case AnalyzeCsvTable::kActivities:
      break;
  }
  return render_analyze_csv(output);
}

AnalyzeJsonOutput::AnalyzeJsonOutput(JsonWriter::Sink sink)
    : writer_(writer_to(std::move(sink))), stream_(writer_) {}

void AnalyzeJsonOutput::trace(const TraceAnalysis& analysis, const RegionActivities& activities,
                              const RegionTablesOf& tables) {
  stream_.trace(analysis, activities, tables);
}

bool AnalyzeJsonOutput::finish(const TracesRead& traces) {
  stream_.finish(traces.across ? &*traces.across : nullptr, traces.read, traces.unread);
  return writer_.flush();
}

}  // namespace attnprof
