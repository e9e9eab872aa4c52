#pragma once
// The threads that parse a document's batches (reader/event_batch.h), one sink each.

#include <condition_variable>
#include <deque>
#include <mutex>
#include <span>
#include <thread>
#include <vector>

#include <simdjson.h>

#include "reader/event_batch.h"
#include "reader/trace_document.h"

namespace attnprof {

// Parses batches in the order they were submitted: a thread for each sink but the first, which
// is the reading thread's. The reading thread parses too, whenever it would otherwise wait: with
// as many sinks as cores, no core is left idle while batches are queued, and none is shared by two
// busy threads (a shared core slowed the reader, which every worker waits on: measured 10-20 %
// slower on a 1 GB gzip trace than this).
class WorkerPool {
 public:
  // `limits` is read by the workers as they parse: it must be set before the first submit().
  WorkerPool(std::span<EventBatchSink* const> sinks, const EventLimits& limits);
  ~WorkerPool();

  void submit(EventBatch* batch);
  bool done(const EventBatch* batch);
  // On the reading thread: until `batch` is parsed, parses queued batches, else waits.
  void wait(const EventBatch* batch);
  // On the reading thread: parses the oldest queued batch if more are queued than the worker
  // threads could take at once (else they would idle while this thread parses, and not reads).
  bool help();
  // Takes back the batches not started, and waits for the others.
  void cancel_all();

 private:
  void work(size_t index);
  // Parses the queue's first batch with sink `index`, the lock released meanwhile.
  void run_front(std::unique_lock<std::mutex>& lock, size_t index);

  std::span<EventBatchSink* const> sinks_;
  std::vector<simdjson::ondemand::parser> parsers_{sinks_.size()};
  const EventLimits& limits_;
  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable batch_done_;
  std::deque<EventBatch*> queue_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::vector<std::thread> threads_;  // last: started once the rest is built
};

}  // namespace attnprof
