#include "model/collective_text.h"

#include <fmt/format.h>

#include <charconv>

namespace attnprof {

namespace {

// The text: a tag, the three numbers, then the byte lengths of the first two strings and the
// strings themselves, so that it splits exactly whatever bytes the names hold.
constexpr std::string_view kTag = "collective:";

bool read_number(std::string_view& text, int64_t& out) {
  const auto end = text.find(' ');
  if (end == std::string_view::npos) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + end, out);
  if (ec != std::errc() || ptr != text.data() + end) return false;
  text.remove_prefix(end + 1);
  return true;
}

}  // namespace

void join_collective_fields(const CollectiveFields& f, std::string& out) {
  out.clear();
  fmt::format_to(std::back_inserter(out), "{}{} {} {} {} {} {}{}{}", kTag, f.in_nelems,
                 f.out_nelems, f.group_size, f.name.size(), f.dtype.size(), f.name, f.dtype,
                 f.process_group);
}

std::optional<CollectiveFields> split_collective_fields(std::string_view text) {
  if (!text.starts_with(kTag)) return std::nullopt;
  text.remove_prefix(kTag.size());
  CollectiveFields f;
  int64_t name_size = 0, dtype_size = 0;
  if (!read_number(text, f.in_nelems) || !read_number(text, f.out_nelems) ||
      !read_number(text, f.group_size) || !read_number(text, name_size) ||
      !read_number(text, dtype_size) || name_size < 0 || dtype_size < 0 ||
      static_cast<uint64_t>(name_size) + static_cast<uint64_t>(dtype_size) > text.size())
    return std::nullopt;
  f.name = text.substr(0, static_cast<size_t>(name_size));
  f.dtype = text.substr(static_cast<size_t>(name_size), static_cast<size_t>(dtype_size));
  f.process_group = text.substr(static_cast<size_t>(name_size + dtype_size));
  return f;
}

}  // namespace attnprof
