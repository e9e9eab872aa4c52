#pragma once
// Independent tasks on the machine's cores: the one place the analyses start threads for work
// that splits into tasks of its own (each region's critical path). A task's data is its own or
// its worker's; nothing is shared between threads but what the caller set up read-only.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <future>
#include <thread>
#include <utility>
#include <vector>

namespace attnprof {

// Threads for `wanted` workers: 0 is one per core, at most 8 (as the reader's workers).
inline size_t worker_count(size_t wanted) {
  if (wanted > 0) return wanted;
  return std::clamp<size_t>(std::thread::hardware_concurrency(), 1, 8);
}

// Whether a task can run beside the calling thread: `workers` (as worker_count takes it) allows
// more than one, and the machine has a second core.
inline bool has_core_beside(size_t workers) {
  return workers != 1 && std::thread::hardware_concurrency() > 1;
}

// Starts `task` beside the calling thread when `beside` (has_core_beside), else defers it to the
// first get(): the result is handed over by the future, once; the task's data is its own or was
// set up read-only before it started.
template <typename Task>
auto start_beside(bool beside, Task&& task) {
  return std::async(beside ? std::launch::async : std::launch::deferred, std::forward<Task>(task));
}

// Runs run(worker, task) for every task in [0, tasks) on up to `workers` threads, the calling one
// included (worker 0); each thread takes the next task until none is left, so that long and short
// tasks even out. Returns when every task is done.
template <typename Run>
void run_tasks(size_t tasks, size_t workers, Run&& run) {
  workers = std::max<size_t>(1, std::min(workers, tasks));
  std::atomic<size_t> next{0};
  auto work = [&](size_t worker) {
    for (size_t task; (task = next.fetch_add(1, std::memory_order_relaxed)) < tasks;)
      run(worker, task);
  };
  std::vector<std::thread> threads;
  threads.reserve(workers - 1);
  for (size_t w = 1; w < workers; ++w) threads.emplace_back(work, w);
  work(0);
  for (std::thread& t : threads) t.join();
}

}  // namespace attnprof
