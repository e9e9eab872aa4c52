#pragma once
// Large tables on transparent huge pages. On our VMs touching a fresh 4 KiB page costs ~2.6 s
// per GB (docs/PERFORMANCE.md, "Fresh memory"), and the model's tables are its largest fresh
// memory; with 2 MiB pages the kernel takes one fault where it took 512. Measured on the 2-core VM
// (THP "madvise" mode), a 256 MB memset: 1.3-1.8 s on 4 KiB pages; 0.5-1.1 s on huge pages the VM
// has not used lately, but 0.04-0.06 s on huge pages already in use. So the reader writes its rows
// into 2 MiB blocks (RowBlocks), and each block whose rows are copied into the final tables lends
// its pages to them (PageRecycler).
//
// The advice is a hint: where THP is off or no huge page is free, memory behaves as before.

#include <cstddef>
#include <mutex>
#include <type_traits>
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
// Turns a block allocated without the advice, partly written, into one huge page (its written
// pages are copied): from then on it takes no more faults. A hint, like the advice.
void promote_huge_block(void* block);

// Blocks (allocate_huge_block) whose rows have been copied out, kept to back the next table
// written: their pages move into the table's address range (mremap), warm, where the table would
// have faulted in fresh ones. Freed pages do not come back warm reliably on our VMs: the guest
// hands free 8 MiB ranges back to the host within seconds (free page reporting), and a page the
// host has taken back costs as much as a new one.
class PageRecycler {
 public:
  PageRecycler() = default;
  PageRecycler(const PageRecycler&) = delete;
  PageRecycler& operator=(const PageRecycler&) = delete;
  ~PageRecycler();  // frees the blocks left

  void give(void* block);  // thread-safe

  // A table being written front to back: call ahead_of(p) before writing at p; the whole 2 MiB
  // pages a little ahead of p, not yet written, get spare blocks' pages while there are any.
  // [data, end) must be one allocation of its own (a large malloc block, as std::vector's).
  class Table {
   public:
    Table(PageRecycler& recycler, void* data, size_t bytes);
    void ahead_of(const void* p);

   private:
    PageRecycler& recycler_;
    char* next_;       // the first 2 MiB page not yet backed or passed
    char* const end_;  // of the allocation
  };

 private:
  bool back(char* page);  // moves a spare block to `page`; false when none is left

  std::mutex mutex_;
  std::vector<void*> spare_;
};

// v.reserve(n), then the advice over the reserved capacity (before its pages are touched).
template <typename T>
void reserve_on_huge_pages(std::vector<T>& v, size_t n) {
  v.reserve(n);
  advise_huge_pages(v.data(), v.capacity() * sizeof(T));
}

// v.assign(n, value) on advised memory.
template <typename T>
void assign_on_huge_pages(std::vector<T>& v, size_t n, const std::type_identity_t<T>& value) {
  if (v.capacity() < n) {
    std::vector<T>().swap(v);
    reserve_on_huge_pages(v, n);
  }
  v.assign(n, value);
}

}  // namespace attnprof
