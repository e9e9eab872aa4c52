#include "study/analysis/counter_diff.h"

#include <cmath>

namespace attnprof {

namespace {

const RunVariant* find(const RunSummary& run, const std::string& name) {
  if (run.points.empty()) return nullptr;
  for (const RunVariant& v : run.points.front().variants)
    if (v.variant == name) return &v;
  return nullptr;
}

struct Counter {
  const char* name;
  bool percentage;
  std::optional<double> (*get)(const RunVariant&);
};

constexpr Counter kCounters[] = {
    {"counted_kernels", false,
     [](const RunVariant& v) { return std::optional<double>(v.counters->kernels); }},
    {"gpu_time_ns", false,
     [](const RunVariant& v) { return std::optional<double>(v.counters->duration_ns); }},
    {"achieved_occupancy_pct", true,
     [](const RunVariant& v) { return v.counters->achieved_occupancy_pct; }},
    {"tensor_pipe_pct", true, [](const RunVariant& v) { return v.counters->tensor_pipe_pct; }},
    {"fp32_pipe_pct", true, [](const RunVariant& v) { return v.counters->fp32_pipe_pct; }},
    {"dram_bytes", false, [](const RunVariant& v) { return v.counters->dram_bytes(); }},
    {"dram_throughput_pct", true,
     [](const RunVariant& v) { return v.counters->dram_throughput_pct; }},
    {"l2_hit_rate_pct", true, [](const RunVariant& v) { return v.counters->l2_hit_rate_pct; }},
    {"sm_throughput_pct", true, [](const RunVariant& v) { return v.counters->sm_throughput_pct; }},
    {"percent_of_roof", true, [](const RunVariant& v) { return v.percent_of_roof; }},
};

bool moved(double a, double b, bool percentage) {
  const double delta = std::abs(b - a);
  if (percentage)
    return delta > kCounterPointsChange && delta > kCounterRelativeChange * std::abs(a);
  return delta > kCounterRelativeChange * std::abs(a);
}

VariantCounterDiff compare(const std::string& name, const RunVariant* a, const RunVariant* b) {
  VariantCounterDiff d;
  d.variant = name;
  if (!a || !b) {
    d.missing = a ? "only in A" : "only in B";
    return d;
  }
  if (!a->counters || !b->counters) {
    d.missing = !a->counters && !b->counters ? "no counters in either run"
                : !a->counters               ? "no counters in A"
                                             : "no counters in B";
    return d;
  }
  for (const Counter& c : kCounters) {
    CounterChange change{c.name, c.get(*a), c.get(*b), false};
    if (change.a && change.b) change.changed = moved(*change.a, *change.b, c.percentage);
    d.counters.push_back(change);
  }
  return d;
}

}  // namespace

CounterDiff diff_counters(const RunSummary& a, const RunSummary& b) {
  CounterDiff diff{a.path, b.path, {}};
  if (!a.points.empty()) {
    for (const RunVariant& v : a.points.front().variants)
      diff.variants.push_back(compare(v.variant, &v, find(b, v.variant)));
  }
  if (!b.points.empty()) {
    for (const RunVariant& v : b.points.front().variants)
      if (!find(a, v.variant)) diff.variants.push_back(compare(v.variant, nullptr, &v));
  }
  return diff;
}

}  // namespace attnprof
