#pragma once
// Large tables on transparent huge pages. On our VMs touching a fresh 4 KiB page costs ~2.6 s
// per GB (PERF_NOTES.md), and the model's tables are its largest fresh memory; with 2 MiB pages
// the kernel takes one fault where it took 512. Measured on the 2-core VM (THP "madvise" mode),
// a 256 MB memset: 1.3-1.8 s on 4 KiB pages; 0.5-1.1 s on huge pages the VM has not used
// lately, but 0.04-0.06 s on huge pages it just freed (reused while another table is released
// block by block). So the reader writes its rows into 2 MiB blocks (RowBlocks) and frees each
// block as soon as its rows are copied into the final tables, whose pages then come warm.
//
// The advice is a hint: where THP is off or no huge page is free, memory behaves as before.

#include <cstddef>
#include <vector>

namespace attnprof {

constexpr size_t kHugePageBytes = size_t{2} << 20;

// Asks for huge pages over the 2 MiB-aligned part of [data, data + bytes). Does nothing for
// less than 4 MiB (no huge page could fit once aligned, or it is not worth a system call).
void advise_huge_pages(const void* data, size_t bytes);

// A kHugePageBytes block aligned to its size, advised for huge pages when `advise`; throws
// std::bad_alloc like operator new when memory is out. free_huge_block returns it to the system
// at once.
void* allocate_huge_block(bool advise = true);
void free_huge_block(void* block);

// Faults in the pages of [data, data + bytes) now, as writing them would (MADV_POPULATE_WRITE),
// so that several threads can share that cost. A hint: does nothing where unsupported.
void populate_pages(void* data, size_t bytes);

// v.reserve(n), then the advice over the reserved capacity (before its pages are touched).
template <typename T>
void reserve_on_huge_pages(std::vector<T>& v, size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// v.assign(n, value) on advised memory.
template <typename T>
void assign_on_huge_pages(std::vector<T>& v, size_t n, const T& value) {
  if (v.capacity() < n) {
    std::vector<T>().swap(v);
    reserve_on_huge_pages(v, n);
  }
  v.assign(n, value);
}

}  // namespace attnprof
