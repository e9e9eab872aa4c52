#include "study/analysis/masked_pairs.h"

#include <fmt/format.h>

#include "analysis/op_cost.h"

namespace attnprof {

namespace {

int64_t queries(const RunProblem& p) {
  return p.q_seq > 0 ? p.q_seq : p.seq;
}

bool masked(const RunProblem& p) {
  return p.mask != RunMask::kNone || p.window > 0;
}

}  // namespace

double visible_share(const RunProblem& p) {
  const int64_t q = queries(p);
  if (q <= 0 || p.seq <= 0) return 1;
  AttentionShape s;
  s.q_len = q;
  s.kv_len = p.seq;
  s.causal = masked(p);
  s.bottom_right = true;
  if (p.window > 0) {
    s.window_left = p.window - 1;
    s.window_right = 0;
  }
  return visible_pairs(s) / (static_cast<double>(q) * static_cast<double>(p.seq));
}

bool computes_every_pair(const RunProblem& p, const RunVariant& v) {
  if (v.variant == "naive" || v.variant == "inplace" || v.variant == "sdpa-math") return true;
  if (v.variant.rfind("sdpa-", 0) != 0) return false;
  if (p.mask == RunMask::kExplicit || (p.mask == RunMask::kCausal && p.window > 0)) return true;
  const int64_t q = queries(p);
  if (p.mask != RunMask::kCausal || q == p.seq || q == 1) return false;
  // A chunk of a prefill: flash and efficient run their own bottom-right causal form (and
  // sdpa-auto when it picked one of them); cuDNN takes the pattern as a tensor.
  const std::string& ran = v.variant == "sdpa-auto" ? v.chosen_backend : v.variant;
  return ran != "sdpa-flash" && ran != "sdpa-efficient" && ran != "flash" && ran != "efficient";
}

std::optional<RunFinding> masked_not_skipped(const RunProblem& p, const RunVariant& v) {
  if (v.status != RunStatus::kOk || !computes_every_pair(p, v)) return std::nullopt;
  const double share = visible_share(p);
  if (share >= kMaskedVisibleShare) return std::nullopt;
  const std::string pattern = p.window > 0
                                  ? fmt::format("a sliding window of {} keys", p.window)
                                  : fmt::format("the causal pattern over {} queries", queries(p));
  RunFinding f;
  f.id = "masked-not-skipped";
  f.summary = fmt::format(
      "masked, not skipped: {:.1f} % of the {} x {} query-key pairs it computes are visible "
      "({}); it computes every pair and the mask throws the rest away",
      100 * share, queries(p), p.seq, pattern);
  f.suggestion = fmt::format(
      "a kernel that skips the hidden blocks does {:.0f} % of this work: FlexAttention with a "
      "block mask (create_block_mask){}",
      100 * share, p.window > 0 ? ", or a windowed kernel (flash_attn's window_size)" : "");
  return f;
}

}  // namespace attnprof
