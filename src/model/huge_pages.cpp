#include "model/huge_pages.h"

#include <sys/mman.h>

#include <mutex>

#include <cstdint>
#include <new>

namespace attnprof {

void advise_huge_pages(const void* data, size_t bytes) {
  constexpr uintptr_t kHuge = kHugePageBytes;
  if (bytes < 2 * kHuge) return;
  auto begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end <= begin) return;
#ifdef MADV_HUGEPAGE
  // Failure (THP compiled out, an old kernel) leaves ordinary pages: nothing to report.
  (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#endif
}

namespace {

// Blocks are carved from chunks of kChunkBlocks, so that many small tables (one per CPU thread:
// 80,000 threads in a 6.7 MB trace) share a mapping. A mapping each went past vm.max_map_count
// (65,530) and mmap failed: std::bad_alloc, an abort. Blocks of a chunk that are never advised
// stay one mapping; advising or freeing one splits only its own range.
constexpr size_t kChunkBlocks = 32;

std::mutex g_chunk_mutex;
uintptr_t g_chunk_next = 0;  // the next free block of the current chunk
size_t g_chunk_left = 0;     // blocks left in it

// A new chunk of `blocks` aligned blocks, or 0 when the system has no memory for it.
uintptr_t map_chunk(size_t blocks) {
  // Map one block more and keep the aligned part: mmap only promises page alignment.
  const size_t bytes = (blocks + 1) * kHugePageBytes;
  void* raw = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) return 0;
  auto start = reinterpret_cast<uintptr_t>(raw);
  auto aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  const uintptr_t end = start + bytes, used_end = aligned + blocks * kHugePageBytes;
  if (end > used_end) ::munmap(reinterpret_cast<void*>(used_end), end - used_end);
  return aligned;
}

}  // namespace

void* allocate_huge_block(bool advise) {
  uintptr_t block = 0;
  {
    std::lock_guard lock(g_chunk_mutex);
    if (g_chunk_left == 0) {
      g_chunk_next = map_chunk(kChunkBlocks);
      g_chunk_left = g_chunk_next ? kChunkBlocks : 0;
    }
    if (g_chunk_left > 0) {
      block = g_chunk_next;
      g_chunk_next += kHugePageBytes;
      --g_chunk_left;
    }
  }
  if (block == 0) block = map_chunk(1);  // a chunk is too much for what memory is left
  if (block == 0) throw std::bad_alloc();
#ifdef MADV_HUGEPAGE
  if (advise) (void)::madvise(reinterpret_cast<void*>(block), kHugePageBytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(block);
}

void promote_huge_block(void* block) {
#ifdef MADV_HUGEPAGE
  (void)::madvise(block, kHugePageBytes, MADV_HUGEPAGE);
#endif
#ifndef MADV_COLLAPSE
  constexpr int MADV_COLLAPSE = 25;  // Linux 6.1; older kernels say EINVAL
#endif
  (void)::madvise(block, kHugePageBytes, MADV_COLLAPSE);
}

void free_huge_block(void* block) {
  if (block) ::munmap(block, kHugePageBytes);
}

PageRecycler::~PageRecycler() {
  for (void* block : spare_) free_huge_block(block);
}

void PageRecycler::give(void* block) {
  std::lock_guard lock(mutex_);
  spare_.push_back(block);
}

bool PageRecycler::back(char* page) {
  void* block;
  {
    std::lock_guard lock(mutex_);
    if (spare_.empty()) return false;
    block = spare_.back();
    spare_.pop_back();
  }
  // Replaces the (untouched) pages at `page` with the block's, which leave their old address.
  void* moved =
      ::mremap(block, kHugePageBytes, kHugePageBytes, MREMAP_MAYMOVE | MREMAP_FIXED, page);
  if (moved == MAP_FAILED) free_huge_block(block);
  return true;
}

PageRecycler::Table::Table(PageRecycler& recycler, void* data, size_t bytes)
    : recycler_(recycler),
      next_(reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(data) + kHugePageBytes - 1) &
                                    ~(uintptr_t{kHugePageBytes} - 1))),
      end_(static_cast<char*>(data) + bytes) {}

void PageRecycler::Table::ahead_of(const void* p) {
  const char* at = static_cast<const char*>(p);
  // Two pages ahead: a page is backed before the writer reaches it, not after it faulted.
  while (next_ + kHugePageBytes <= end_ && next_ < at + 2 * kHugePageBytes) {
    if (next_ >= at && !recycler_.back(next_)) return;  // none left for now
    next_ += kHugePageBytes;
  }
}

}  // namespace attnprof
