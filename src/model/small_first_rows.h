#pragma once
// A table of one CPU thread's rows: its first rows in an ordinary heap vector, the rest in
// RowBlocks (model/row_blocks.h). A trace may hold tens of thousands of threads of a few events
// each (tests/hostile_input_test.cpp, "TensOfThousandsOfCpuThreads"): a RowBlocks per thread gave
// each one a 2 MiB block of its own and touched at least a 4 KiB page of it, 320 MB for 80,000
// one-event threads. Small tables share the heap's pages instead, so memory follows the events,
// not the threads; a thread that grows past the head moves on to huge-page blocks as before.
// Same interface as RowBlocks.

#include <algorithm>
#include <cstddef>
#include <vector>

#include "model/row_blocks.h"

namespace attnprof {

template <typename T>
class SmallFirstRows {
 public:
  // Past an eighth of a block RowBlocks would promote its first block to a huge page: from there
  // on the rows go to blocks.
  static constexpr size_t kHeadRows = RowBlocks<T>::kRowsPerBlock / 8;

  size_t size() const { return head_size_ + tail_.size(); }
  bool empty() const { return size() == 0; }

  void push_back(const T& row) {
    if (head_size_ < kHeadRows) {
      head_.push_back(row);
      ++head_size_;
    } else {
      tail_.push_back(row);
    }
  }

  // Forgets the rows from `size` on (a batch rolled back).
  void truncate(size_t size) {
    if (size >= this->size()) return;
    if (size >= head_size_) {
      tail_.truncate(size - head_size_);
      return;
    }
    tail_.truncate(0);
    head_.resize(size);
    head_size_ = size;
  }

  // Calls f(const T* rows, size_t count) over rows [begin, end), a contiguous span at a time.
  template <typename F>
  void for_each_span(size_t begin, size_t end, F&& f) const {
    if (begin < head_size_) {
      const size_t head_end = std::min(end, head_size_);
      f(head_.data() + begin, head_end - begin);
      begin = head_end;
    }
    if (begin < end) tail_.for_each_span(begin - head_size_, end - head_size_, f);
  }

  // As RowBlocks::release_before: the head goes once every row of it has been copied out.
  void release_before(size_t row, PageRecycler* recycler = nullptr) {
    if (row >= head_size_ && head_.capacity() > 0) std::vector<T>().swap(head_);
    if (row > head_size_) tail_.release_before(row - head_size_, recycler);
  }

 private:
  std::vector<T> head_;
  size_t head_size_ = 0;  // kept when the head is released: the rows stay counted
  RowBlocks<T> tail_;
};

}  // namespace attnprof
