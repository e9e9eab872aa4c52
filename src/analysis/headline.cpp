#include "analysis/headline.h"

#include <algorithm>
#include <initializer_list>
#include <set>

namespace attnprof {

namespace {

// The study's baseline: the bench's plain PyTorch attention.
constexpr const char* kBaseline = "naive";

// A named cause must explain this share of the gap to the fastest to go before unfused attention.
constexpr double kNamedCauseShare = 0.25;

double class_time(const RegionFacts& facts, std::initializer_list<KernelClass> classes) {
  double ns = 0;
  for (KernelClass c : classes) ns += facts.by_class[static_cast<size_t>(c)].time_ns.median;
  return ns;
}

// The reason for one slow variant (compute_headline says how it is chosen).
HeadlineReason reason_for(const HeadlineVariant& v, double fastest_ns) {
  HeadlineReason reason;
  reason.variant = v.name;
  reason.time_ns = *v.time_ns;
  reason.times_slower = *v.time_ns / fastest_ns;
  const double gap = *v.time_ns - fastest_ns;
  if (!v.facts.empty()) {
    reason.region_ns = 0;
    for (const RegionFacts& f : v.facts) *reason.region_ns += f.gpu_busy_ns.median;
  }
  std::optional<double> best_ns, best_named_ns;
  std::string best, best_named;
  for (const std::string& id : v.finding_ids) {
    if (!finding_explains_time(id)) continue;
    if (v.facts.empty()) {
      // Nothing to weigh them with: the first in the rules' order.
      if (reason.finding_id.empty()) reason.finding_id = id;
      continue;
    }
    std::optional<double> ns;
    for (const RegionFacts& f : v.facts)
      if (const std::optional<double> pass = headline_explained_ns(id, f))
        ns = ns.value_or(0) + *pass;
    if (!ns) continue;
    if (!best_ns || *ns > *best_ns) {
      best_ns = ns;
      best = id;
    }
    if (id != "not-fused" && (!best_named_ns || *ns > *best_named_ns)) {
      best_named_ns = ns;
      best_named = id;
    }
  }
  if (best_ns) {
    const bool named_first =
        best == "not-fused" && best_named_ns && gap > 0 && *best_named_ns >= kNamedCauseShare * gap;
    reason.finding_id = named_first ? best_named : best;
    reason.explained_ns = named_first ? best_named_ns : best_ns;
  }
  if (reason.finding_id.empty()) {
    for (const RegionFacts& f : v.facts) {
      if (!f.main_kernel) continue;
      const auto ns = static_cast<double>(f.main_kernel->duration_ns);
      if (!reason.main_kernel.empty() && ns <= reason.main_kernel_ns) continue;
      reason.main_kernel = f.main_kernel->short_name;
      reason.main_kernel_ns = ns;
    }
  }
  return reason;
}

}  // namespace

bool finding_explains_time(const std::string& id) {
  static const std::set<std::string> kExplainsTime = {
      "hidden-copy",   "kv-repeat",    "precision-upcast", "mask-rebuilt",       "not-fused",
      "cpu-side-cost", "launch-bound", "synchronization",  "communication-bound"};
  return kExplainsTime.count(id) > 0;
}

std::optional<double> headline_explained_ns(const std::string& id, const RegionFacts& f) {
  using K = KernelClass;
  if (id == "hidden-copy" || id == "kv-repeat") return class_time(f, {K::kCopy});
  if (id == "precision-upcast") return class_time(f, {K::kGemm});
  if (id == "mask-rebuilt") return class_time(f, {K::kMask});
  if (id == "not-fused")
    return class_time(f, {K::kSoftmax, K::kMask, K::kElementwise, K::kReduction, K::kCopy});
  if (id == "communication-bound") return f.breakdown.communication_ns.median;
  if (id == "cpu-side-cost" || id == "launch-bound" || id == "synchronization")
    return std::max(0.0, f.wall_ns.median - f.gpu_busy_ns.median);
  return std::nullopt;
}

std::vector<size_t> rank_findings(const std::vector<std::string>& ids,
                                  const std::vector<RegionFacts>& facts) {
  std::vector<size_t> order(ids.size());
  std::vector<double> explained(ids.size(), 0);
  for (size_t i = 0; i < ids.size(); ++i) {
    order[i] = i;
    for (const RegionFacts& f : facts) explained[i] += headline_explained_ns(ids[i], f).value_or(0);
  }
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    const bool ta = finding_explains_time(ids[a]), tb = finding_explains_time(ids[b]);
    if (ta != tb) return ta;
    return ta && explained[a] > explained[b];
  });
  return order;
}

