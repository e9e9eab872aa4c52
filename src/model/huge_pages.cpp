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

void* allocate_huge_block(bool advise) {
  // Map twice the size and keep the aligned half: mmap only promises page alignment.
  void* raw = ::mmap(nullptr, 2 * kHugePageBytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  auto start = reinterpret_cast<uintptr_t>(raw);
  auto aligned = (start + kHugePageBytes - 1) & ~(uintptr_t{kHugePageBytes} - 1);
  if (aligned > start) ::munmap(raw, aligned - start);
  uintptr_t end = start + 2 * kHugePageBytes;
  if (end > aligned + kHugePageBytes)
    ::munmap(reinterpret_cast<void*>(aligned + kHugePageBytes), end - aligned - kHugePageBytes);
#ifdef MADV_HUGEPAGE
  if (advise) (void)::madvise(reinterpret_cast<void*>(aligned), kHugePageBytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
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
