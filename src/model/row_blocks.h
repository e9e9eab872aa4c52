#pragma once
// An append-only table of trivially copyable rows in 2 MiB blocks on huge pages
// (model/huge_pages.h): growing never copies rows, and blocks whose rows have been copied
// elsewhere can be freed one by one, so that the memory is reused warm by the table they were
// copied into. Rows can be forgotten from the end (a batch rolled back).

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/huge_pages.h"

namespace attnprof {

template <typename T>
class RowBlocks {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

 public:
  static constexpr size_t kRowsPerBlock = kHugePageBytes / sizeof(T);

  RowBlocks() = default;
  RowBlocks(const RowBlocks&) = delete;
  RowBlocks& operator=(const RowBlocks&) = delete;
  RowBlocks(RowBlocks&& other) noexcept { *this = std::move(other); }
  RowBlocks& operator=(RowBlocks&& other) noexcept {
    std::swap(blocks_, other.blocks_);
    std::swap(size_, other.size_);
    std::swap(next_, other.next_);
    std::swap(block_end_, other.block_end_);
    std::swap(released_, other.released_);
    return *this;
  }
  ~RowBlocks() {
    for (T* b : blocks_) free_huge_block(b);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }

  void push_back(const T& row) {
    if (next_ == block_end_) next_block();
    std::memcpy(static_cast<void*>(next_), &row, sizeof(T));
    ++next_;
    // A table that grows past an eighth of its first block is not a small one after all: that
    // block becomes a huge page too, rather than take 448 more small-page faults.
    if (++size_ == kRowsPerBlock / 8) promote_huge_block(blocks_[0]);
  }

  // Forgets the rows from `size` on; their blocks are kept for the rows that come next.
  void truncate(size_t size) {
    if (size >= size_) return;
    size_ = size;
    if (size_ % kRowsPerBlock == 0) {
      next_ = block_end_ = nullptr;  // the next push takes (or reuses) block size_ / kRowsPerBlock
    } else {
      T* block = blocks_[size_ / kRowsPerBlock];
      next_ = block + size_ % kRowsPerBlock;
      block_end_ = block + kRowsPerBlock;
    }
  }

  // Calls f(const T* rows, size_t count) over rows [begin, end), one block-sized span at a time.
  template <typename F>
  void for_each_span(size_t begin, size_t end, F&& f) const {
    while (begin < end) {
      size_t block = begin / kRowsPerBlock, at = begin % kRowsPerBlock;
      size_t count = std::min(end - begin, kRowsPerBlock - at);
      f(blocks_[block] + at, count);
      begin += count;
    }
  }

  // Gives up the blocks that hold only rows before `row`, all of them once `row` is size() (they
  // have been copied out and will not be read again): to `recycler`, else to the system. The rows
  // stay counted; reading them is an error.
  void release_before(size_t row, PageRecycler* recycler = nullptr) {
    size_t whole = row >= size_ ? blocks_.size() : std::min(row / kRowsPerBlock, blocks_.size());
    for (size_t b = released_; b < whole; ++b) {
      if (recycler)
        recycler->give(blocks_[b]);
      else
        free_huge_block(blocks_[b]);
      blocks_[b] = nullptr;
    }
    released_ = std::max(released_, whole);
  }

 private:
  // Called when size_ is a multiple of kRowsPerBlock.
  void next_block() {
    size_t block = size_ / kRowsPerBlock;
    // The first block is left on small pages: a table of a few rows (a quiet thread) then costs
    // a few pages, not a whole huge page (push_back promotes it if the table grows).
    if (block == blocks_.size())
      blocks_.push_back(static_cast<T*>(allocate_huge_block(/*advise=*/block > 0)));
    next_ = blocks_[block];
    block_end_ = next_ + kRowsPerBlock;
  }

  std::vector<T*> blocks_;
  size_t size_ = 0;
  T* next_ = nullptr;
  T* block_end_ = nullptr;
  size_t released_ = 0;  // blocks_[..released_) are freed
};

}  // namespace attnprof
