#include "fuzz/fuzz_one_trace.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "analysis/expectation_evaluation.h"
#include "analysis/expectation_parser.h"
#include "analysis/region_metrics.h"
#include "analysis/regions.h"
#include "analysis/summarize.h"
#include "attnprof/analysis.h"
#include "attnprof/cross_trace.h"
#include "attnprof/render.h"
#include "attnprof/trace_diff.h"
#include "io/output_file.h"
#include "reader/read_trace.h"
#include "render/analyze_output.h"
#include "render/check_output.h"
#include "render/diff_output.h"
#include "render/display_text.h"
#include "render/escape_html.h"
#include "study/render/report_svg.h"
#include "study/run/run_summary.h"

namespace attnprof::fuzz {

namespace {

// The bytes as a file with a path, so that they take the path of a real file: open, gzip
// detection by magic bytes, PosixFile reads. A memfd leaves nothing behind when the fuzzer
// dies on a crash.
class InMemoryFile {
 public:
  static Result<InMemoryFile> create(std::span<const uint8_t> bytes) {
    const int fd = ::memfd_create("attnprof-fuzz-trace", MFD_CLOEXEC);
    if (fd < 0)
      return make_error(ErrorKind::kIo, "cannot create an in-memory file: {}",
                        describe_errno(errno));
    InMemoryFile file(fd);
    for (size_t written = 0; written < bytes.size();) {
      const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        return make_error(ErrorKind::kIo, "cannot write an in-memory file: {}",
                          describe_errno(errno));
      written += static_cast<size_t>(n);
    }
    return file;
  }

