#pragma once
// `diff RUN_A RUN_B` of two bench runs with counters, as text (study/analysis/counter_diff.h).

#include <string>

#include "study/analysis/counter_diff.h"

namespace attnprof {

// Per variant, each counter in A and B and the change; moved ones marked `*`.
std::string render_counter_diff_text(const CounterDiff& diff);

}  // namespace attnprof
