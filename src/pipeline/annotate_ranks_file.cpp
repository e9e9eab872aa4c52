#include "pipeline/annotate_ranks_file.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <set>
#include <utility>

#include <simdjson.h>

#include "analysis/collectives/first_collective.h"
#include "analysis/regions/regions.h"
#include "analysis/trace_annotations.h"
#include "io/byte_stream.h"
#include "io/input_guard.h"
#include "io/trace_directory.h"
#include "io/trace_output_file.h"
#include "pipeline/annotate_file.h"
#include "reader/read_trace.h"
#include "reader/time_parse.h"
#include "render/annotate_events.h"
#include "render/json_writer.h"

namespace attnprof {

namespace {

// Each rank's flow ids move up by its rank times 2^44: Kineto numbers its flows by correlation id
// and attnprof's own start at 2^40 (render/annotate_events.cpp), so the ranks' ranges never meet,
// and 2^9 ranks stay below 2^53, which a reader that holds numbers as doubles keeps exactly.
constexpr int kRankFlowIdBits = 44;
constexpr size_t kRankChunk = size_t{1} << 20;

// Kineto's ts: microseconds with the nanoseconds as three decimals.
std::string ts_text(int64_t ns) {
  const int64_t a = ns < 0 ? -ns : ns;
  return fmt::format("{}{}.{:03}", ns < 0 ? "-" : "", a / 1000, a % 1000);
}

Result<std::string> read_bytes(const std::string& path, const Limits& limits) {
  auto in = ByteStream::open(path, limits);
  if (!in.ok()) return in.take_error();
  std::string bytes;
  for (;;) {
    const size_t old = bytes.size();
    bytes.resize(old + kRankChunk);
    auto n = (*in)->read(bytes.data() + old, kRankChunk);
    if (!n.ok()) return n.take_error();
    bytes.resize(old + *n);
    if (*n == 0) return bytes;
  }
}

// A pid or tid as the trace spells it, for people: 469, or Spans.
std::string id_words(const std::string& json) {
  return json.size() >= 2 && json.front() == '"' ? json.substr(1, json.size() - 2) : json;
}

// One rank's events onto its own process: every (pid, tid) of the rank becomes a thread of the
// process, its times move by the rank's shift and its flow ids into the rank's range. The
// process's own metadata and the threads' names are not copied: the process is named "rank N",
// and each thread after the process and thread it was ("CPU / thread 469 (python3)", "GPU 0 /
// stream 7").
class RankRewriter {
 public:
  RankRewriter(int64_t pid, int rank, int64_t shift_ns)
      : pid_(pid), rank_(rank), shift_ns_(shift_ns) {}

  // Appends `e` to `out`, after a ",\n" when `out` is not empty. Elements that are not objects
  // are left out (the reader counted them).
  void add(simdjson::dom::element e, std::string& out) {
    simdjson::dom::object event;
    if (e.get(event) != simdjson::SUCCESS) return;
    std::string_view ph;
    if (event["ph"].get(ph) != simdjson::SUCCESS) ph = {};
    simdjson::dom::element pid, tid;
    const bool has_pid = event["pid"].get(pid) == simdjson::SUCCESS;
    const bool has_tid = event["tid"].get(tid) == simdjson::SUCCESS;
    const std::string pid_key = has_pid ? simdjson::to_string(pid) : std::string();
    const std::string tid_key = has_tid ? simdjson::to_string(tid) : std::string();
    if (ph == "M") {
      std::string_view name, value;
      if (event["name"].get(name) != simdjson::SUCCESS) name = {};
      if (event["args"]["name"].get(value) != simdjson::SUCCESS) value = {};
      if (name == "process_name") {
        process_names_[pid_key] = std::string(value);
        return;
      }
      if (name == "thread_name") {
        thread_names_[{pid_key, tid_key}] = std::string(value);
        track(pid_key, tid_key);
        return;
      }
      if (name == "process_labels") {
        // Kineto names every process after the program and tells its devices apart by their
        // labels ("GPU 0", "CPU").
        std::string_view labels;
        if (event["args"]["labels"].get(labels) == simdjson::SUCCESS)
          process_labels_[pid_key] = std::string(labels);
        return;
      }
      if (name == "process_sort_index" || name == "thread_sort_index") return;
    }
    const bool flow = ph == "s" || ph == "t" || ph == "f";
    JsonWriter w(JsonWriter::kCompact);
    w.begin_object();
    for (auto [key, value] : event) {
      w.key(key);
      uint64_t id = 0;
      std::optional<int64_t> ns;
      if (key == "pid") {
        w.number(pid_);
      } else if (key == "tid" && tid_key != "\"\"") {  // "": a global instant's
        w.number(track(pid_key, tid_key));
      } else if (key == "ts" && (ns = microseconds_text_to_ns(simdjson::to_string(value)))) {
        w.raw_number(ts_text(*ns + shift_ns_));
      } else if (key == "id" && flow && value.get(id) == simdjson::SUCCESS) {
        w.number(id + (static_cast<uint64_t>(rank_) << kRankFlowIdBits));
      } else {
        w.raw_number(simdjson::to_string(value));  // any value, already spelled as JSON
      }
    }
    w.end_object();
    if (!out.empty()) out += ",\n";
    out += w.take();
  }

