#pragma once
// put(out, "{} µs", x): formats onto the end of a string, as every text, Markdown and HTML
// renderer writes its output.

#include <fmt/format.h>

#include <iterator>
#include <string>
#include <utility>

namespace attnprof {

template <typename... Args>
void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
  fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

}  // namespace attnprof
