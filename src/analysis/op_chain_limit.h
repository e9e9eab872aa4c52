#pragma once
// How deep an activity's op chain goes. Real chains are a few ops (a module's op, its aten
// calls, the copy under them); a trace can nest ops without end, and every GPU activity keeps a
// copy of its chain, so an unbounded chain made activities x depth strings. A chain keeps its
// innermost kMaxOpChainDepth ops (those nearest the launch, which name what ran) and, when ops
// above were cut, starts with kOpChainCut, so every output says so.

#include <cstddef>
#include <string_view>

namespace attnprof {

inline constexpr size_t kMaxOpChainDepth = 64;
// The walk up from an activity stops after this many host events (ops and annotations alike).
inline constexpr size_t kMaxOpChainWalk = 4 * kMaxOpChainDepth;
inline constexpr std::string_view kOpChainCut = "[outer ops cut: a chain keeps its 64 innermost]";

}  // namespace attnprof