  // The process's name and sort index, and each thread's name.
  void add_names(std::string& out) const {
    auto metadata = [&](std::string_view name, int64_t tid, auto write_args) {
      JsonWriter w(JsonWriter::kCompact);
      w.begin_object();
      w.key("ph").string("M");
      w.key("name").string(name);
      w.key("pid").number(pid_);
      w.key("tid").number(tid);
      w.key("args").begin_object();
      write_args(w);
      w.end_object();
      w.end_object();
      if (!out.empty()) out += ",\n";
      out += w.take();
    };
    metadata("process_name", 0,
             [&](JsonWriter& w) { w.key("name").string(fmt::format("rank {}", rank_)); });
    metadata("process_sort_index", 0, [&](JsonWriter& w) { w.key("sort_index").number(rank_); });
    for (const auto& [key, tid] : tracks_) {
      auto labels = process_labels_.find(key.first);
      auto process = process_names_.find(key.first);
      auto thread = thread_names_.find(key);
      const std::string name = fmt::format(
          "{} / {}",
          labels != process_labels_.end() && !labels->second.empty() ? labels->second
          : process != process_names_.end() && !process->second.empty()
              ? process->second
              : "pid " + id_words(key.first),
          thread != thread_names_.end() && !thread->second.empty() ? thread->second
                                                                   : "tid " + id_words(key.second));
      metadata("thread_name", tid, [&](JsonWriter& w) { w.key("name").string(name); });
    }
  }

 private:
  int64_t track(const std::string& pid, const std::string& tid) {
    return tracks_.try_emplace({pid, tid}, static_cast<int64_t>(tracks_.size()) + 1).first->second;
  }