  InMemoryFile(InMemoryFile&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  InMemoryFile& operator=(InMemoryFile&&) = delete;
  ~InMemoryFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  // Opening it opens a new description of the same file, with its own offset from 0.
  std::string path() const { return "/proc/self/fd/" + std::to_string(fd_); }

 private:
  explicit InMemoryFile(int fd) : fd_(fd) {}
  static std::string describe_errno(int error) { return std::generic_category().message(error); }

  int fd_ = -1;
};

// One expression per metric `check` knows, so that every metric is computed and compared.
const std::vector<Expectation>& every_metric_expectations() {
  static const std::vector<Expectation> expectations = [] {
    std::string text;
    for (const MetricInfo& metric : metric_catalog()) {
      text += metric.name;
      text += metric.type == MetricType::kNumber ? " >= 1\n" : " ~ \"a\"\n";
    }
    Result<std::vector<Expectation>> parsed = parse_expectations(text, "fuzz");
    if (!parsed) {
      // The catalog and the parser disagree: a bug of this file, not of an input.
      std::fprintf(stderr, "fuzz_one_trace: %s\n", parsed.error().message.c_str());
      std::abort();
    }
    return std::move(parsed).value();
  }();
  return expectations;
}

// Text and Markdown output for people: no byte of a trace's names may reach it raw,
// whatever the input. A raw control byte is a bug of a renderer that forgot
// render/display_text.h: abort, so that libFuzzer keeps the input.
size_t terminal_safe(const std::string& text, const char* what) {
  if (has_raw_control(text, /*newlines_allowed=*/true)) {
    std::fprintf(stderr, "fuzz_one_trace: a raw control byte reached the %s output\n", what);
    std::abort();
  }
  return text.size();
}

[[noreturn]] void unsafe(const char* what, std::string_view detail) {
  std::fprintf(stderr, "fuzz_one_trace: %s: %s\n", what, escape_control(detail).c_str());
  std::abort();
}

// CSV safe to open in a spreadsheet (render/csv_writer.h): no raw control byte but the line ends,
// and no field a spreadsheet would run as a formula (a number such as -1.5 is none).
size_t spreadsheet_safe(const std::string& csv, const char* what) {
  if (has_raw_control(csv, /*newlines_allowed=*/true)) unsafe(what, "a raw control byte in CSV");
  bool at_field_start = true, quoted = false;
  for (size_t i = 0; i < csv.size(); ++i) {
    const char c = csv[i];
    if (quoted) {
      if (c == '"' && (i + 1 >= csv.size() || csv[i + 1] != '"')) quoted = false;
      if (c == '"' && i + 1 < csv.size() && csv[i + 1] == '"') ++i;
      continue;
    }
    if (at_field_start) {
      size_t start = i;
      if (c == '"') {
        quoted = true;
        start = i + 1;
      }
      const size_t end = csv.find_first_of(quoted ? "\"" : ",\n", start);
      const std::string field = csv.substr(start, end == std::string::npos ? end : end - start);
      if (!field.empty() && std::string_view("=+@\t\r").find(field.front()) != std::string::npos)
        unsafe(what, field);
      if (!field.empty() && field.front() == '-' && field != "-") {
        char* parsed = nullptr;
        std::strtod(field.c_str(), &parsed);
        if (parsed != field.c_str() + field.size()) unsafe(what, field);
      }
      at_field_start = false;
      if (quoted) continue;
    }
    if (c == ',' || c == '\n') at_field_start = true;
  }
  return csv.size();
}

// The HTML report's escapers on a name from the trace: no raw control byte, no markup, and a
// link that is a relative path or http(s), never a script.
size_t html_safe(std::string_view name) {
  const std::string text = html_escape(name);
  if (has_raw_control(text, true) || text.find_first_of("<>\"'") != std::string::npos)
    unsafe("raw markup or control in HTML text", name);
  const std::string href = safe_href(name);
  if (has_raw_control(href, false) || href.find_first_of(" \"'<>") != std::string::npos)
    unsafe("a raw byte in an href", name);
  const size_t colon = href.find(':');
  if (colon != std::string::npos && colon < href.find('/') && !href.starts_with("http://") &&
      !href.starts_with("https://") && !href.starts_with("HTTP"))
    unsafe("an href with a scheme", name);
  // The SVG plots cut a name to their room (svg::fit, which may cut any byte sequence), then
  // escape it.
  const std::string svg_text = svg::escape(svg::fit(name, 24));
  if (has_raw_control(svg_text, true) || svg_text.find_first_of("<>\"'") != std::string::npos)
    unsafe("raw markup or control in SVG text", name);
  return text.size() + href.size() + svg_text.size();
}

// Markdown cells of a name: no link, image, code span, HTML or cell break can start in them (a
// bare `[`, `]`, backtick, `|`, `<`, `>` or newline; render/display_text.h says why parentheses
// and `!` may stay).
size_t markdown_safe(std::string_view name) {
  const std::string cell = markdown_cell(name);
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '\\') {
      ++i;
      continue;
    }
    if (std::string_view("[]`|<>\n").find(cell[i]) != std::string_view::npos)
      unsafe("an unescaped Markdown character", name);
  }
  // A code span (markdown_code): no raw control byte, every `|` escaped, and a fence longer than
  // any run of backticks inside, so that nothing ends it early.
  const std::string code = markdown_code(name);
  if (has_raw_control(code, false)) unsafe("a raw control byte in a Markdown code span", name);
  const size_t fence = code.find_first_not_of('`');
  size_t run = 0;
  for (size_t i = fence; fence != std::string::npos && i < code.size() - fence; ++i) {
    run = code[i] == '`' ? run + 1 : 0;
    if (run >= fence) unsafe("a Markdown code span that a backtick run ends early", name);
    if (code[i] == '|' && code[i - 1] != '\\')
      unsafe("an unescaped | in a Markdown code span", name);
  }
  return cell.size() + code.size();
}

// The one writer (io/output_file.h) with the text it is given, read back whole.
size_t written_whole(const std::string& contents) {
  // One file per process, removed again at once: nothing is left behind in /tmp.
  const std::string path = "/tmp/attnprof-fuzz-out-" + std::to_string(::getpid()) + ".txt";
  if (Status written = write_output_file(path, contents); !written.ok())
    unsafe("the output file could not be written", written.error().message);
  std::ifstream in(path, std::ios::binary);
  std::stringstream back;
  back << in.rdbuf();
  ::unlink(path.c_str());
  if (back.str() != contents) unsafe("the output file differs from its contents", path);
  return contents.size();
}

size_t render_check(const TraceAnalysis& analysis) {
  CheckReport report;
  report.analysis = analysis;
  for (const Expectation& e : every_metric_expectations())
    report.results.push_back(evaluate_expectation(e, report.analysis));
  return terminal_safe(render_check_text(report), "check text") + render_check_json(report).size() +
         spreadsheet_safe(render_check_csv({report}), "check CSV");
}

PipelineOutput run_pipeline(const Trace& trace) {
  PipelineOutput out;

  AnalyzeOptions by_default;  // `analyze --explain`: activities of the typical region only
  by_default.explain = true;
  TraceAnalysis default_analysis = summarize_trace(trace, by_default);

  AnalyzeOptions by_pattern;  // `analyze --format json --region ...`: every region's activities
  by_pattern.region_pattern = kRegionPattern;
  by_pattern.explain = true;
  by_pattern.activities_of_every_region = true;
  TraceAnalysis pattern_analysis = summarize_trace(trace, by_pattern);

  out.default_regions = default_analysis.regions.size();
  out.pattern_regions = pattern_analysis.regions.size();
  out.findings = default_analysis.findings.size() + pattern_analysis.findings.size();
  out.diagnostics = default_analysis.diagnostics.total();

  const std::vector<TraceAnalysis> both = {default_analysis, pattern_analysis};
  out.rendered_bytes += terminal_safe(render_text(both), "text");
  out.rendered_bytes += render_json(both).size();
  out.rendered_bytes += terminal_safe(render_markdown(both), "Markdown");
  // Both read as two traces of one run: the cross-trace sections name regions and traces too.
  const CrossTraceSummary across = summarize_across_traces(both);
  const std::vector<UnreadTrace> unread;
  const AnalyzeOutput output{both, &across, unread};
  out.rendered_bytes += terminal_safe(render_analyze_text(output), "cross-trace text");
  out.rendered_bytes += terminal_safe(render_analyze_markdown(output), "cross-trace Markdown");
  out.rendered_bytes += written_whole(render_analyze_csv(output));
  out.rendered_bytes += spreadsheet_safe(render_analyze_csv(output), "analyze CSV");
  for (const TraceAnalysis& analysis : both)
    for (const RegionSummary& region : analysis.regions) {
      out.rendered_bytes += html_safe(region.name) + markdown_safe(region.name);
      for (const ActivityRow& a : region.activities)
        out.rendered_bytes += html_safe(a.name) + markdown_safe(a.name);
    }
  if (pattern_analysis.regions.empty()) {
    const Error none = no_region_matches(trace, "fuzz", kRegionPattern);
    out.rendered_bytes += terminal_safe(escape_control(none.message), "no-region error");
  }

  // Against the pattern's regions, or the trace against itself when no region matches it, so
  // that the diff runs on every trace that has a region.
  const TraceAnalysis& other =
      pattern_analysis.regions.empty() ? default_analysis : pattern_analysis;
  Result<TraceDiff> diff = diff_traces(default_analysis, other);
  out.diff_ok = diff.ok();
  if (diff.ok()) {
    out.rendered_bytes += terminal_safe(render_diff_text(*diff), "diff text");
    out.rendered_bytes += render_diff_json(*diff).size();
    out.rendered_bytes += terminal_safe(render_diff_markdown(*diff), "diff Markdown");
    out.rendered_bytes += spreadsheet_safe(render_diff_csv(*diff), "diff CSV");
  }

  out.rendered_bytes += render_check(default_analysis);
  out.rendered_bytes += render_check(pattern_analysis);
  return out;
}

}  // namespace

