#pragma once
// Phrases and number formats shared by the check and diff reports.

#include <cstdint>
#include <string>
#include <vector>

#include "analysis/spread.h"

namespace attnprof {

// "3 regions matching \"forward\"", "1 region (the whole trace)".
std::string describe_regions(int64_t count, const std::string& pattern);

// A spread of nanoseconds in microseconds: "2271.2", or "2271.2 (2270.8..2272.5)" when it varies.
std::string format_spread_us(const Spread& s);
// A spread of counts: "5", or "5 (4..6)" when it varies.
std::string format_spread_count(const Spread& s);

// Cuts `text` to `width` characters, ending in "..." when cut.
std::string clip(const std::string& text, size_t width);

// Text for a Markdown table cell: `|` escaped, `<` and `>` as entities.
std::string markdown_cell(const std::string& text);

// "aten::masked_fill -> aten::clone -> aten::copy_ -> cudaMemcpyAsync": the ops, outermost first,
// then the launching API; `arrow` joins them.
std::string launch_chain(const std::vector<std::string>& op_chain, const std::string& launch_api,
                         const char* arrow = " -> ");

}  // namespace attnprof
