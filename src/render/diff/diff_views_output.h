#pragma once
// The parts of `attnprof diff`'s output that say what changed: the headline in words, the views
// (by kernel, op, nn.Module class, attention call) and the launch shapes counted, in text,
// Markdown, JSON and CSV. diff_output.cpp puts them in the order every format shares.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "attnprof/trace_diff.h"
#include "render/json_writer.h"

namespace attnprof {

// The views of DiffViews.
enum class DiffView : uint8_t { kByKernel, kByOp, kByModule, kAttention };

// A view's JSON and CSV name and its heading's words, in the order outputs list them.
struct DiffViewName {
  DiffView view;
  std::string_view id;     // "by_kernel", "by_op", "by_module", "attention"
  std::string_view title;  // "By kernel"
  std::string_view noun;   // "kernel", "op", "module", "call"
};
inline constexpr DiffViewName kDiffViewNames[] = {
    {DiffView::kByKernel, "by_kernel", "By kernel", "kernel"},
    {DiffView::kByOp, "by_op", "By op (the op that launched the work)", "op"},
    {DiffView::kByModule, "by_module", "By nn.Module class", "module"},
    {DiffView::kAttention, "attention", "Attention calls, matched by pass and shape", "call"},
};
const std::vector<DiffRow>& diff_view(const DiffViews& views, DiffView view);

// A time (ns, printed in µs) or a count with its sign: "+12.5", "-3", "0.0".
std::string signed_us(double ns);
std::string signed_count(double v);
// A row's time per call in µs ("9.3"), "" without calls.
std::string per_call(double ns, double calls);

// The first lines: how B's region compares in wall time, and which rows hold most of the GPU busy
// change ("86 % of the GPU busy change (-1234.5 µs) is in 3 ops: ...").
std::vector<std::string> diff_headline(const TraceDiff& d);
// "312 kernels changed only in registers; 4 only in grid", or "" when none did.
std::string changed_only_words(const TraceDiff& d);

void text_diff_views(std::string& out, const TraceDiff& d, size_t top);
void markdown_diff_views(std::string& out, const TraceDiff& d, size_t top);
void json_diff_views(JsonWriter& w, const TraceDiff& d);
// One row per entry of a view (every one), for --format csv --table VIEW.
std::string csv_diff_view(const TraceDiff& d, DiffView view);

}  // namespace attnprof
