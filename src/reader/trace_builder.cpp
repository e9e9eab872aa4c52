#include "reader/trace_builder.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include <fmt/format.h>

#include "base/clamp32.h"
#include "model/huge_pages.h"
#include "model/sorted_runs.h"
#include "model/two_threads.h"
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
  StringId string(size_t worker, StringId id) const { return ids_[worker][id]; }
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

// The texts of the cpu_ops' recorded inputs, interned batch after batch in document order, as
// the names are: per worker, its text ids' ids in the trace. The workers' pools are freed.
std::vector<std::vector<StringId>> merge_op_input_texts(
    std::vector<std::unique_ptr<EventTables>>& tables, const std::vector<uint32_t>& committed,
    const std::vector<size_t>& batch_index, Trace& trace) {
  std::vector<std::vector<StringId>> texts(tables.size());
  for (size_t w = 0; w < tables.size(); ++w)
    texts[w].assign(tables[w]->op_input_texts.size(), StringPool::kEmpty);
  for (size_t i = 0; i < committed.size(); ++i) {
    const size_t w = committed[i];
    const EventTables& t = *tables[w];
    const size_t b = batch_index[i];
    const size_t end =
        b + 1 < t.batches.size() ? t.batches[b + 1].op_input_texts : t.op_input_texts.size();
    for (size_t s = t.batches[b].op_input_texts; s < end; ++s)
      texts[w][s] = trace.op_input_texts.intern(t.op_input_texts.view(static_cast<StringId>(s)));
  }
  for (auto& t : tables) t->op_input_texts = StringPool();
  return texts;
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
  // Which of its batches each committed batch is, per worker: the workers' batches are exactly
  // the committed ones, in order.
  std::vector<size_t> batch_index(committed_.size());
  {
    std::vector<size_t> next(workers, 0);
    for (size_t i = 0; i < committed_.size(); ++i) batch_index[i] = next[committed_[i]]++;
  }
  auto batch_end = [&](const EventTables& t, size_t b, auto field, size_t size) {
    return b + 1 < t.batches.size() ? t.batches[b + 1].*field : size;
  };

  // Worker blocks whose rows are copied, lent to the host events' table (see below).
  PageRecycler recycler;

  // Strings: interned in the order of the batches, each batch's in the order it met them, which
  // is the order of first use in the document.
  IdMap ids(workers);
  for (size_t w = 0; w < workers; ++w) ids.of(w).assign(tables_[w]->strings.size(), 0);
  for (size_t i = 0; i < committed_.size(); ++i) {
    const size_t w = committed_[i];
    const EventTables& t = *tables_[w];
    const size_t b = batch_index[i];
    const size_t end = batch_end(t, b, &EventTables::Mark::strings, t.strings.size());
    for (size_t s = t.batches[b].strings; s < end; ++s)
      ids.of(w)[s] = trace_.strings.intern(t.strings.view(static_cast<StringId>(s)));
  }

  // The tables other than host events first: batch after batch, in document order, GPU
  // activities on one thread and the rest on another. Their workers' blocks, once copied, go to
  // the recycler for the host events' table.
  size_t gpu_total = 0, instant_total = 0, flow_total = 0, name_total = 0;
  for (auto& t : tables_) {
    gpu_total += t->gpu_activities.size();
    instant_total += t->instants.size();
    flow_total += t->flows.size();
    name_total += t->thread_names.size();
  }
  reserve_on_huge_pages(trace_.gpu_activities, gpu_total);
  reserve_on_huge_pages(trace_.instants, instant_total);
  reserve_on_huge_pages(trace_.flows, flow_total);
  trace_.thread_names.reserve(name_total);
  std::vector<TextKeys> instant_keys, flow_keys, name_keys;
  for (auto& t : tables_) {
    instant_keys.emplace_back(t->instant_text_keys);
    flow_keys.emplace_back(t->flow_text_keys);
    name_keys.emplace_back(t->name_text_keys);
  }
  run_on_two_threads([&](size_t half) {
    for (size_t i = 0; i < committed_.size(); ++i) {
      const size_t w = committed_[i];
      EventTables& t = *tables_[w];
      const size_t b = batch_index[i];
      const EventTables::Mark& m = t.batches[b];
      const std::vector<StringId>& names = ids.of(w);

      if (half == 0) {
        size_t end = batch_end(t, b, &EventTables::Mark::gpu, t.gpu_activities.size());
        t.gpu_activities.for_each_span(m.gpu, end, [&](const GpuActivity* rows, size_t n) {
          for (size_t r = 0; r < n; ++r) {
            GpuActivity a = rows[r];
            a.name = names[a.name];
            if (a.collective() != StringPool::kEmpty) a.set_collective(names[a.collective()]);
            trace_.gpu_activities.push_back(a);
          }
        });
        t.gpu_activities.release_before(end, &recycler);
        continue;
      }

      size_t row = m.instants;
      size_t end = batch_end(t, b, &EventTables::Mark::instants, t.instants.size());
      t.instants.for_each_span(m.instants, end, [&](const InstantEvent* rows, size_t n) {
        for (size_t r = 0; r < n; ++r, ++row) {
          InstantEvent e = rows[r];
          e.name = names[e.name];
          if (uint32_t text = instant_keys[w].bits(row)) {
            e.pid = ids.key(w, e.pid, text & EventTables::kPidIsText);
            e.tid = ids.key(w, e.tid, text & EventTables::kTidIsText);
          }
          trace_.instants.push_back(e);
        }
      });
      t.instants.release_before(end, &recycler);

      row = m.flows;
      end = batch_end(t, b, &EventTables::Mark::flows, t.flows.size());
      t.flows.for_each_span(m.flows, end, [&](const FlowEvent* rows, size_t n) {
        for (size_t r = 0; r < n; ++r, ++row) {
          FlowEvent e = rows[r];
          e.category = names[e.category];
          if (uint32_t text = flow_keys[w].bits(row)) {
            e.pid = ids.key(w, e.pid, text & EventTables::kPidIsText);
            e.tid = ids.key(w, e.tid, text & EventTables::kTidIsText);
          }
          trace_.flows.push_back(e);
        }
      });
      t.flows.release_before(end, &recycler);

      end = batch_end(t, b, &EventTables::Mark::names, t.thread_names.size());
      for (size_t r = m.names; r < end; ++r) {
        ThreadName n = t.thread_names[r];
        n.name = names[n.name];
        if (uint32_t text = name_keys[w].bits(r)) {
          n.pid = ids.key(w, n.pid, text & EventTables::kPidIsText);
          n.tid = ids.key(w, n.tid, text & EventTables::kTidIsText);
        }
        trace_.thread_names.push_back(n);
      }
    }
    if (half == 0)
      stable_sort_runs(trace_.gpu_activities.begin(), trace_.gpu_activities.end(), gpu_before);
  });
  // Then host events: thread by thread in (pid, tid) order, each thread's rows in document order
  // (its batches interleave across workers), then sorted by start within the thread. One pass
  // appends them, and the pages of the worker blocks copied so far back the table ahead of it:
  // ~100 MB of fresh pages fewer on a 1 GB trace (docs/PERFORMANCE.md, "Fresh memory"). Writing the
  // table from two threads would not allow it (the table would have to be sized, so touched,
  // first).
  {
    struct Source {
      size_t worker;
      EventTables::HostThread* thread;
      int32_t pid, tid;  // the trace's keys
      size_t next = 0;   // into thread->batch_starts
    };
    std::vector<Source> sources;
    size_t total = 0;
    for (size_t w = 0; w < workers; ++w) {
      for (auto& t : tables_[w]->host_threads) {
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
    const std::vector<std::vector<StringId>> input_texts =
        merge_op_input_texts(tables_, committed_, batch_index, trace_);
    auto& host = trace_.host_events;
    reserve_on_huge_pages(host, total);
    PageRecycler::Table backing(recycler, host.data(), host.capacity() * sizeof(HostEvent));
    std::vector<std::pair<size_t, size_t>> threads;  // rows [begin, end) of each thread
    auto merge_host = [&] {
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
                (!next || s.thread->batch_starts[s.next].first <
                              next->thread->batch_starts[next->next].first))
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
          const std::vector<HostEvent>& wide = tables_[next->worker]->wide_host_events;
          // The rows' inputs, in row order: the first at or after `from`.
          const auto& inputs = next->thread->inputs;
          auto input = std::lower_bound(inputs.begin(), inputs.end(),
                                        std::pair(static_cast<uint32_t>(from), StringId{0}));
          size_t row = from;
          backing.ahead_of(host.data() + host.size());
          next->thread->rows.for_each_span(from, to,
                                           [&](const EventTables::HostRow* rows, size_t n) {
                                             for (size_t r = 0; r < n; ++r, ++row) {
                                               HostEvent e = EventTables::expand(rows[r], wide);
                                               e.name = names[e.name];
                                               e.pid = next->pid;
                                               e.tid = next->tid;
                                               if (input != inputs.end() && input->first == row)
                                                 e.set_inputs(texts[(input++)->second]);
                                               host.push_back(e);
                                             }
                                           });
          next->thread->rows.release_before(to, &recycler);
        }
        threads.emplace_back(begin, host.size());
        first = last;
      }
    };
    merge_host();
    for (auto& t : tables_) std::vector<EventTables::HostThread>().swap(t->host_threads);
    // Sorting thread by thread, the largest first, each to the half with fewer rows so far.
    std::vector<size_t> order(threads.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto rows = [&](size_t i) { return threads[i].second - threads[i].first; };
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return rows(a) > rows(b); });
    std::vector<size_t> halves[2];
    size_t load[2] = {0, 0};
    for (size_t i : order) {
      size_t h = load[1] < load[0] ? 1 : 0;
      halves[h].push_back(i);
      load[h] += rows(i);
    }
    run_on_two_threads([&](size_t half) {
      for (size_t i : halves[half])
        stable_sort_runs(host.begin() + threads[i].first, host.begin() + threads[i].second,
                         host_before);
    });
  }

  for (auto& t : tables_) {
    trace_.attention_shapes.insert(trace_.attention_shapes.end(), t->attention_shapes.begin(),
                                   t->attention_shapes.end());
    trace_.events_read += t->events_read;
    trace_.legacy_operators |= t->saw_legacy_operators;
  }

  std::sort(trace_.attention_shapes.begin(), trace_.attention_shapes.end(),
            [](const AttentionRows& a, const AttentionRows& b) {
              return std::tie(a.pid, a.tid, a.start_ns) < std::tie(b.pid, b.tid, b.start_ns);
            });

  // Diagnostics: each worker kept the first few of each kind among its own events; in byte-offset
  // order, the document's first few of each kind are among them.
  {
    std::vector<const DiagnosticLog::Entry*> kept;
    std::array<uint64_t, static_cast<size_t>(DiagnosticKind::kCount)> counts{};
    auto gather = [&](const DiagnosticLog& log) {
      for (const auto& e : log.kept) kept.push_back(&e);
      for (size_t k = 0; k < counts.size(); ++k) counts[k] += log.counts[k];
    };
    gather(top_level_diagnostics_);
    for (auto& t : tables_) gather(t->diagnostics);
    std::stable_sort(kept.begin(), kept.end(),
                     [](const auto* a, const auto* b) { return a->offset < b->offset; });
    for (const auto* e : kept) trace_.diagnostics.add(e->kind, e->offset, e->detail);
    // The rest are only counted.
    for (size_t k = 0; k < counts.size(); ++k) {
      auto kind = static_cast<DiagnosticKind>(k);
      for (uint64_t n = trace_.diagnostics.count(kind); n < counts[k]; ++n)
        trace_.diagnostics.add(kind, 0, {});
    }
  }
  tables_.clear();
  return std::move(trace_);
}

}  // namespace attnprof
