#include "model/huge_pages.h"

#include <sys/mman.h>

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

void populate_pages(void* data, size_t bytes) {
#ifndef MADV_POPULATE_WRITE
  constexpr int MADV_POPULATE_WRITE = 23;  // Linux 5.14; older kernels say EINVAL
#endif
  constexpr uintptr_t kPage = 4096;
  auto begin = (reinterpret_cast<uintptr_t>(data) + kPage - 1) & ~(kPage - 1);
  auto end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kPage - 1);
  if (end > begin)
    (void)::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_POPULATE_WRITE);
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

void free_huge_block(void* block) {
  if (block) ::munmap(block, kHugePageBytes);
}

}  // namespace attnprof
