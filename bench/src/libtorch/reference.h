#pragma once
// Correctness of a variant against attention computed in float64.

#include <cstdint>

#include "libtorch/variants.h"
#include "variant_runner.h"

namespace attnprof::bench {

// Runs `call` on fresh random inputs drawn from `seed`, then computes the same attention in
// float64 on the same device from the same (already rounded) inputs, and returns the relative
// Frobenius error ||x - ref|| / ||ref|| of the output and, with the backward, of dq, dk and dv.
// The reference runs over groups of heads so that its float64 score matrices stay within a
// couple of GiB whatever the sequence length. A NaN anywhere makes the error NaN, which fails.
// Throws what LibTorch throws (the caller is the per-variant boundary).
Correctness check_correctness(const AttentionCall& call, uint64_t seed);

}  // namespace attnprof::bench