Limits fuzz_limits() {
  Limits limits;
  limits.max_decompressed_bytes = uint64_t{64} << 20;
  limits.max_event_bytes = uint64_t{2} << 20;
  limits.max_events = uint64_t{1} << 20;
  return limits;
}

PipelineRun fuzz_one_trace(std::span<const uint8_t> bytes, const Limits& limits) {
  Result<InMemoryFile> file = InMemoryFile::create(bytes);
  if (!file) return {"", file.take_error()};
  const std::string path = file->path();
  // Read as analyze_file reads: on the reading threads, one per core.
  // The same bytes as a bench run's summary.json: it reads, or fails with one line.
  Limits summary_limits = limits;
  summary_limits.max_side_file_bytes = limits.max_decompressed_bytes;
  if (Result<RunSummary> summary = read_run_summary(path, summary_limits); !summary) {
    if (std::optional<std::string> problem = error_shape_problem(summary.error(), path))
      unsafe("summary.json error", *problem);
  }
  Result<Trace> trace = read_trace(path, limits);
  if (!trace) return {path, trace.take_error()};
  return {path, run_pipeline(*trace)};
}

std::optional<std::string> error_shape_problem(const Error& error, const std::string& path) {
  if (error.message.empty()) return "the error message is empty";
  if (error.message.find('\n') != std::string::npos)
    return "the error message is more than one line: " + error.message;
  if (error.message.find(path) == std::string::npos)
    return "the error message does not name the file " + path + ": " + error.message;
  return std::nullopt;
}

}  // namespace attnprof::fuzz
