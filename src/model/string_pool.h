#pragma once
// Interned strings: every name in a trace is stored once; events hold a 32-bit id.
//
// Interning is on the reader's hot path (one name per event, millions of events), so the index
// is an open-addressing table keyed by a hash of a few sampled words of the text (its length,
// first, middle and last bytes); a hit is confirmed by comparing the whole text. Should sampled
// hashes collide often (texts that differ only where the hash does not look), the pool switches
// to hashing every byte.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace attnprof {

using StringId = uint32_t;

class StringPool {
 public:
  StringPool();
  StringPool(StringPool&&) noexcept = default;
  StringPool& operator=(StringPool&&) noexcept = default;

  StringId intern(std::string_view text);
  std::string_view view(StringId id) const { return strings_[id]; }
  size_t size() const { return strings_.size(); }
  // Forgets the strings with ids >= `size` (their text stays allocated until the pool dies).
  void truncate(size_t size);
  // The bytes the pool holds: its text blocks, the views and the index.
  size_t memory_bytes() const;
  // Id 0 is always the empty string.
  static constexpr StringId kEmpty = 0;

 private:
  struct Slot {
    uint32_t hash = 0;
    uint32_t id_plus_one = 0;  // 0: empty
  };

  std::string_view store(std::string_view text);
  uint32_t hash(std::string_view text) const;
  void rehash(size_t slot_count);

  // Text lives in fixed blocks that never move, so the views stay valid as the pool grows.
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  size_t block_bytes_ = 0;  // every block's size, together
  std::vector<std::string_view> strings_;
  std::vector<Slot> slots_;  // a power of two, at most half full
  bool hash_every_byte_ = false;
};

}  // namespace attnprof
