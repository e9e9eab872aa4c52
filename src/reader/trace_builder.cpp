#include "reader/trace_builder.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "base/clamp32.h"
#include "base/parallel_tasks.h"
#include "model/huge_pages.h"
#include "model/sorted_runs.h"
#include "reader/kineto_format.h"

namespace attnprof {

namespace {

// Host events of one thread: parents start first and, at a tie, last longer; then a stack per
// thread finds the nesting (reader/linker.h).
bool host_before(const HostEvent& a, const HostEvent& b) {
  if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
  if (a.dur_ns != b.dur_ns) return a.dur_ns > b.dur_ns;
  if (a.kind != b.kind) return a.kind < b.kind;
  return a.correlation < b.correlation;
}

bool gpu_before(const GpuActivity& a, const GpuActivity& b) {
  if (a.start_ns != b.start_ns) return a.start_ns < b.start_ns;
  if (a.stream != b.stream) return a.stream < b.stream;
  return a.correlation < b.correlation;
}

// The workers' string ids and text keys, as the trace's.
class IdMap {
 public:
  explicit IdMap(size_t workers) : ids_(workers) {}
  std::vector<StringId>& of(size_t worker) { return ids_[worker]; }
  const std::vector<StringId>& of(size_t worker) const { return ids_[worker]; }
  int32_t key(size_t worker, int32_t key, bool text) const {
    return text ? text_thread_key(ids_[worker][text_thread_key_string(key)]) : key;
  }

 private:
  std::vector<std::vector<StringId>> ids_;
};

// Walks a worker's list of text-key rows (row << 2 | bits) alongside its rows, in order.
class TextKeys {
 public:
  explicit TextKeys(const std::vector<uint64_t>& list) : list_(list) {}
  // The text bits of `row` (0 for most rows); rows must be asked in increasing order.
  uint32_t bits(size_t row) {
    while (next_ < list_.size() && (list_[next_] >> 2) < row) ++next_;
    return next_ < list_.size() && (list_[next_] >> 2) == row ? list_[next_] & 3 : 0;
  }

 private:
  const std::vector<uint64_t>& list_;
  size_t next_ = 0;
};

using Tables = std::vector<std::unique_ptr<EventTables>>;

// The committed batches in document order: each one's worker, and which of that worker's batches
// it is (the workers' batches are exactly the committed ones, in order).
struct BatchOrder {
  struct Batch {
    size_t worker;
    size_t index;  // into the worker's EventTables::batches
  };
  std::vector<Batch> batches;

