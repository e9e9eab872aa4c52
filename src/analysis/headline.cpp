#include "analysis/headline.h"

#include <algorithm>
#include <set>

#include "analysis/findings/finding_catalog.h"

namespace attnprof {

namespace {

// The study's baseline: the bench's plain PyTorch attention, `naive`, or a trace of it named with
// a prefix, as the fixtures' `study_naive.json.gz` is (a report of traces names each variant
// after its file).
bool is_baseline(std::string_view name) {
  constexpr std::string_view kBaseline = "naive";
  if (name == kBaseline) return true;
  if (!name.ends_with(kBaseline)) return false;
  const char before = name[name.size() - kBaseline.size() - 1];
  return before == '_' || before == '-';
}

// A named cause must explain this share of the gap to the fastest to go before unfused attention.
constexpr double kNamedCauseShare = 0.25;

// The kernel classes whose time a finding counts (headline_explained_ns, the finding catalog);
// idle time is none.
std::set<KernelClass> classes_of(const std::string& id) {
  std::set<KernelClass> classes;
  const FindingDescription* f = find_finding(id);
  if (!f || f->explains != ExplainedTime::kKernelClasses) return classes;
  for (KernelClass c : kAllKernelClasses)
    if (f->classes & class_bits({c})) classes.insert(c);
  return classes;
}

// The finding's own GPU time per region (Finding::gpu_ns), where its rule counts it and the
// variant's trace ran one kind of region (a trace's regions; not a bench's forward and backward,
// whose findings are the union of both passes').
std::optional<double> own_ns(const HeadlineVariant& v, const std::string& id) {
  if (v.facts.size() != 1) return std::nullopt;
  for (size_t i = 0; i < v.finding_ids.size() && i < v.finding_ns.size(); ++i)
    if (v.finding_ids[i] == id && v.finding_ns[i] >= 0) return v.finding_ns[i];
  return std::nullopt;
}

// A second finding's time over the classes the first does not count: never counted twice.
double time_beside(const std::string& id, const std::string& first, const HeadlineVariant& v) {
  const std::vector<RegionFacts>& facts = v.facts;
  const std::set<KernelClass> taken = classes_of(first);
  const std::set<KernelClass> mine = classes_of(id);
  if (const std::optional<double> own = own_ns(v, id)) {
    for (KernelClass c : mine)
      if (taken.count(c)) return 0;  // its work may be the first's
    return *own;
  }
  double ns = 0;
  for (const RegionFacts& f : facts) {
    if (mine.empty()) {
      if (!classes_of(first).empty()) ns += headline_explained_ns(id, f).value_or(0);
      continue;
    }
    for (KernelClass c : mine)
      if (!taken.count(c)) ns += f.by_class[static_cast<size_t>(c)].time_ns.median;
  }
  return ns;
}

const MainKernel* longest_kernel(const HeadlineVariant& v) {
  const MainKernel* best = nullptr;
  for (const RegionFacts& f : v.facts)
    if (f.main_kernel && (!best || f.main_kernel->duration_ns > best->duration_ns))
      best = &*f.main_kernel;
  return best;
}

std::optional<double> tensor_pipe(const HeadlineVariant& v) {
  for (const RegionFacts& f : v.facts)
    if (f.counters && f.counters->tensor_pipe_pct) return f.counters->tensor_pipe_pct;
  return std::nullopt;
}

// A finding whose time is the GPU's idle (the finding catalog's host gap: wall minus busy).
bool explains_idle_only(const std::string& id) {
  const FindingDescription* f = find_finding(id);
  return f && f->explains == ExplainedTime::kHostGap;
}

// The reason for one slow variant (compute_headline says how it is chosen).
HeadlineReason reason_for(const HeadlineVariant& v, const HeadlineVariant& fastest) {
  const double fastest_ns = *fastest.time_ns;
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
  // Whether a finding can explain some of the compared time.
  auto explains = [&](const std::string& id) {
    return finding_explains_time(id) && !(v.time_is_busy && explains_idle_only(id));
  };
  for (const std::string& id : v.finding_ids) {
    if (!explains(id)) continue;
    if (v.facts.empty()) {
      // Nothing to weigh them with: the first in the rules' order.
      if (reason.finding_id.empty()) reason.finding_id = id;
      continue;
    }
    std::optional<double> ns = own_ns(v, id);
    if (!ns)
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
    // Less than most of the gap: a second finding over other kernels may make up the rest.
    if (gap > 0 && *reason.explained_ns < kHeadlineMost * gap) {
      double also_best = 0;
      for (const std::string& id : v.finding_ids) {
        if (id == reason.finding_id || !explains(id)) continue;
        const double ns = time_beside(id, reason.finding_id, v);
        if (ns > also_best) {
          also_best = ns;
          reason.also_finding_id = id;
        }
      }
      if (!reason.also_finding_id.empty()) reason.also_explained_ns = also_best;
      const double covered = *reason.explained_ns + also_best;
      if (covered < kHeadlineMost * gap) {
        // Not the reason: what the findings cover is said, and the kernels are compared.
        reason.covered_share = covered / gap;
        reason.finding_id.clear();
        reason.explained_ns.reset();
        reason.also_finding_id.clear();
        reason.also_explained_ns.reset();
      }
    }
  }
  if (reason.finding_id.empty()) {
    if (const MainKernel* k = longest_kernel(v)) {
      reason.main_kernel = k->short_name;
      reason.main_kernel_ns = static_cast<double>(k->duration_ns);
      if (const MainKernel* f = longest_kernel(fastest)) {
        HeadlineReason::KernelContrast c;
        c.fastest_kernel = f->short_name;
        c.fastest_kernel_ns = static_cast<double>(f->duration_ns);
        c.generation = kernel_generation(k->name.empty() ? k->short_name : k->name);
        c.fastest_generation = kernel_generation(f->name.empty() ? f->short_name : f->name);
        c.occupancy_pct = k->occupancy_pct;
        c.fastest_occupancy_pct = f->occupancy_pct;
        c.tensor_pipe_pct = tensor_pipe(v);
        c.fastest_tensor_pipe_pct = tensor_pipe(fastest);
        reason.contrast = std::move(c);
      }
    }
  }
  return reason;
}

}  // namespace

bool finding_explains_time(const std::string& id) {
  const FindingDescription* f = find_finding(id);
  return f && f->explains != ExplainedTime::kNone;
}

std::optional<double> headline_explained_ns(const std::string& id, const RegionFacts& f) {
  const FindingDescription* d = find_finding(id);
  if (!d) return std::nullopt;
  switch (d->explains) {
    case ExplainedTime::kKernelClasses: {
      double ns = 0;  // summed in the classes' order, as the report always summed them
      for (KernelClass c : kAllKernelClasses)
        if (d->classes & class_bits({c})) ns += f.by_class[static_cast<size_t>(c)].time_ns.median;
      return ns;
    }
    case ExplainedTime::kCommunication:
      return f.breakdown.communication_ns.median;
    case ExplainedTime::kHostGap:
      return std::max(0.0, f.wall_ns.median - f.gpu_busy_ns.median);
    case ExplainedTime::kUnmeasured:
    case ExplainedTime::kNone:
      break;
  }
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
    if (is_baseline(v.name)) naive = &v;
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
      h.slow.push_back(reason_for(v, *fastest));
  }
  std::stable_sort(
      h.slow.begin(), h.slow.end(),
      [](const HeadlineReason& a, const HeadlineReason& b) { return a.time_ns > b.time_ns; });
  return h;
}

}  // namespace attnprof
