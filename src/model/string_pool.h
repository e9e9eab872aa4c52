#pragma once
// Interned strings: every name in a trace is stored once; events hold a 32-bit id.

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
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
  // Id 0 is always the empty string.
  static constexpr StringId kEmpty = 0;

 private:
  std::string_view store(std::string_view text);

  // Text lives in fixed blocks that never move, so the views stay valid as the pool grows.
  std::vector<std::unique_ptr<char[]>> blocks_;
  size_t block_used_ = 0;
  size_t block_size_ = 0;
  std::vector<std::string_view> strings_;
  std::unordered_map<std::string_view, StringId> index_;
};

}  // namespace attnprof