  // Where a worker's batch `b` ends in one of its tables: where the next batch begins (`field`
  // of its Mark), or the table's `size` after its last batch.
  template <typename Field>
  static size_t end(const EventTables& t, size_t b, Field field, size_t size) {
    return b + 1 < t.batches.size() ? t.batches[b + 1].*field : size;
  }
};

BatchOrder batch_order(const std::vector<uint32_t>& committed, size_t workers) {
  BatchOrder order;
  order.batches.reserve(committed.size());
  std::vector<size_t> next(workers, 0);
  for (uint32_t w : committed) order.batches.push_back({w, next[w]++});
  return order;
}

// Strings: interned in the order of the batches, each batch's in the order it met them, which is
// the order of first use in the document.
IdMap merge_strings(const Tables& tables, const BatchOrder& order, StringPool& strings) {
  IdMap ids(tables.size());
  for (size_t w = 0; w < tables.size(); ++w) ids.of(w).assign(tables[w]->strings.size(), 0);
  for (const BatchOrder::Batch& batch : order.batches) {
    const EventTables& t = *tables[batch.worker];
    const size_t end =
        BatchOrder::end(t, batch.index, &EventTables::Mark::strings, t.strings.size());
    for (size_t s = t.batches[batch.index].strings; s < end; ++s)
      ids.of(batch.worker)[s] = strings.intern(t.strings.view(static_cast<StringId>(s)));
  }
  return ids;
}

// GPU activities, batch after batch in document order, then sorted by start. Each worker block,
// once copied, goes to `recycler` for the host events' table.
void merge_gpu_activities(Tables& tables, const BatchOrder& order, const IdMap& ids,
                          PageRecycler& recycler, Trace& trace) {
  size_t total = 0;
  for (const auto& t : tables) total += t->gpu_activities.size();
  reserve_on_huge_pages(trace.gpu_activities, total);
  for (const BatchOrder::Batch& batch : order.batches) {
    EventTables& t = *tables[batch.worker];
    const std::vector<StringId>& names = ids.of(batch.worker);
    const size_t end =
        BatchOrder::end(t, batch.index, &EventTables::Mark::gpu, t.gpu_activities.size());
    t.gpu_activities.for_each_span(t.batches[batch.index].gpu, end,
                                   [&](const GpuActivity* rows, size_t n) {
                                     for (size_t r = 0; r < n; ++r) {
                                       GpuActivity a = rows[r];
                                       a.name = names[a.name];
                                       if (a.collective() != StringPool::kEmpty)
                                         a.set_collective(names[a.collective()]);
                                       trace.gpu_activities.push_back(a);
                                     }
                                   });
    t.gpu_activities.release_before(end, &recycler);
  }
  stable_sort_runs(trace.gpu_activities.begin(), trace.gpu_activities.end(), gpu_before);
}

// Instants, flows and thread names, batch after batch in document order, their text keys of pid
// and tid made the trace's. Worker blocks go to `recycler` as above.
void merge_markers(Tables& tables, const BatchOrder& order, const IdMap& ids,
                   PageRecycler& recycler, Trace& trace) {
  size_t instant_total = 0, flow_total = 0, name_total = 0;
  std::vector<TextKeys> instant_keys, flow_keys, name_keys;
  for (const auto& t : tables) {
    instant_total += t->instants.size();
    flow_total += t->flows.size();
    name_total += t->thread_names.size();
    instant_keys.emplace_back(t->instant_text_keys);
    flow_keys.emplace_back(t->flow_text_keys);
    name_keys.emplace_back(t->name_text_keys);
  }
  reserve_on_huge_pages(trace.instants, instant_total);
  reserve_on_huge_pages(trace.flows, flow_total);
  trace.thread_names.reserve(name_total);
  for (const BatchOrder::Batch& batch : order.batches) {
    const size_t w = batch.worker;
    EventTables& t = *tables[w];
    const EventTables::Mark& m = t.batches[batch.index];
    const std::vector<StringId>& names = ids.of(w);
    auto keys_of = [&](auto& row_event, uint32_t text) {
      row_event.pid = ids.key(w, row_event.pid, text & EventTables::kPidIsText);
      row_event.tid = ids.key(w, row_event.tid, text & EventTables::kTidIsText);
    };

    size_t row = m.instants;
    size_t end = BatchOrder::end(t, batch.index, &EventTables::Mark::instants, t.instants.size());
    t.instants.for_each_span(m.instants, end, [&](const InstantEvent* rows, size_t n) {
      for (size_t r = 0; r < n; ++r, ++row) {
        InstantEvent e = rows[r];
        e.name = names[e.name];
        if (uint32_t text = instant_keys[w].bits(row)) keys_of(e, text);
        trace.instants.push_back(e);
      }
    });
    t.instants.release_before(end, &recycler);

    row = m.flows;
    end = BatchOrder::end(t, batch.index, &EventTables::Mark::flows, t.flows.size());
    t.flows.for_each_span(m.flows, end, [&](const FlowEvent* rows, size_t n) {
      for (size_t r = 0; r < n; ++r, ++row) {
        FlowEvent e = rows[r];
        e.category = names[e.category];
        if (uint32_t text = flow_keys[w].bits(row)) keys_of(e, text);
        trace.flows.push_back(e);
      }
    });
    t.flows.release_before(end, &recycler);

    end = BatchOrder::end(t, batch.index, &EventTables::Mark::names, t.thread_names.size());
    for (size_t r = m.names; r < end; ++r) {
      ThreadName n = t.thread_names[r];
      n.name = names[n.name];
      if (uint32_t text = name_keys[w].bits(r)) keys_of(n, text);
      trace.thread_names.push_back(n);
    }
  }
}

// The texts of the cpu_ops' recorded inputs, interned batch after batch in document order, as
// the names are: per worker, its text ids' ids in the trace. The workers' pools are freed.
std::vector<std::vector<StringId>> merge_op_input_texts(Tables& tables, const BatchOrder& order,
                                                        StringPool& op_input_texts) {
  std::vector<std::vector<StringId>> texts(tables.size());
  for (size_t w = 0; w < tables.size(); ++w)
    texts[w].assign(tables[w]->op_input_texts.size(), StringPool::kEmpty);
  for (const BatchOrder::Batch& batch : order.batches) {
    const EventTables& t = *tables[batch.worker];
    const size_t end = BatchOrder::end(t, batch.index, &EventTables::Mark::op_input_texts,
                                       t.op_input_texts.size());
    for (size_t s = t.batches[batch.index].op_input_texts; s < end; ++s)
      texts[batch.worker][s] =
          op_input_texts.intern(t.op_input_texts.view(static_cast<StringId>(s)));
  }
  for (auto& t : tables) t->op_input_texts = StringPool();
  return texts;
}

// Rows [begin, end) of one thread in the host events' table.
struct ThreadRows {
  size_t begin, end;
  size_t size() const { return end - begin; }
};

// Host events, thread by thread in (pid, tid) order, each thread's rows in document order (its
// batches interleave across workers), unsorted within the thread. One pass appends them, and the
// pages of the worker blocks copied so far back the table ahead of it: ~100 MB of fresh pages
// fewer on a 1 GB trace (docs/PERFORMANCE.md, "Fresh memory"). Writing the table from several
// threads would not allow it (the table would have to be sized, so touched, first). The workers'
// host threads are freed.
std::vector<ThreadRows> merge_host_events(Tables& tables, const IdMap& ids,
                                          const std::vector<std::vector<StringId>>& input_texts,
                                          PageRecycler& recycler, Trace& trace) {
  struct Source {
    size_t worker;
    EventTables::HostThread* thread;
    int32_t pid, tid;  // the trace's keys
    size_t next = 0;   // into thread->batch_starts
  };
  std::vector<Source> sources;
  size_t total = 0;
  for (size_t w = 0; w < tables.size(); ++w) {
    for (auto& t : tables[w]->host_threads) {
      if (t.rows.empty()) continue;
      int32_t pid = ids.key(w, t.pid, t.text & EventTables::kPidIsText);
      int32_t tid = ids.key(w, t.tid, t.text & EventTables::kTidIsText);
      sources.push_back({w, &t, pid, tid});
      total += t.rows.size();
    }
  }
  std::stable_sort(sources.begin(), sources.end(), [](const Source& a, const Source& b) {
    return std::pair(a.pid, a.tid) < std::pair(b.pid, b.tid);
  });
  auto& host = trace.host_events;
  reserve_on_huge_pages(host, total);
  PageRecycler::Table backing(recycler, host.data(), host.capacity() * sizeof(HostEvent));
  std::vector<ThreadRows> threads;
  for (size_t first = 0; first < sources.size();) {
    size_t last = first;
    while (last < sources.size() && sources[last].pid == sources[first].pid &&
           sources[last].tid == sources[first].tid)
      ++last;
    const size_t begin = host.size();
    for (;;) {  // the thread's batches in document order
      Source* next = nullptr;
      for (size_t i = first; i < last; ++i) {
        Source& s = sources[i];
        if (s.next < s.thread->batch_starts.size() &&
            (!next ||
             s.thread->batch_starts[s.next].first < next->thread->batch_starts[next->next].first))
          next = &s;
      }
      if (!next) break;
      const auto& starts = next->thread->batch_starts;
      const size_t from = starts[next->next].second;
      const size_t to = next->next + 1 < starts.size() ? starts[next->next + 1].second
                                                       : next->thread->rows.size();
      ++next->next;
      const std::vector<StringId>& names = ids.of(next->worker);
      const std::vector<StringId>& texts = input_texts[next->worker];
      const std::vector<HostEvent>& wide = tables[next->worker]->wide_host_events;
      // The rows' inputs, in row order: the first at or after `from`.
      const auto& inputs = next->thread->inputs;
      auto input = std::lower_bound(inputs.begin(), inputs.end(),
                                    std::pair(static_cast<uint32_t>(from), StringId{0}));
      size_t row = from;
      backing.ahead_of(host.data() + host.size());
      next->thread->rows.for_each_span(from, to, [&](const EventTables::HostRow* rows, size_t n) {
        for (size_t r = 0; r < n; ++r, ++row) {
          HostEvent e = EventTables::expand(rows[r], wide);
          e.name = names[e.name];
          e.pid = next->pid;
          e.tid = next->tid;
          if (input != inputs.end() && input->first == row) e.set_inputs(texts[(input++)->second]);
          host.push_back(e);
        }
      });
      next->thread->rows.release_before(to, &recycler);
    }
    threads.push_back({begin, host.size()});
    first = last;
  }
  for (auto& t : tables) std::vector<EventTables::HostThread>().swap(t->host_threads);
  return threads;
}

// Sorts each thread's rows by start (host_before), a thread a task on up to `workers` threads,
// the largest first so that the threads' loads even out.
void sort_host_threads(IdVector<HostEventId, HostEvent>& host, std::vector<ThreadRows> threads,
                       size_t workers) {
  std::stable_sort(threads.begin(), threads.end(),
                   [](const ThreadRows& a, const ThreadRows& b) { return a.size() > b.size(); });
  run_tasks(threads.size(), workers, [&](size_t, size_t i) {
    stable_sort_runs(host.begin() + threads[i].begin, host.begin() + threads[i].end, host_before);
  });
}

// Diagnostics: each worker kept the first few of each kind among its own events; in byte-offset
// order, the document's first few of each kind are among them. The rest are only counted.
void merge_diagnostics(const DiagnosticLog& top_level, const Tables& tables, Diagnostics& out) {
  std::vector<const DiagnosticLog::Entry*> kept;
  std::array<uint64_t, static_cast<size_t>(DiagnosticKind::kCount)> counts{};
  auto gather = [&](const DiagnosticLog& log) {
    for (const auto& e : log.kept) kept.push_back(&e);
    for (size_t k = 0; k < counts.size(); ++k) counts[k] += log.counts[k];
  };
  gather(top_level);
  for (const auto& t : tables) gather(t->diagnostics);
  std::stable_sort(kept.begin(), kept.end(),
                   [](const auto* a, const auto* b) { return a->offset < b->offset; });
  for (const auto* e : kept) out.add(e->kind, e->offset, e->detail);
  for (size_t k = 0; k < counts.size(); ++k) {
    auto kind = static_cast<DiagnosticKind>(k);
    for (uint64_t n = out.count(kind); n < counts[k]; ++n) out.add(kind, 0, {});
  }
}

}  // namespace

TraceBuilder::TraceBuilder(std::string path, size_t workers) {
  trace_.path = std::move(path);
  for (size_t i = 0; i < std::max<size_t>(workers, 1); ++i) {
    tables_.push_back(std::make_unique<EventTables>());
    worker_sinks_.push_back(tables_.back().get());
  }
}

void TraceBuilder::commit_batch(uint64_t, size_t worker) {
  committed_.push_back(static_cast<uint32_t>(worker));
}

Status TraceBuilder::top_level_member(std::string_view key, std::string_view raw, uint64_t offset) {
  if (key == kineto::kDeviceProperties) return read_device_properties(raw, offset);
  if (key == kineto::kDistributedInfo) return read_distributed_info(raw, offset);
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  if (top_level_parser_.iterate(text).get(doc)) return {};
  if (key == kineto::kBaseTimeNanoseconds) {
    int64_t v;
    if (!doc.get_int64().get(v)) trace_.base_time_ns = v;
  } else if (key == kineto::kSchemaVersion) {
    int64_t v;
    if (!doc.get_int64().get(v)) trace_.schema_version = v;
  } else if (key == kineto::kTraceName) {
    std::string_view v;
    if (!doc.get_string().get(v)) trace_.trace_name = std::string(v);
  }
  return {};
}

Status TraceBuilder::read_device_properties(std::string_view raw, uint64_t offset) {
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  simdjson::ondemand::array devices;
  if (top_level_parser_.iterate(text).get(doc) || doc.get_array().get(devices)) {
    top_level_diagnostics_.add(DiagnosticKind::kMistypedField, offset, [] {
      return fmt::format("\"{}\" is not an array", kineto::kDeviceProperties);
    });
    return {};
  }
  for (auto element : devices) {
    simdjson::ondemand::object object;
    if (element.get_object().get(object)) continue;
    DeviceProperties d;
    for (auto field : object) {
      std::string_view key;
      simdjson::ondemand::value v;
      if (field.unescaped_key().get(key) || field.value().get(v)) break;
      int64_t n = 0;
      if (key == kineto::kDeviceName || key == kineto::kGcnArchName) {
        std::string_view s;
        if (!v.get_string().get(s))
          (key == kineto::kDeviceName ? d.name : d.arch_name) = std::string(s);
        continue;
      }
      if (v.get_int64().get(n)) continue;
      if (kineto::is_nvidia_device_property(key)) d.vendor = DeviceVendor::kNvidia;
      if (kineto::is_amd_device_property(key)) d.vendor = DeviceVendor::kAmd;
      if (key == kineto::kDeviceId)
        d.id = clamp32(n);
      else if (key == kineto::kComputeMajor)
        d.compute_major = clamp32(n);
      else if (key == kineto::kComputeMinor)
        d.compute_minor = clamp32(n);
      else if (key == kineto::kNumSms)
        d.sm_count = clamp32(n);
      else if (key == kineto::kMaxThreadsPerMultiprocessor)
        d.max_threads_per_sm = clamp32(n);
      else if (key == kineto::kRegsPerMultiprocessor)
        d.regs_per_sm = clamp32(n);
      else if (key == kineto::kSharedMemPerMultiprocessor)
        d.shared_memory_per_sm = n;
      else if (key == kineto::kSharedMemPerBlockOptin)
        d.shared_memory_per_block_optin = n;
      else if (key == kineto::kWarpSize)
        d.warp_size = clamp32(n);
      else if (key == kineto::kTotalGlobalMem)
        d.total_memory = n;
    }
    // Impossible figures (fewer threads per SM than a warp, a warp of no threads) would make
    // every occupancy NaN or infinite: they are dropped, with one diagnostic, and no occupancy is
    // estimated on this device.
    const bool impossible = (d.warp_size != kUnknownCount && d.warp_size <= 0) ||
                            (d.max_threads_per_sm != kUnknownCount && d.warp_size > 0 &&
                             d.max_threads_per_sm < d.warp_size) ||
                            (d.sm_count != kUnknownCount && d.sm_count <= 0) ||
                            (d.regs_per_sm != kUnknownCount && d.regs_per_sm <= 0);
    if (impossible) {
      top_level_diagnostics_.add(DiagnosticKind::kMistypedField, offset, [&d] {
        return fmt::format(
            "device {}: impossible deviceProperties (warpSize {}, maxThreadsPerMultiprocessor {}, "
            "numSms {}, regsPerMultiprocessor {}); no occupancy is estimated",
            d.id, d.warp_size, d.max_threads_per_sm, d.sm_count, d.regs_per_sm);
      });
      d.warp_size = d.max_threads_per_sm = d.sm_count = d.regs_per_sm = kUnknownCount;
    }
    if (!d.arch_name.empty() || d.name.find("AMD") != std::string::npos)
      d.vendor = DeviceVendor::kAmd;
    else if (d.vendor == DeviceVendor::kUnknown && kineto::is_nvidia_device_name(d.name))
      d.vendor = DeviceVendor::kNvidia;
    trace_.devices.push_back(std::move(d));
  }
  return {};
}

Status TraceBuilder::read_distributed_info(std::string_view raw, uint64_t offset) {
  simdjson::padded_string text(raw);
  simdjson::ondemand::document doc;
  simdjson::ondemand::object object;
  if (top_level_parser_.iterate(text).get(doc) || doc.get_object().get(object)) {
    top_level_diagnostics_.add(DiagnosticKind::kMistypedField, offset, [] {
      return fmt::format("\"{}\" is not an object", kineto::kDistributedInfo);
    });
    return {};
  }
  trace_.distributed.present = true;
  for (auto field : object) {
    std::string_view key;
    simdjson::ondemand::value v;
    if (field.unescaped_key().get(key) || field.value().get(v)) break;
    int64_t n;
    std::string_view s;
    if (key == kineto::kBackend && !v.get_string().get(s))
      trace_.distributed.backend = std::string(s);
    else if (key == kineto::kRank && !v.get_int64().get(n))
      trace_.distributed.rank = clamp32(n);
    else if (key == kineto::kWorldSize && !v.get_int64().get(n))
      trace_.distributed.world_size = clamp32(n);
  }
  return {};
}

uint64_t TraceBuilder::events_with_phase() const {
  uint64_t n = 0;
  for (const auto& t : tables_) n += t->events_with_phase;
  return n;
}

Trace TraceBuilder::finish() && {
  const size_t workers = tables_.size();
  const BatchOrder order = batch_order(committed_, workers);
  const IdMap ids = merge_strings(tables_, order, trace_.strings);
  // Worker blocks whose rows are copied, lent to the host events' table (merge_host_events).
  PageRecycler recycler;
  // The tables other than host events first, GPU activities and the rest as two tasks.
  run_tasks(2, workers, [&](size_t, size_t task) {
    if (task == 0)
      merge_gpu_activities(tables_, order, ids, recycler, trace_);
    else
      merge_markers(tables_, order, ids, recycler, trace_);
  });
  const std::vector<std::vector<StringId>> input_texts =
      merge_op_input_texts(tables_, order, trace_.op_input_texts);
  sort_host_threads(trace_.host_events,
                    merge_host_events(tables_, ids, input_texts, recycler, trace_), workers);
  for (const auto& t : tables_) {
    trace_.events_read += t->events_read;
    trace_.legacy_operators |= t->saw_legacy_operators;
  }
  merge_diagnostics(top_level_diagnostics_, tables_, trace_.diagnostics);
  tables_.clear();
  return std::move(trace_);
}

}  // namespace attnprof
