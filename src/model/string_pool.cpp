#include "model/string_pool.h"

#include <cstring>

namespace attnprof {

namespace {
constexpr size_t kBlockBytes = size_t{1} << 20;
}

StringPool::StringPool() { intern({}); }

std::string_view StringPool::store(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > kBlockBytes / 4) {  // a huge name gets a block of its own
    blocks_.push_back(std::make_unique<char[]>(text.size()));
    std::memcpy(blocks_.back().get(), text.data(), text.size());
    std::string_view stored(blocks_.back().get(), text.size());
    // Keep filling the current block after this one: swap the big block behind it.
    if (blocks_.size() >= 2) std::swap(blocks_[blocks_.size() - 1], blocks_[blocks_.size() - 2]);
    return stored;
  }
  if (blocks_.empty() || block_used_ + text.size() > block_size_) {
    blocks_.push_back(std::make_unique<char[]>(kBlockBytes));
    block_used_ = 0;
    block_size_ = kBlockBytes;
  }
  char* at = blocks_.back().get() + block_used_;
  std::memcpy(at, text.data(), text.size());
  block_used_ += text.size();
  return {at, text.size()};
}

StringId StringPool::intern(std::string_view text) {
  if (auto it = index_.find(text); it != index_.end()) return it->second;
  std::string_view stored = store(text);
  auto id = static_cast<StringId>(strings_.size());
  strings_.push_back(stored);
  index_.emplace(stored, id);
  return id;
}

}  // namespace attnprof
