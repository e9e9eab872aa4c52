#pragma once
// Large tables on transparent huge pages. On our VMs touching a fresh 4 KiB page costs ~2.6 s
// per GB (PERF_NOTES.md), and the model's tables are its largest fresh memory; with 2 MiB pages
// the kernel takes one fault where it took 512. Measured on the 2-core VM (THP "madvise" mode):
// 256 MB memset, fresh, 1.3-1.8 s on 4 KiB pages against 0.04-0.06 s once advised (the first
// huge-page allocation after boot can take longer while the kernel compacts).
//
// The advice is a hint: where THP is off or no huge page is free, memory behaves as before.

#include <cstddef>
#include <vector>

namespace attnprof {

// Asks for huge pages over the 2 MiB-aligned part of [data, data + bytes). Does nothing for
// less than 4 MiB (no huge page could fit once aligned, or it is not worth a system call).
void advise_huge_pages(const void* data, size_t bytes);

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
