#include "reader/worker_pool.h"

#include <pthread.h>

namespace attnprof {

WorkerPool::WorkerPool(std::span<EventBatchSink* const> sinks, const EventLimits& limits)
    : sinks_(sinks), limits_(limits) {
  threads_.reserve(sinks.size());
  for (size_t i = 1; i < sinks.size(); ++i) threads_.emplace_back([this, i] { work(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_all();
  for (auto& t : threads_) t.join();
}

void WorkerPool::submit(EventBatch* batch) {
  {
    std::lock_guard lock(mutex_);
    queue_.push_back(batch);
  }
  work_ready_.notify_one();
}

bool WorkerPool::done(const EventBatch* batch) {
  std::lock_guard lock(mutex_);
  return batch->done;
}

void WorkerPool::wait(const EventBatch* batch) {
  std::unique_lock lock(mutex_);
  while (!batch->done) {
    if (!queue_.empty()) {
      run_front(lock, 0);
      continue;
    }
    batch_done_.wait(lock);
  }
}

bool WorkerPool::help() {
  std::unique_lock lock(mutex_);
  if (queue_.size() <= threads_.size()) return false;
  run_front(lock, 0);
  return true;
}

void WorkerPool::cancel_all() {
  std::unique_lock lock(mutex_);
  queue_.clear();
  batch_done_.wait(lock, [&] { return running_ == 0; });
}

void WorkerPool::work(size_t index) {
  ::pthread_setname_np(::pthread_self(), "attnprof parse");  // for top and perf
  std::unique_lock lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    run_front(lock, index);
  }
}

void WorkerPool::run_front(std::unique_lock<std::mutex>& lock, size_t index) {
  EventBatch* batch = queue_.front();
  queue_.pop_front();
  ++running_;
  lock.unlock();
  batch->worker = index;
  parse_batch(parsers_[index], *sinks_[index], *batch, limits_);
  lock.lock();
  batch->done = true;
  --running_;
  batch_done_.notify_all();
}

}  // namespace attnprof