std::optional<Headline> compute_headline(const std::vector<HeadlineVariant>& variants) {
  const HeadlineVariant* fastest = nullptr;
  const HeadlineVariant* slowest = nullptr;
  const HeadlineVariant* naive = nullptr;
  for (const HeadlineVariant& v : variants) {
    if (!v.time_ns || *v.time_ns <= 0) continue;
    if (!fastest || *v.time_ns < *fastest->time_ns) fastest = &v;
    if (!slowest || *v.time_ns > *slowest->time_ns) slowest = &v;
    if (v.name == kBaseline) naive = &v;
  }
  if (!fastest) return std::nullopt;
  Headline h;
  h.fastest = fastest->name;
  h.fastest_ns = *fastest->time_ns;
  const HeadlineVariant* baseline = naive ? naive : slowest;
  h.baseline = baseline->name;
  h.baseline_is_naive = naive != nullptr;
  h.baseline_ns = *baseline->time_ns;
  h.speedup = h.baseline_ns / h.fastest_ns;
  for (const HeadlineVariant& v : variants) {
    if (&v == fastest || !v.time_ns || *v.time_ns <= 0) continue;
    if (*v.time_ns <= h.fastest_ns * kHeadlineTie)
      h.as_fast.push_back(v.name);
    else
      h.slow.push_back(reason_for(v, h.fastest_ns));
  }
  std::stable_sort(
      h.slow.begin(), h.slow.end(),
      [](const HeadlineReason& a, const HeadlineReason& b) { return a.time_ns > b.time_ns; });
  return h;
}

std::vector<HeadlineVariant> headline_variants(const RunPoint& point) {
  std::vector<HeadlineVariant> out;
  for (const RunVariant& v : point.variants) {
    HeadlineVariant h;
    h.name = variant_label(v);
    if (v.median_ms) h.time_ns = *v.median_ms * 1e6;
    for (const std::optional<RunRegionFacts>* pass : {&v.forward, &v.backward})
      if (*pass)
        for (const RunFinding& f : (*pass)->findings)
          if (std::find(h.finding_ids.begin(), h.finding_ids.end(), f.id) == h.finding_ids.end())
            h.finding_ids.push_back(f.id);
    out.push_back(std::move(h));
  }
  return out;
}

std::vector<HeadlineVariant> headline_variants(const ReportBackward& backward) {
  if (backward.focus_point < 0) return {};
  std::vector<HeadlineVariant> out =
      headline_variants(backward.run.points[static_cast<size_t>(backward.focus_point)]);
  for (size_t i = 0; i < out.size() && i < backward.facts.size(); ++i)
    out[i].facts = backward.facts[i];
  return out;
}

std::vector<HeadlineVariant> headline_variants(const ReportData& data) {
  if (data.run) {
    if (data.focus_point < 0) return {};
    std::vector<HeadlineVariant> out =
        headline_variants(data.run->points[static_cast<size_t>(data.focus_point)]);
    // load_report keeps the focus point's variants in its order, one each.
    for (size_t i = 0; i < out.size() && i < data.variants.size(); ++i) {
      const ReportVariant& v = data.variants[i];
      if (v.analysis && !v.analysis->regions.empty()) out[i].facts = {v.analysis->facts};
    }
    return out;
  }
  std::vector<HeadlineVariant> out;
  for (const ReportVariant& v : data.variants) {
    HeadlineVariant h;
    h.name = v.name;
    if (v.analysis && !v.analysis->regions.empty()) {
      h.time_ns = v.analysis->facts.gpu_busy_ns.median;
      h.facts = {v.analysis->facts};
      for (const Finding& f : v.analysis->findings) h.finding_ids.emplace_back(finding_id(f.kind));
    }
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace attnprof