  int64_t pid_;
  int rank_;
  int64_t shift_ns_;
  std::map<std::pair<std::string, std::string>, int64_t> tracks_;
  std::map<std::string, std::string> process_names_, process_labels_;
  std::map<std::pair<std::string, std::string>, std::string> thread_names_;
};

struct RankRead {
  std::string path;
  int distributed_rank = -1;
  std::string events;  // attnprof's, as annotate writes them
  size_t critical_paths = 0;
  FirstCollectives first;
  int64_t first_event_ns = 0;
};

Result<RankRead> read_rank(const std::string& path, const AnalyzeOptions& options) {
  auto trace = read_trace(path, options.limits, options.progress, options.reading_workers);
  if (!trace.ok()) return trace.take_error();
  if (annotated_by_attnprof(*trace))
    return make_error(ErrorKind::kUsage,
                      "{}: annotated by attnprof already; merge the original traces", path);
  ATTNPROF_RETURN_IF_ERROR(check_region_overlap(*trace, options.region_pattern,
                                                options.limits.max_region_overlap, path));
  RankRead read;
  read.path = path;
  read.distributed_rank = trace->distributed.rank;
  const TraceAnnotations annotations = annotate_trace(*trace, options, /*critical_path=*/true);
  // One rule for every command (pipeline/analyze_file.cpp): a pattern that matches nothing is
  // bad input.
  if (!options.region_pattern.empty() && annotations.analysis.regions.empty())
    return no_region_matches(*trace, path, options.region_pattern);
  read.events = render_annotation_events(annotations);
  read.critical_paths = annotations.critical_paths.size();
  read.first = first_collectives(*trace);
  int64_t first = std::numeric_limits<int64_t>::max();
  for (const HostEvent& e : trace->host_events) first = std::min(first, e.start_ns);
  for (const GpuActivity& a : trace->gpu_activities) first = std::min(first, a.start_ns);
  read.first_event_ns = first == std::numeric_limits<int64_t>::max() ? 0 : first;
  return read;
}

// The rank's events, rewritten, written to `file` as they are made.
Status write_rank(const RankRead& read, RankRewriter& rewriter, const Limits& limits,
                  bool& first_event, TraceOutputFile& file) {
  auto bytes = read_bytes(read.path, limits);
  if (!bytes.ok()) return bytes.take_error();
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (auto error = parser.parse(simdjson::padded_string(*bytes)).get(doc))
    return make_error(ErrorKind::kMalformed, "{}: invalid JSON ({})", read.path,
                      simdjson::error_message(error));
  bytes->clear();
  simdjson::dom::array events;
  if (doc.get(events) != simdjson::SUCCESS && doc["traceEvents"].get(events) != simdjson::SUCCESS)
    return make_error(ErrorKind::kNotATrace, "{}: no \"traceEvents\" array", read.path);
  std::string chunk;
  auto flush = [&]() -> Status {
    if (chunk.empty()) return {};
    ATTNPROF_RETURN_IF_ERROR(file.write(first_event ? "\n" : ",\n"));
    first_event = false;
    ATTNPROF_RETURN_IF_ERROR(file.write(chunk));
    chunk.clear();
    return {};
  };
  for (simdjson::dom::element e : events) {
    rewriter.add(e, chunk);
    if (chunk.size() >= kRankChunk) ATTNPROF_RETURN_IF_ERROR(flush());
  }
  if (!read.events.empty()) {
    simdjson::dom::parser ours;
    simdjson::dom::array marks;
    if (ours.parse(simdjson::padded_string("[" + read.events + "]")).get(marks) ==
        simdjson::SUCCESS)
      for (simdjson::dom::element e : marks) rewriter.add(e, chunk);
  }
  rewriter.add_names(chunk);
  return flush();
}

}  // namespace

Result<AnnotateRanksOutcome> annotate_ranks(const std::string& dir, const std::string& out_path,
                                            const AnalyzeOptions& options) {
  if (out_path.empty())
    return make_error(ErrorKind::kUsage,
                      "cannot write '': give a file name, or - for standard output");
  auto files = list_trace_directory(dir);
  if (!files.ok()) return files.take_error();
  ATTNPROF_RETURN_IF_ERROR(refuse_output_over_inputs(out_path, *files));
  std::vector<RankRead> reads;
  for (const std::string& path : *files) {
    auto read = read_rank(path, options);
    if (!read.ok()) return read.take_error();
    reads.push_back(std::move(*read));
  }

  // The ranks' numbers: their own where each names a different one, else their order.
  std::set<int> named;
  for (const RankRead& r : reads)
    if (r.distributed_rank >= 0) named.insert(r.distributed_rank);
  const bool own_numbers = named.size() == reads.size();
  // What the clocks are aligned on: the same kind of event on every rank.
  const bool on_kernels = std::all_of(reads.begin(), reads.end(),
                                      [](const RankRead& r) { return r.first.kernel.has_value(); });
  const bool on_ops = std::all_of(reads.begin(), reads.end(),
                                  [](const RankRead& r) { return r.first.op.has_value(); });
  AnnotateRanksOutcome outcome;
  if (!on_kernels && !on_ops)
    outcome.warning = fmt::format(
        "{}: not every rank ran a collective (an NCCL kernel or a collective op); the ranks are "
        "aligned on their first event",
        dir);
  auto anchor = [&](const RankRead& r) -> std::pair<int64_t, std::string> {
    if (on_kernels) return {r.first.kernel->start_ns, r.first.kernel->name};
    if (on_ops) return {r.first.op->start_ns, r.first.op->name};
    return {r.first_event_ns, "the first event"};
  };
  const int64_t reference = anchor(reads.front()).first;
  for (size_t i = 0; i < reads.size(); ++i) {
    const auto [at, name] = anchor(reads[i]);
    outcome.ranks.push_back({reads[i].path,
                             own_numbers ? reads[i].distributed_rank : static_cast<int>(i),
                             reference - at, name, reads[i].critical_paths});
  }

  auto out = TraceOutputFile::create(out_path);
  if (!out.ok()) return out.take_error();
  TraceOutputFile& file = **out;
  ATTNPROF_RETURN_IF_ERROR(file.write("{\"schemaVersion\": 1, \"displayTimeUnit\": \"ms\",\n"));
  ATTNPROF_RETURN_IF_ERROR(file.write("\"traceEvents\": ["));
  bool first_event = true;
  for (size_t i = 0; i < reads.size(); ++i) {
    const MergedRank& rank = outcome.ranks[i];
    // One process per rank, numbered from 1 (Perfetto keeps pid 0 for the kernel's swapper).
    RankRewriter rewriter(rank.rank + 1, rank.rank, rank.shift_ns);
    ATTNPROF_RETURN_IF_ERROR(write_rank(reads[i], rewriter, options.limits, first_event, file));
    reads[i].events.clear();
  }
  ATTNPROF_RETURN_IF_ERROR(file.write("\n]}\n"));
  ATTNPROF_RETURN_IF_ERROR(file.commit());
  return outcome;
}

}  // namespace attnprof
