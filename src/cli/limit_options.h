#pragma once
// The flags that raise the reader's limits, shared by every command that reads traces.
// Sizes take binary suffixes (64G, 512M, 1KiB; docs/SECURITY.md); a negative number is refused, not
// read as "unlimited" (-1 on a 64-bit flag wrapped to 2^64 - 1 before).

#include <cstdint>
#include <optional>
#include <string_view>

#include <CLI/CLI.hpp>

#include "attnprof/limits.h"

namespace attnprof::cli {

// "123", "64K", "512M", "1G", "2T", with an optional "iB" or "B" ("1GiB", "1GB": all binary);
// none when the text is not such a size, is negative, or exceeds 2^64 - 1.
std::optional<uint64_t> parse_size(std::string_view text);
// A plain non-negative decimal integer up to `max`.
std::optional<uint64_t> parse_count(std::string_view text, uint64_t max);

// Whether --help lists the limit flags (under "Limits"); they are hidden unless --help-all asked
// for them. Set before the commands register their flags.
void show_limit_flags(bool shown);

struct LimitOptions {
  Limits limits;
  void add_to(CLI::App& cmd);
  Limits to_limits() const { return limits; }
};

}  // namespace attnprof::cli
