#include "model/string_pool.h"

#include <cstring>

namespace attnprof {

namespace {

constexpr size_t kBlockBytes = size_t{1} << 20;
// A lookup that meets more texts than this with its own hash but other bytes means the sampled
// hash does not tell this trace's names apart: from then on every byte is hashed.
constexpr int kSampledCollisionLimit = 8;

uint64_t load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}

// Folds the 128-bit product of two words: a cheap mix where every input bit reaches the output.
uint64_t mix(uint64_t a, uint64_t b) {
  __uint128_t m = static_cast<__uint128_t>(a ^ 0x9e3779b97f4a7c15ULL) * (b ^ 0xd6e8feb86659fd93ULL);
  return static_cast<uint64_t>(m) ^ static_cast<uint64_t>(m >> 64);
}

}  // namespace

StringPool::StringPool() {
  slots_.resize(1024);
  intern({});
}

uint32_t StringPool::hash(std::string_view text) const {
  const char* p = text.data();
  const size_t n = text.size();
  uint64_t h;
  if (n >= 8) {
    h = mix(load8(p) ^ n, load8(p + n - 8));
    if (n > 16) {
      if (hash_every_byte_) {
        for (size_t i = 8; i + 8 < n; i += 8) h = mix(h ^ load8(p + i), n);
      } else {
        h = mix(h ^ load8(p + n / 2 - 4), load8(p + n / 4));
      }
    }
  } else {
    uint64_t word = 0;
    if (n > 0) std::memcpy(&word, p, n);  // an empty view may have a null data pointer
    h = mix(word, n);
  }
  return static_cast<uint32_t>(h ^ (h >> 32));
}

std::string_view StringPool::store(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > kBlockBytes / 4) {  // a huge name gets a block of its own
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(text.size()));
    block_bytes_ += text.size();
    std::memcpy(blocks_.back().get(), text.data(), text.size());
    std::string_view stored(blocks_.back().get(), text.size());
    // Keep filling the current block after this one: swap the big block behind it.
    if (blocks_.size() >= 2) std::swap(blocks_[blocks_.size() - 1], blocks_[blocks_.size() - 2]);
    return stored;
  }
  if (blocks_.empty() || block_used_ + text.size() > block_size_) {
    // Not value-initialized: a block's pages are touched only as names are written into them, so
    // a small trace does not pay to zero a whole block per pool (one per reading thread).
    blocks_.push_back(std::make_unique_for_overwrite<char[]>(kBlockBytes));
    block_bytes_ += kBlockBytes;
    block_used_ = 0;
    block_size_ = kBlockBytes;
  }
  char* at = blocks_.back().get() + block_used_;
  std::memcpy(at, text.data(), text.size());
  block_used_ += text.size();
  return {at, text.size()};
}

size_t StringPool::memory_bytes() const {
  return block_bytes_ + blocks_.capacity() * sizeof(blocks_[0]) +
         strings_.capacity() * sizeof(strings_[0]) + slots_.capacity() * sizeof(slots_[0]);
}

StringId StringPool::intern(std::string_view text) {
  const uint32_t h = hash(text);
  const size_t mask = slots_.size() - 1;
  int collisions = 0;
  for (size_t i = h & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.id_plus_one == 0) {
      auto id = static_cast<StringId>(strings_.size());
      strings_.push_back(store(text));
      slot.hash = h;
      slot.id_plus_one = id + 1;
      if (strings_.size() * 2 > slots_.size()) rehash(slots_.size() * 2);
      return id;
    }
    if (slot.hash == h) {
      // string_view's == and not memcmp: the empty string is stored with a null data pointer,
      // and memcmp(nullptr, ..., 0) is undefined (an instant event without a name, found by
      // fuzz/trace_fuzzer: tests/data/fuzz-regressions/instant-without-name.json).
      if (strings_[slot.id_plus_one - 1] == text) return slot.id_plus_one - 1;
      if (++collisions > kSampledCollisionLimit && !hash_every_byte_) {
        hash_every_byte_ = true;
        rehash(slots_.size());
        return intern(text);
      }
    }
  }
}

void StringPool::rehash(size_t slot_count) {
  slots_.assign(slot_count, Slot{});
  const size_t mask = slot_count - 1;
  for (size_t id = 0; id < strings_.size(); ++id) {
    const uint32_t h = hash(strings_[id]);
    size_t i = h & mask;
    while (slots_[i].id_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = {h, static_cast<uint32_t>(id + 1)};
  }
}

void StringPool::truncate(size_t size) {
  if (size < 1) size = 1;  // the empty string stays
  if (size >= strings_.size()) return;
  strings_.resize(size);
  rehash(slots_.size());
}

}  // namespace attnprof
