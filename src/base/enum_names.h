#pragma once
// An enum's names table: one array of (value, name) pairs that reads text into the enum (a CLI
// flag, a JSON or CSV field) and writes the enum back as text, so that each spelling is written
// once and a renderer switches on the value, never on the text.

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace attnprof {

template <typename E, size_t N>
using EnumNames = std::array<std::pair<E, std::string_view>, N>;

// The name of `value`; "" for a value the table lacks.
template <typename E, size_t N>
constexpr std::string_view name_in(const EnumNames<E, N>& names, E value) {
  for (const auto& [v, name] : names)
    if (v == value) return name;
  return {};
}

// The value `text` names; none for a name the table lacks.
template <typename E, size_t N>
constexpr std::optional<E> parse_name_in(const EnumNames<E, N>& names, std::string_view text) {
  for (const auto& [v, name] : names)
    if (name == text) return v;
  return std::nullopt;
}

// Every name, in the table's order: a flag's choices.
template <typename E, size_t N>
std::vector<std::string> names_in(const EnumNames<E, N>& names) {
  std::vector<std::string> out;
  for (const auto& entry : names) out.emplace_back(entry.second);
  return out;
}

}  // namespace attnprof
