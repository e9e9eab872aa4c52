#pragma once
// "Masked, not skipped": a study variant that computes every query-key pair while its mask lets
// only a small share of them through (a sliding window given as a mask tensor, a chunk of a
// prefill, the naive forms). The work itself is wasted, which a table of times and bandwidths
// does not say; a kernel that skips the hidden blocks (a block mask, a windowed kernel) would not
// do it. Told from the run's problem and the variant alone: what the mask hides is known to the
// bench that built it.

#include <optional>

#include "study/run/run_summary.h"

namespace attnprof {

// Below this share of visible pairs among those computed, the finding is made.
inline constexpr double kMaskedVisibleShare = 0.5;

// The share of the query-key pairs of `problem` that its mask lets through (the bench's causal
// pattern is aligned to the end, windows end at each query's own key), in [0, 1].
double visible_share(const RunProblem& problem);

// Whether `variant` computes every pair of `problem` whatever the mask hides: the naive forms and
// SDPA's math backend always; SDPA's fused backends when the bench hands them the mask as a tensor
// (an explicit mask or a window; for a chunk of a prefill, causal queries fewer than the keys but
// more than one, only cuDNN: flash and efficient run their bottom-right causal form,
// bench/src/problem.cpp, sdpa_mask_form). Other variants (a custom kernel, flex) are not judged.
bool computes_every_pair(const RunProblem& problem, const RunVariant& variant);

// The finding, when the variant computes every pair and fewer than kMaskedVisibleShare of them
// are visible.
std::optional<RunFinding> masked_not_skipped(const RunProblem& problem, const RunVariant& variant);

}  // namespace attnprof
