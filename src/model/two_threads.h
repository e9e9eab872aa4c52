#pragma once
// The steps after reading (merging the workers' tables, linking) split their work in two halves
// that run at once: on the 2-core machines we measure on, a step on one thread leaves a core
// idle.

#include <thread>

namespace attnprof {

// Runs work(0) on this thread and work(1) on another, and waits for both.
template <typename Work>
void run_on_two_threads(Work&& work) {
  std::thread other([&] { work(1); });
  work(0);
  other.join();
}

}  // namespace attnprof
